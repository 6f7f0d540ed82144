package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.ChatService;
import io.javalin.http.Context;
import java.util.List;

/** Room administration by a tenant backend (API key): create, add members, remove a member. */
final class RoomAdminHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;

    RoomAdminHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
    }

    void create(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String name = body.optionalText("name", Inputs.MAX_ROOM_NAME);
        List<String> members = body.requiredUserIds("memberIds", Inputs.MAX_ROOM_MEMBERS);
        responses.json(ctx, 201, service.createRoom(principal.tenantId(), name, members));
    }

    void addMembers(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        List<String> userIds = body.requiredUserIds("userIds", Inputs.MAX_ROOM_MEMBERS);
        responses.json(ctx, 200, service.addMembers(principal.tenantId(), ctx.pathParam("roomId"), userIds));
    }

    void removeMember(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        String userId = Inputs.userId(ctx.pathParam("userId"), "userId");
        responses.json(ctx, 200, service.removeMember(principal.tenantId(), ctx.pathParam("roomId"), userId));
    }
}
