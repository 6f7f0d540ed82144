package dev.svc.chat.reference.gateway;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.Conditions;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A handshake whose positions cannot be read (the database is down) is refused with {@code internal} and leaves
 * nothing indexed; the client may CONNECT again on the same socket, and is answered once the store reads.
 */
class ConnectPositionsUnreadTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void unreadablePositionsRefuseTheHandshakeWithInternalAndARetryIsAnswered() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        InMemoryStore memory = new InMemoryStore();
        Store store = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("positionsOf") && down.get()) {
                        throw new IllegalStateException("database: connection refused");
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25), Duration.ofSeconds(5), store)) {
            String room = gateway.room("alice", "bob");
            String token = gateway.token("alice");
            try (RecordingSocket alice = new RecordingSocket(gateway.socketUrl())) {
                alice.expect("0{", WAIT);
                alice.send("40{\"token\":\"" + token + "\"}");
                assertEquals("44{\"message\":\"internal\",\"data\":{\"code\":\"internal\"}}", alice.expect("4", WAIT));
                // the refused session's presence flip is batched: wait until the fan-out indexes no connection
                FanOut fanOut = gateway.fanOut();
                Conditions.until("nothing indexed after the refusal", WAIT, () -> fanOut.indexedConnections() == 0,
                        fanOut::indexedConnections);
                down.set(false);
                alice.send("40{\"token\":\"" + token + "\"}");
                String answer = alice.expect("40{", WAIT);
                assertTrue(answer.contains("\"rooms\":[{\"id\":\"" + room + "\",\"seq\":0,\"rev\":0}]"), answer);
                gateway.send("bob", room, "m1");
                assertTrue(alice.expect("42[\"new-message\"", WAIT).contains("\"m1\""));
            }
        }
    }
}
