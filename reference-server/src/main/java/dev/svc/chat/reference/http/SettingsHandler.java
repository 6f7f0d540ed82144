package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.webhook.WebhookSigner;
import io.javalin.http.Context;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * {@code GET} and {@code PATCH /v1/tenant/settings}, API key only. PATCH changes only the fields given;
 * {@code webhookSecret} (a {@code whsec_} secret) can be replaced but not removed; {@code maxFileBytes} is
 * the tenant's upload limit (contract section 9).
 */
final class SettingsHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;

    SettingsHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
    }

    void get(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        responses.json(ctx, 200, service.settings(principal.tenantId()));
    }

    void patch(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        Boolean autoCreate = body.optionalBoolean("autoCreateUsers");
        Boolean calls = body.optionalBoolean("callsEnabled");
        // webhookUrl: absent keeps it, null clears it, a string sets it.
        boolean webhookGiven = body.has("webhookUrl");
        String webhookUrl = webhookGiven ? webhookUrl(body.optionalString("webhookUrl")) : null;
        String secret = body.optionalString("webhookSecret");
        Long maxFileBytes = body.optionalLong("maxFileBytes");
        if (maxFileBytes != null && (maxFileBytes < 1 || maxFileBytes > TenantSettings.MAX_MAX_FILE_BYTES)) {
            throw ApiException.badRequest("maxFileBytes must be 1 to " + TenantSettings.MAX_MAX_FILE_BYTES);
        }
        if (secret != null && !WebhookSigner.isValid(secret)) {
            throw ApiException.badRequest("webhookSecret must be whsec_ followed by the base64 of 24 to 64 bytes");
        }
        TenantSettings updated = service.updateSettings(principal.tenantId(), old -> new TenantSettings(
                autoCreate != null ? autoCreate : old.autoCreateUsers(),
                calls != null ? calls : old.callsEnabled(),
                webhookGiven ? webhookUrl : old.webhookUrl(),
                secret != null ? secret : old.webhookSecret(),
                maxFileBytes != null ? maxFileBytes : old.maxFileBytes()));
        responses.json(ctx, 200, updated);
    }

    private static String webhookUrl(String value) {
        if (value == null) {
            return null;
        }
        Inputs.text(value, "webhookUrl", Inputs.MAX_WEBHOOK_URL);
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // falls through to the 400 below
        }
        throw ApiException.badRequest("webhookUrl must be an absolute http or https URL");
    }
}
