package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.search.SearchService;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.service.PushService;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;
import jakarta.servlet.Filter;

/**
 * The REST API's one route table: wires every route of the contract to the handler of its resource (tokens,
 * users, rooms, settings, messages, message actions, calls, push devices, search), and maps errors to the
 * contract's body. The gateway installs its own path ({@code /socket.io/}).
 */
public final class Routes {

    /** The servlet path pattern of the requests {@link #install}'s filter must see. */
    public static final String SEND_ROUTE_PATHS = "/v1/chat/rooms/*";

    private Routes() {
    }

    /**
     * Installs the REST API on {@code app}. Returns the filter that
     * answers sends ahead of Javalin ({@link SendRoute}), for the server's servlet context to run first on
     * {@value #SEND_ROUTE_PATHS}; without it Javalin's own send route answers them the same way.
     */
    public static Filter install(Javalin app, ObjectMapper mapper, Store store, SessionTokens tokens,
                               ChatService service, MessageActions actions, CallService calls, PushService push,
                               SearchService search) {
        Credentials credentials = new Credentials(store, tokens);
        Responses responses = new Responses(mapper);
        ErrorMapping.install(app, responses);

        TokenHandler token = new TokenHandler(credentials, mapper, responses, service, tokens);
        UserHandler users = new UserHandler(credentials, mapper, responses, service);
        RoomAdminHandler roomAdmin = new RoomAdminHandler(credentials, mapper, responses, service);
        SettingsHandler settings = new SettingsHandler(credentials, mapper, responses, service);
        MessageHandler messages = new MessageHandler(credentials, mapper, responses, service);
        MessageActionsHandler messageActions = new MessageActionsHandler(credentials, mapper, responses, actions);
        CallHandler call = new CallHandler(credentials, mapper, responses, calls);
        PushHandler devices = new PushHandler(credentials, mapper, responses, push);
        SearchHandler searches = new SearchHandler(credentials, responses, search);

        // API-key routes (tenant backends)
        app.post("/v1/auth/token", token::mint);
        app.post("/v1/users", users::upsert);
        app.get("/v1/users/{userId}", users::get);
        app.post("/v1/chat/rooms", roomAdmin::create);
        app.post("/v1/chat/rooms/{roomId}/members", roomAdmin::addMembers);
        app.delete("/v1/chat/rooms/{roomId}/members/{userId}", roomAdmin::removeMember);
        app.get("/v1/tenant/settings", settings::get);
        app.patch("/v1/tenant/settings", settings::patch);
        app.get("/v1/push/outbox", devices::outbox);
        app.delete("/v1/push/outbox", devices::clearOutbox);

        // Session-token routes (apps)
        app.get("/v1/chat/rooms", messages::listRooms);
        app.get("/v1/chat/rooms/{roomId}/messages", messages::history);
        app.get("/v1/chat/rooms/{roomId}/changes", messages::changes);
        app.post("/v1/chat/rooms/{roomId}/messages", messages::send);
        app.get("/v1/chat/rooms/{roomId}/messages/{messageId}", messageActions::get);
        app.patch("/v1/chat/rooms/{roomId}/messages/{messageId}", messageActions::update);
        app.delete("/v1/chat/rooms/{roomId}/messages/{messageId}", messageActions::delete);
        app.post("/v1/chat/rooms/{roomId}/messages/{messageId}/reactions", messageActions::react);
        app.post("/v1/chat/rooms/{roomId}/read", messageActions::read);
        app.get("/v1/chat/rooms/{roomId}/receipts", messageActions::receipts);
        app.get("/v1/presence", messageActions::presence);
        app.post("/v1/chat/rooms/{roomId}/calls", call::start);
        app.get("/v1/chat/rooms/{roomId}/calls/active", call::active);
        app.post("/v1/calls/{callId}/accept", call::accept);
        app.post("/v1/calls/{callId}/decline", call::decline);
        app.post("/v1/calls/{callId}/end", call::end);
        app.post("/v1/push/devices", devices::register);
        app.delete("/v1/push/devices/{token}", devices::unregister);
        app.get("/v1/search/messages", searches::messages);
        return new SendRoute(credentials, mapper, responses, messages);
    }
}
