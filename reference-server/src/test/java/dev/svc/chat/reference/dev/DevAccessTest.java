package dev.svc.chat.reference.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When the dev API and the console are served (the tests bind loopback only: a wider bind is decided here). */
class DevAccessTest {

    @Test
    void onByDefaultOnLoopbackOnly() {
        assertEquals(new DevAccess(true, true), DevAccess.forBind("127.0.0.1", null, null));
        assertEquals(new DevAccess(true, true), DevAccess.forBind("::1", null, null));
        assertEquals(new DevAccess(true, true), DevAccess.forBind("[::1]", null, null));
        assertEquals(new DevAccess(true, true), DevAccess.forBind("localhost", null, null));
        assertEquals(new DevAccess(false, false), DevAccess.forBind("0.0.0.0", null, null));
        assertEquals(new DevAccess(false, false), DevAccess.forBind("::", null, null));
        assertEquals(new DevAccess(false, false), DevAccess.forBind("192.0.2.10", null, null));
    }

    @Test
    void theOperatorDecidesAndTheConsoleNeedsTheDevApi() {
        assertEquals(new DevAccess(true, false), DevAccess.forBind("0.0.0.0", true, null));
        assertEquals(new DevAccess(true, true), DevAccess.forBind("0.0.0.0", true, true));
        assertEquals(new DevAccess(false, false), DevAccess.forBind("127.0.0.1", false, true));
        assertEquals(new DevAccess(true, false), DevAccess.forBind("127.0.0.1", null, false));
    }
}
