package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.PushService;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;

/** Wires the call and push routes (installed after {@link Routes}, which maps the errors). */
public final class CallPushRoutes {

    private CallPushRoutes() {
    }

    /** Installs the call and push routes on {@code app}. */
    public static void install(Javalin app, ObjectMapper mapper, Store store, SessionTokens tokens,
                               CallService calls, PushService push) {
        Credentials credentials = new Credentials(store, tokens);
        Responses responses = new Responses(mapper);
        CallHandler call = new CallHandler(credentials, mapper, responses, calls);
        PushHandler devices = new PushHandler(credentials, mapper, responses, push);

        // Session-token routes (apps)
        app.post("/v1/chat/rooms/{roomId}/calls", call::start);
        app.get("/v1/chat/rooms/{roomId}/calls/active", call::active);
        app.post("/v1/calls/{callId}/accept", call::accept);
        app.post("/v1/calls/{callId}/decline", call::decline);
        app.post("/v1/calls/{callId}/end", call::end);
        app.post("/v1/push/devices", devices::register);
        app.delete("/v1/push/devices/{token}", devices::unregister);

        // API-key routes (tenant backends)
        app.get("/v1/push/outbox", devices::outbox);
        app.delete("/v1/push/outbox", devices::clearOutbox);
    }
}
