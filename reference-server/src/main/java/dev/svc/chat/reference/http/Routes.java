package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.gateway.SendPacing;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;

/** Wires every REST route of the contract to its handler, and the error mapping. */
public final class Routes {

    private Routes() {
    }

    /** Installs the REST API on {@code app}; sends are answered as {@code pacing} allows. */
    public static void install(Javalin app, ObjectMapper mapper, Store store, SessionTokens tokens,
                               ChatService service, MessageActions actions, SendPacing pacing) {
        Credentials credentials = new Credentials(store, tokens);
        Responses responses = new Responses(mapper);
        ErrorMapping.install(app, responses);

        TokenHandler token = new TokenHandler(credentials, mapper, responses, service, tokens);
        UserHandler users = new UserHandler(credentials, mapper, responses, service);
        RoomAdminHandler roomAdmin = new RoomAdminHandler(credentials, mapper, responses, service);
        SettingsHandler settings = new SettingsHandler(credentials, mapper, responses, service);
        MessageHandler messages = new MessageHandler(credentials, mapper, responses, service, pacing);
        MessageActionsHandler messageActions = new MessageActionsHandler(credentials, mapper, responses, actions);

        // API-key routes (tenant backends)
        app.post("/v1/auth/token", token::mint);
        app.post("/v1/users", users::upsert);
        app.get("/v1/users/{userId}", users::get);
        app.post("/v1/chat/rooms", roomAdmin::create);
        app.post("/v1/chat/rooms/{roomId}/members", roomAdmin::addMembers);
        app.delete("/v1/chat/rooms/{roomId}/members/{userId}", roomAdmin::removeMember);
        app.get("/v1/tenant/settings", settings::get);
        app.patch("/v1/tenant/settings", settings::patch);

        // Session-token routes (apps)
        app.get("/v1/chat/rooms", messages::listRooms);
        app.get("/v1/chat/rooms/{roomId}/messages", messages::history);
        app.get("/v1/chat/rooms/{roomId}/changes", messages::changes);
        app.post("/v1/chat/rooms/{roomId}/messages", messages::send);
        app.patch("/v1/chat/rooms/{roomId}/messages/{messageId}", messageActions::update);
        app.delete("/v1/chat/rooms/{roomId}/messages/{messageId}", messageActions::delete);
        app.post("/v1/chat/rooms/{roomId}/messages/{messageId}/reactions", messageActions::react);
        app.post("/v1/chat/rooms/{roomId}/read", messageActions::read);
        app.get("/v1/chat/rooms/{roomId}/receipts", messageActions::receipts);
        app.get("/v1/presence", messageActions::presence);
    }
}
