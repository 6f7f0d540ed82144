package dev.svc.chat.reference.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the webhook signer: a secret is accepted ({@code whsec_} and base64 of 24 to 64 bytes) or
 * refused with {@link IllegalArgumentException} whose message never repeats it; {@link WebhookSigner#isValid}
 * agrees; a signature is {@code v1,} and the base64 of the HMAC-SHA256 of {@code id.timestamp.body}, as a
 * Standard Webhooks verifier computes it, and changes with the body.
 */
class WebhookSignerFuzzTest {

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void sign(FuzzedDataProvider data) throws Exception {
        String secret = data.consumeString(120);
        String id = data.consumeString(64);
        long timestamp = data.consumeLong();
        String body = data.consumeRemainingAsString();
        WebhookSigner signer;
        try {
            signer = WebhookSigner.of(secret);
        } catch (IllegalArgumentException e) {
            assertFalse(WebhookSigner.isValid(secret), secret);
            // (a secret longer than any of the fixed messages: a shorter one may be part of their words)
            if (secret.length() > 60) assertFalse(e.getMessage().contains(secret), "the message repeats the secret");
            return;
        }
        assertTrue(WebhookSigner.isValid(secret), secret);
        String signature = signer.sign(id, timestamp, body);
        // the verifier's side, written out from the specification
        byte[] key = Base64.getDecoder().decode(secret.substring(WebhookSigner.PREFIX.length()));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        String expected = "v1," + Base64.getEncoder().encodeToString(
                mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected, signature);
        assertEquals(signature, signer.sign(id, timestamp, body));
        assertNotEquals(signature, signer.sign(id, timestamp, body + " "));
    }
}
