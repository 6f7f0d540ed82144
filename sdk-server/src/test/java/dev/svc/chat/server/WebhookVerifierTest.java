package dev.svc.chat.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WebhookVerifierTest {
  // The test vector of the Standard Webhooks specification.
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  private static final long TIMESTAMP = 1614265330;
  private static final String PAYLOAD = "{\"test\": 2432232314}";
  private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

  private long nowMillis = TIMESTAMP * 1000;
  private final WebhookVerifier verifier = WebhookVerifier.builder(SECRET).clock(() -> nowMillis).build();

  private WebhookVerificationException.Reason rejected(String payload, String id, String ts, String sig) {
    return assertThrows(WebhookVerificationException.class,
        () -> verifier.verifySignature(payload, id, ts, sig)).reason();
  }

  @Test
  void signsAndVerifiesTheSpecificationsVector() {
    assertEquals(SIGNATURE, verifier.sign(ID, TIMESTAMP, PAYLOAD));
    verifier.verifySignature(PAYLOAD, ID, Long.toString(TIMESTAMP), SIGNATURE);
    // the prefix is optional
    WebhookVerifier.builder(SECRET.substring(6)).clock(() -> nowMillis).build()
        .verifySignature(PAYLOAD, ID, Long.toString(TIMESTAMP), SIGNATURE);
  }

  @Test
  void rejectsTamperingAndOtherSecrets() {
    String ts = Long.toString(TIMESTAMP);
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
        rejected("{\"test\": 2432232315}", ID, ts, SIGNATURE));
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
        rejected(PAYLOAD, ID + "x", ts, SIGNATURE));
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
        rejected(PAYLOAD, ID, ts, "v2," + SIGNATURE.substring(3)));
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
        rejected(PAYLOAD, ID, ts, "v1,not-base64!"));
    WebhookVerifier other = WebhookVerifier.builder("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").clock(() -> nowMillis).build();
    assertThrows(WebhookVerificationException.class, () -> other.verifySignature(PAYLOAD, ID, ts, SIGNATURE));
  }

  @Test
  void acceptsAnyOfSeveralSignatures() {
    String ts = Long.toString(TIMESTAMP);
    verifier.verifySignature(PAYLOAD, ID, ts, "v1,Zm9v " + SIGNATURE);
    verifier.verifySignature(PAYLOAD, ID, ts, "v1a,abc " + SIGNATURE + " v1,Zm9v");
  }

  @Test
  void checksTheTimestampAgainstTheClock() {
    String ts = Long.toString(TIMESTAMP);
    nowMillis = (TIMESTAMP + 300) * 1000;
    verifier.verifySignature(PAYLOAD, ID, ts, SIGNATURE);
    nowMillis = (TIMESTAMP + 301) * 1000;
    assertEquals(WebhookVerificationException.Reason.TIMESTAMP_TOO_OLD, rejected(PAYLOAD, ID, ts, SIGNATURE));
    nowMillis = (TIMESTAMP - 301) * 1000;
    assertEquals(WebhookVerificationException.Reason.TIMESTAMP_TOO_NEW, rejected(PAYLOAD, ID, ts, SIGNATURE));
    assertEquals(WebhookVerificationException.Reason.INVALID_TIMESTAMP, rejected(PAYLOAD, ID, "12a", SIGNATURE));
    WebhookVerifier lenient = WebhookVerifier.builder(SECRET).tolerance(1, TimeUnit.HOURS)
        .clock(() -> (TIMESTAMP + 3000) * 1000).build();
    lenient.verifySignature(PAYLOAD, ID, ts, SIGNATURE);
  }

  @Test
  void missingHeadersAreNamed() {
    assertEquals(WebhookVerificationException.Reason.MISSING_HEADER,
        rejected(PAYLOAD, null, Long.toString(TIMESTAMP), SIGNATURE));
    Map<String, String> headers = new HashMap<>();
    headers.put("Webhook-Id", ID);
    headers.put("WEBHOOK-TIMESTAMP", Long.toString(TIMESTAMP));
    WebhookVerificationException e = assertThrows(WebhookVerificationException.class,
        () -> verifier.verify(PAYLOAD, headers));
    assertEquals(WebhookVerificationException.Reason.MISSING_HEADER, e.reason());
    assertTrue(e.getMessage().contains("webhook-signature"));
  }

  @Test
  void parsesTypedEventsAndFindsHeadersIgnoringCase() {
    String body = "{\"type\":\"call.ended\",\"timestamp\":\"2021-02-25T15:02:10.000Z\",\"data\":{\"id\":\"c1\","
        + "\"roomId\":\"r1\",\"kind\":\"video\",\"initiatorId\":\"alice\",\"status\":\"ended\","
        + "\"participantIds\":[\"alice\",\"bob\"],\"createdAt\":\"2021-02-25T15:01:00.000Z\","
        + "\"endedAt\":\"2021-02-25T15:02:10.000Z\",\"endReason\":\"hangup\",\"future\":1}}";
    Map<String, String> headers = new HashMap<>();
    headers.put("Webhook-Id", "msg_1");
    headers.put("Webhook-Timestamp", Long.toString(TIMESTAMP));
    headers.put("Webhook-Signature", verifier.sign("msg_1", TIMESTAMP, body));
    WebhookEvent event = verifier.verify(body, headers);
    assertEquals("msg_1", event.webhookId());
    assertEquals(WebhookEvent.CALL_ENDED, event.type());
    assertTrue(event.isKnownType());
    assertEquals(1614265330000L, event.timestamp());
    ChatCall call = event.call();
    assertEquals("video", call.kind());
    assertEquals("ended", call.status());
    assertEquals("hangup", call.endReason());
    assertEquals(List.of("alice", "bob"), call.participantIds());
    assertEquals(1614265330000L, call.endedAtMillis());
    assertThrows(IllegalStateException.class, event::message);

    String unknown = "{\"type\":\"room.archived\",\"timestamp\":\"2021-02-25T15:02:10.000Z\",\"data\":{\"x\":[1]}}";
    WebhookEvent later = verifier.verify(unknown, "msg_2", Long.toString(TIMESTAMP),
        verifier.sign("msg_2", TIMESTAMP, unknown));
    assertFalse(later.isKnownType());
    assertEquals("{\"x\":[1]}", later.dataJson());

    String notAnEvent = "[1,2]";
    assertEquals(WebhookVerificationException.Reason.MALFORMED_PAYLOAD, assertThrows(
        WebhookVerificationException.class, () -> verifier.verify(notAnEvent, "msg_3", Long.toString(TIMESTAMP),
            verifier.sign("msg_3", TIMESTAMP, notAnEvent))).reason());
  }

  @Test
  void readsMessagesWithTheirPartsAndReactions() {
    String body = "{\"type\":\"message.updated\",\"timestamp\":\"2021-02-25T15:02:10.000Z\",\"data\":{\"id\":\"m1\","
        + "\"roomId\":\"r1\",\"seq\":3,\"rev\":7,\"senderId\":\"alice\",\"parts\":[{\"type\":\"text\",\"text\":\"hi \"},"
        + "{\"type\":\"image\",\"url\":\"x\"},{\"type\":\"text\",\"text\":\"bob\"}],\"clientMessageId\":\"c1\","
        + "\"createdAt\":\"2021-02-25T15:01:00.000Z\",\"editedAt\":\"2021-02-25T15:02:10.000+00:00\","
        + "\"reactions\":{\"👍\":[\"bob\",\"carol\"]},\"future\":{\"a\":1}}}";
    WebhookEvent event = verifier.verify(body, "msg_4", Long.toString(TIMESTAMP), verifier.sign("msg_4", TIMESTAMP, body));
    ChatMessage m = event.message();
    assertEquals("m1", m.id());
    assertEquals(3, m.seq());
    assertEquals(7, m.rev());
    assertEquals("alice", m.senderId());
    assertEquals("hi bob", m.text());
    assertEquals(List.of("text", "image", "text"), m.parts().stream().map(ChatMessage.Part::type).toList());
    assertEquals(1614265260000L, m.createdAtMillis());
    assertEquals(1614265330000L, m.editedAtMillis());
    assertFalse(m.isDeleted());
    assertEquals(Map.of("👍", List.of("bob", "carol")), m.reactions());
    assertThrows(IllegalStateException.class, event::call);

    String broken = "{\"type\":\"message.new\",\"timestamp\":\"2021-02-25T15:02:10.000Z\",\"data\":{\"id\":\"m1\"}}";
    WebhookEvent odd = verifier.verify(broken, "msg_5", Long.toString(TIMESTAMP), verifier.sign("msg_5", TIMESTAMP, broken));
    assertTrue(assertThrows(IllegalStateException.class, odd::message).getMessage().contains("malformed message"));
  }

  @Test
  void refusesUnusableSecretsWithoutEchoingThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WebhookVerifier.create("whsec_%%%secret%%%"));
    assertFalse(e.getMessage().contains("secret%%%"));
    assertThrows(IllegalArgumentException.class, () -> WebhookVerifier.create("whsec_"));
    assertFalse(verifier.toString().contains("MfKQ"));
  }
}
