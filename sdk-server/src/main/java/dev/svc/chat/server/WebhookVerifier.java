package dev.svc.chat.server;

import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;
import okio.ByteString;

/**
 * Verifies webhooks signed with the Standard Webhooks scheme (contract section 6), for tenant backends:
 *
 * <pre>{@code
 * WebhookVerifier verifier = WebhookVerifier.create(System.getenv("SVC_WEBHOOK_SECRET"));
 * WebhookEvent event = verifier.verify(rawBody, headers);   // throws WebhookVerificationException
 * if (seen.add(event.webhookId())) handle(event);            // retries repeat the id: deduplicate on it
 * }</pre>
 *
 * <p>It checks that the three headers are present, that {@code webhook-timestamp} is within the tolerance
 * (5 minutes by default) of now in both directions, and that one of the space-separated {@code v1,<base64>}
 * signatures of {@code webhook-signature} is the HMAC-SHA256 of {@code "<id>.<timestamp>.<body>"}, compared
 * in constant time. Verify the raw body exactly as received: parsing and re-serializing it breaks the
 * signature. Instances are immutable and thread-safe. The secret never appears in a message or
 * {@link #toString()}.
 */
public final class WebhookVerifier {
  /** The prefix of webhook secrets; optional in the secret given to {@link #create(String)}. */
  public static final String SECRET_PREFIX = "whsec_";
  /** The default timestamp tolerance, 5 minutes, in seconds. */
  public static final long DEFAULT_TOLERANCE_SECONDS = 5 * 60;

  private static final Charset UTF_8 = Charset.forName("UTF-8");

  /** Supplies the current time; inject one to test time-dependent checks. */
  public interface Clock {
    /**
     * Returns the current time.
     *
     * @return milliseconds since the epoch
     */
    long currentTimeMillis();
  }

  private static final Clock SYSTEM = new Clock() {
    @Override
    public long currentTimeMillis() {
      return System.currentTimeMillis();
    }
  };

  private final byte[] key;
  private final long toleranceSeconds;
  private final Clock clock;

  private WebhookVerifier(Builder b) {
    this.key = b.key;
    this.toleranceSeconds = b.toleranceSeconds;
    this.clock = b.clock;
  }

  /**
   * Returns a verifier with the default tolerance and the system clock.
   *
   * @param secret the webhook secret, {@code whsec_<base64>} (the prefix may be left out)
   * @return the verifier
   * @throws IllegalArgumentException if the secret is empty or not base64
   */
  public static WebhookVerifier create(String secret) {
    return builder(secret).build();
  }

  /**
   * Returns a builder for a verifier of {@code secret}.
   *
   * @param secret the webhook secret, {@code whsec_<base64>} (the prefix may be left out)
   * @return the builder
   * @throws IllegalArgumentException if the secret is empty or not base64
   */
  public static Builder builder(String secret) {
    return new Builder(decodeSecret(secret));
  }

  /**
   * Verifies a webhook and parses its event.
   *
   * @param payload the raw request body, exactly as received
   * @param headers the request headers; names are matched ignoring case
   * @return the event
   * @throws WebhookVerificationException if a header is missing, the timestamp is out of tolerance, no
   *     signature matches, or the payload is not a webhook event
   */
  public WebhookEvent verify(String payload, Map<String, String> headers) {
    if (payload == null) throw new NullPointerException("payload == null");
    if (headers == null) throw new NullPointerException("headers == null");
    return verify(payload, header(headers, "webhook-id"), header(headers, "webhook-timestamp"),
        header(headers, "webhook-signature"));
  }

  /**
   * Verifies a webhook given its three headers, and parses its event.
   *
   * @param payload the raw request body, exactly as received
   * @param webhookId the {@code webhook-id} header
   * @param webhookTimestamp the {@code webhook-timestamp} header (unix seconds)
   * @param webhookSignature the {@code webhook-signature} header: one or more space-separated
   *     {@code v1,<base64>} signatures
   * @return the event
   * @throws WebhookVerificationException if a check fails
   */
  public WebhookEvent verify(String payload, @Nullable String webhookId, @Nullable String webhookTimestamp,
      @Nullable String webhookSignature) {
    verifySignature(payload, webhookId, webhookTimestamp, webhookSignature);
    return WebhookEvent.parse(webhookId, payload);
  }

  /**
   * Checks the headers and the signature only, without parsing the payload.
   *
   * @param payload the raw request body, exactly as received
   * @param webhookId the {@code webhook-id} header
   * @param webhookTimestamp the {@code webhook-timestamp} header (unix seconds)
   * @param webhookSignature the {@code webhook-signature} header
   * @throws WebhookVerificationException if a check fails
   */
  public void verifySignature(String payload, @Nullable String webhookId, @Nullable String webhookTimestamp,
      @Nullable String webhookSignature) {
    if (payload == null) throw new NullPointerException("payload == null");
    if (isBlank(webhookId) || isBlank(webhookTimestamp) || isBlank(webhookSignature)) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.MISSING_HEADER,
          "missing webhook-id, webhook-timestamp or webhook-signature header");
    }
    long timestamp = parseTimestamp(webhookTimestamp.trim());
    long now = clock.currentTimeMillis() / 1000;
    if (timestamp < now - toleranceSeconds) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.TIMESTAMP_TOO_OLD,
          "webhook-timestamp is " + (now - timestamp) + " s old; the tolerance is " + toleranceSeconds + " s");
    }
    if (timestamp > now + toleranceSeconds) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.TIMESTAMP_TOO_NEW,
          "webhook-timestamp is " + (timestamp - now) + " s ahead; the tolerance is " + toleranceSeconds + " s");
    }
    byte[] expected = hmac(webhookId + "." + timestamp + "." + payload);
    for (String candidate : webhookSignature.trim().split(" +")) {
      int comma = candidate.indexOf(',');
      if (comma < 0 || !"v1".equals(candidate.substring(0, comma))) continue; // other versions: skip
      ByteString given = ByteString.decodeBase64(candidate.substring(comma + 1));
      if (given != null && constantTimeEquals(expected, given.toByteArray())) return;
    }
    throw new WebhookVerificationException(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
        "no v1 signature matches the payload (tampered body, or another secret)");
  }

  /**
   * Returns the {@code webhook-signature} value for a payload: {@code v1,<base64 HMAC-SHA256>}. Useful to
   * test a receiver.
   *
   * @param webhookId the {@code webhook-id}
   * @param timestampSeconds the {@code webhook-timestamp}, unix seconds
   * @param payload the body
   * @return the signature header value
   */
  public String sign(String webhookId, long timestampSeconds, String payload) {
    return "v1," + ByteString.of(hmac(webhookId + "." + timestampSeconds + "." + payload)).base64();
  }

  @Override
  public String toString() {
    return "WebhookVerifier{toleranceSeconds=" + toleranceSeconds + "}";
  }

  private byte[] hmac(String content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(content.getBytes(UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /** Compares in time that depends on the lengths only, never on where the bytes differ. */
  private static boolean constantTimeEquals(byte[] a, byte[] b) {
    if (a.length != b.length) return false;
    int diff = 0;
    for (int i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
    return diff == 0;
  }

  private static long parseTimestamp(String text) {
    if (text.isEmpty() || text.length() > 18) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.INVALID_TIMESTAMP,
          "webhook-timestamp is not unix seconds");
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        throw new WebhookVerificationException(WebhookVerificationException.Reason.INVALID_TIMESTAMP,
            "webhook-timestamp is not unix seconds");
      }
    }
    return Long.parseLong(text);
  }

  private static @Nullable String header(Map<String, String> headers, String name) {
    String exact = headers.get(name);
    if (exact != null) return exact;
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) return e.getValue();
    }
    return null;
  }

  private static boolean isBlank(@Nullable String s) {
    return s == null || s.trim().isEmpty();
  }

  private static byte[] decodeSecret(String secret) {
    if (secret == null) throw new NullPointerException("secret == null");
    String base64 = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
    ByteString decoded = base64.isEmpty() ? null : ByteString.decodeBase64(base64);
    if (decoded == null || decoded.size() == 0) {
      throw new IllegalArgumentException("the webhook secret must be whsec_ followed by base64");
    }
    return decoded.toByteArray();
  }

  /** Options of a {@link WebhookVerifier}. */
  public static final class Builder {
    private final byte[] key;
    private long toleranceSeconds = DEFAULT_TOLERANCE_SECONDS;
    private Clock clock = SYSTEM;

    private Builder(byte[] key) {
      this.key = key;
    }

    /**
     * Sets how far {@code webhook-timestamp} may be from now, in either direction (default 5 minutes).
     *
     * @param amount the tolerance, not negative
     * @param unit its unit
     * @return this builder
     */
    public Builder tolerance(long amount, TimeUnit unit) {
      if (amount < 0) throw new IllegalArgumentException("tolerance must not be negative");
      if (unit == null) throw new NullPointerException("unit == null");
      this.toleranceSeconds = unit.toSeconds(amount);
      return this;
    }

    /**
     * Sets the clock the timestamp is checked against (default the system clock).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      if (clock == null) throw new NullPointerException("clock == null");
      this.clock = clock;
      return this;
    }

    /**
     * Returns the verifier.
     *
     * @return a new immutable verifier
     */
    public WebhookVerifier build() {
      return new WebhookVerifier(this);
    }
  }
}
