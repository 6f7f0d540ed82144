package dev.svc.chat.reference.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.User;
import dev.svc.chat.reference.service.ChatService;
import io.javalin.http.Context;
import java.time.Instant;

/** {@code POST /v1/auth/token}: a tenant backend mints a session token for one of its users. */
final class TokenHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;
    private final SessionTokens tokens;

    TokenHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service,
                 SessionTokens tokens) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
        this.tokens = tokens;
    }

    /** The mint answer; {@code username} is omitted when the user has none. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MintResponse(String token, Instant expiresAt, String apiUrl, String userId, String username) {
    }

    void mint(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String userId = body.requiredUserId("userId");
        String username = body.optionalText("username", Inputs.MAX_USERNAME);
        Integer expiresIn = body.optionalInt("expiresIn", Inputs.MIN_EXPIRES_IN, Inputs.MAX_EXPIRES_IN);
        User user = service.userForMint(principal.tenantId(), userId, username);
        SessionTokens.Minted minted = tokens.mint(principal.tenant(), userId, user.username(),
                expiresIn != null ? expiresIn : Inputs.DEFAULT_EXPIRES_IN);
        responses.json(ctx, 200, new MintResponse(minted.token(), minted.expiresAt(), apiUrl(ctx), userId,
                user.username()));
    }

    /** Returns the API base as the caller reached it (scheme and Host header), so proxies and ports work. */
    private static String apiUrl(Context ctx) {
        String host = ctx.header("Host");
        if (host == null || host.isBlank()) {
            host = ctx.req().getServerName() + ":" + ctx.req().getServerPort();
        }
        return ctx.scheme() + "://" + host + "/v1";
    }
}
