package dev.svc.chat.reference.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook payloads as the Standard Webhooks specification says: {@code v1,} and the base64 of the
 * HMAC-SHA256 of {@code "<webhook-id>.<webhook-timestamp>.<body>"}, keyed by the base64-decoded secret after
 * its {@code whsec_} prefix.
 */
public final class WebhookSigner {

    /** The prefix of every secret. */
    public static final String PREFIX = "whsec_";

    private final byte[] key;

    private WebhookSigner(byte[] key) {
        this.key = key;
    }

    /**
     * Returns a signer for {@code secret} ({@code whsec_} + base64 of 24 to 64 bytes).
     *
     * @throws IllegalArgumentException if the secret is not of that form; the message never repeats it
     */
    public static WebhookSigner of(String secret) {
        return new WebhookSigner(decode(secret));
    }

    /** Returns whether {@code secret} is a usable {@code whsec_} secret. */
    public static boolean isValid(String secret) {
        try {
            decode(secret);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Returns the {@code webhook-signature} header value for one delivery. */
    public String sign(String id, long timestampSeconds, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    private static byte[] decode(String secret) {
        if (secret == null || !secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a webhook secret must start with " + PREFIX);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a webhook secret is whsec_ followed by base64");
        }
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException("a webhook secret's key must be 24 to 64 bytes");
        }
        return key;
    }
}
