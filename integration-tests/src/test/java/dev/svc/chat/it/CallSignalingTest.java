package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.CallStatus;
import dev.svc.chat.ChatClient;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.reference.TenantInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Call signaling through the SDK against the reference server: invite, accept, decline, end, timeout. */
class CallSignalingTest {
  private ChatFixture chat;
  private Admin admin;

  private void start(Duration ringTimeout) {
    chat = new ChatFixture(ReferenceServer.builder().callRingTimeout(ringTimeout));
    admin = chat.admin();
  }

  @AfterEach
  void stop() {
    if (chat != null) chat.close();
  }

  @Test
  void fullCallInviteAcceptEnd() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Call> bobInvites = new RecordingHandler<>();
    RecordingHandler<Call> aliceAccepted = new RecordingHandler<>();
    RecordingHandler<Call> bobEnded = new RecordingHandler<>();
    bob.callInvite(bobInvites);
    alice.callAccepted(aliceAccepted);
    bob.callEnded(bobEnded);

    Call ringing = await(alice.startCall(room, CallKind.VIDEO));
    assertEquals(CallStatus.RINGING, ringing.status());
    assertEquals(CallKind.VIDEO, ringing.kind());
    assertEquals("alice", ringing.initiatorId());
    assertEquals(List.of("alice"), ringing.participantIds());

    Call invite = bobInvites.next();
    assertEquals(ringing.id(), invite.id());
    assertEquals(room, invite.roomId());
    assertEquals(CallStatus.RINGING, invite.status());
    assertEquals(ringing.id(), await(bob.getActiveCall(room)).id());

    Call accepted = await(bob.acceptCall(invite.id()));
    assertEquals(CallStatus.ACTIVE, accepted.status());
    assertEquals(List.of("alice", "bob"), accepted.participantIds());
    Call seenByAlice = aliceAccepted.next();
    assertEquals(CallStatus.ACTIVE, seenByAlice.status());
    assertEquals(CallStatus.ACTIVE, await(alice.getActiveCall(room)).status());

    Call ended = await(alice.endCall(ringing.id()));
    assertEquals(CallStatus.ENDED, ended.status());
    assertEquals(Call.END_HANGUP, ended.endReason());
    assertNotNull(ended.endedAt());
    Call endedForBob = bobEnded.next();
    assertEquals(Call.END_HANGUP, endedForBob.endReason());
    assertNull(await(bob.getActiveCall(room)), "no active call after the end");

    // a move on an ended call is a conflict; a new call may start now
    assertEquals(409, apiError(bob.acceptCall(ringing.id())).status());
    assertEquals(CallStatus.RINGING, await(bob.startCall(room, CallKind.AUDIO)).status());
  }

  @Test
  void declineByEveryOtherMemberEndsTheCall() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Call> aliceDeclined = new RecordingHandler<>();
    RecordingHandler<Call> aliceEnded = new RecordingHandler<>();
    alice.callDeclined(aliceDeclined);
    alice.callEnded(aliceEnded);

    Call call = await(alice.startCall(room, CallKind.AUDIO));
    Call declined = await(bob.declineCall(call.id()));
    assertEquals(CallStatus.DECLINED, declined.status());
    assertEquals(Call.END_DECLINED, declined.endReason());
    assertEquals(call.id(), aliceDeclined.next().id());
    Call ended = aliceEnded.next();
    assertEquals(CallStatus.DECLINED, ended.status());
    assertEquals(Call.END_DECLINED, ended.endReason());
    assertNull(await(alice.getActiveCall(room)));
    assertEquals("conflict", apiError(bob.declineCall(call.id())).code());
  }

  @Test
  void aGroupCallEndsWhenFewerThanTwoRemain() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("trio", "alice", "bob", "carol");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    ChatClient carol = chat.connected("carol");
    RecordingHandler<Call> ended = new RecordingHandler<>();
    carol.callEnded(ended);

    Call call = await(alice.startCall(room, CallKind.AUDIO));
    assertEquals(CallStatus.RINGING, await(bob.declineCall(call.id())).status(), "carol has not answered yet");
    await(carol.acceptCall(call.id()));
    Call afterCarolLeft = await(carol.endCall(call.id()));
    assertEquals(CallStatus.ENDED, afterCarolLeft.status());
    assertEquals(Call.END_LEFT, afterCarolLeft.endReason());
    assertEquals(Call.END_LEFT, ended.next().endReason());
    assertEquals("conflict", apiError(alice.endCall(call.id())).code());
  }

  @Test
  void anUnansweredCallEndsAsMissed() throws Exception {
    start(Duration.ofMillis(300));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Call> bobEnded = new RecordingHandler<>();
    bob.callEnded(bobEnded);

    Call call = await(alice.startCall(room, CallKind.AUDIO));
    Call missed = bobEnded.next();
    assertEquals(call.id(), missed.id());
    assertEquals(CallStatus.ENDED, missed.status());
    assertEquals(Call.END_MISSED, missed.endReason());
    assertNull(await(alice.getActiveCall(room)));
    assertEquals(409, apiError(bob.acceptCall(call.id())).status());
  }

  @Test
  void aSecondCallInTheRoomIsAConflict() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    Call first = await(alice.startCall(room, CallKind.AUDIO));

    ApiException e = apiError(bob.startCall(room, CallKind.VIDEO));
    assertEquals(409, e.status());
    assertEquals("conflict", e.code());
    assertEquals("conflict", apiError(alice.acceptCall(first.id())).code(), "the caller cannot accept");
    assertEquals("conflict", apiError(alice.declineCall(first.id())).code(), "the caller cannot decline");
    await(bob.acceptCall(first.id()));
    assertEquals(409, apiError(bob.startCall(room, CallKind.AUDIO)).status(), "an active call blocks too");
    assertEquals("conflict", apiError(bob.acceptCall(first.id())).code(), "already in the call");
  }

  @Test
  void callsDisabledIsRefusedWithAClearError() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    Admin.Answer patched = admin.call("PATCH", "/v1/tenant/settings", Map.of("callsEnabled", false),
        admin.apiKeyHeader());
    assertEquals(200, patched.status());

    ApiException e = apiError(alice.startCall(room, CallKind.AUDIO));
    assertEquals(403, e.status());
    assertEquals("calls_disabled", e.code());
    assertTrue(e.getMessage().contains("Calls are disabled for this tenant"), e.getMessage());
    assertEquals("calls_disabled", apiError(alice.getActiveCall(room)).code());
  }

  @Test
  void membershipAndTenantsAreEnforced() throws Exception {
    start(Duration.ofSeconds(30));
    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient mallory = chat.connected("mallory");
    Call call = await(alice.startCall(room, CallKind.AUDIO));

    assertEquals("forbidden", apiError(mallory.startCall(room, CallKind.AUDIO)).code());
    assertEquals("forbidden", apiError(mallory.acceptCall(call.id())).code());
    assertEquals("forbidden", apiError(mallory.getActiveCall(room)).code());

    TenantInfo other = chat.server().createTenant();
    Admin otherAdmin = new Admin(chat.server().apiUrl(), other.apiKey());
    ChatClient stranger = chat.newClient();
    await(stranger.connect("alice", otherAdmin.mint("alice")));
    assertEquals(404, apiError(stranger.acceptCall(call.id())).status());
    assertEquals(404, apiError(stranger.startCall(room, CallKind.AUDIO)).status());
    assertNull(await(stranger.getActiveCall(room)), "another tenant's room has no call for this one");

    Admin.Answer bad = admin.call("POST", "/v1/chat/rooms/" + room + "/calls", Map.of("kind", "hologram"),
        Admin.bearer(admin.mint("alice")));
    assertEquals(400, bad.status());
  }
}
