package dev.svc.chat.reference.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** Which requests the send route takes ahead of Javalin: exactly the route's POST, else none. */
class SendRouteMatchTest {

    private static HttpServletRequest request(String method, String uri) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getRequestURI" -> uri;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    @Test
    void takesThePostOfTheRouteWithAPlainRoomId() {
        String room = "4c12c52d-f77b-4920-9a34-793e2b3eb645";
        assertEquals(room, SendRoute.roomOf(request("POST", "/v1/chat/rooms/" + room + "/messages")));
        assertEquals("a_B-9", SendRoute.roomOf(request("POST", "/v1/chat/rooms/a_B-9/messages")));
    }

    @Test
    void leavesEverythingElseToJavalin() {
        for (String[] r : new String[][] {
                {"GET", "/v1/chat/rooms/r1/messages"},
                {"post", "/v1/chat/rooms/r1/messages"},
                {"PUT", "/v1/chat/rooms/r1/messages"},
                {"POST", "/v1/chat/rooms/r1/messages/"},
                {"POST", "/v1/chat/rooms//messages"},
                {"POST", "/v1/chat/rooms/messages"},
                {"POST", "/v1/chat/rooms/r1/read"},
                {"POST", "/v1/chat/rooms/r1/messages/m1/reactions"},
                {"POST", "/v1/chat/rooms/a/b/messages"},
                {"POST", "/v1/chat/rooms/%41/messages"},
                {"POST", "/v1/chat/rooms/a;x=1/messages"},
                {"POST", "/v1/chat/rooms/../messages"},
                {"POST", "/v1//chat/rooms/r1/messages"},
                {"POST", "/v2/chat/rooms/r1/messages"}}) {
            assertNull(SendRoute.roomOf(request(r[0], r[1])), r[0] + " " + r[1]);
        }
    }
}
