package dev.svc.chat.internal.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.squareup.moshi.JsonReader;
import org.junit.jupiter.api.Test;

class SocketIoCodecTest {
  @Test
  void anEventFrameIsTheTextOfItsPacketInAMessage() {
    String[] names = {"send-message", "join_room:2.x", "quote\"d", "uni\u00e9", "tab\t", ""};
    String[] args = {"", "{\"roomId\":\"r1\"}", "1,\"two\",[3]"};
    for (String name : names) {
      for (String arg : args) {
        for (int ackId : new int[] {SocketIoPacket.NO_ACK, 0, 7, 123456789}) {
          assertEquals(EngineIoCodec.message(SocketIoCodec.encode(SocketIoPacket.event(name, arg, ackId))),
              SocketIoCodec.eventFrame(name, arg, ackId), name + " / " + arg + " / " + ackId);
        }
      }
    }
  }

  @Test
  void decodesConnectAnswers() throws Exception {
    SocketIoPacket p = SocketIoCodec.decode("0{\"sid\":\"9oorx1V0bRdfGnmZAAAA\"}");
    assertEquals(SocketIoPacket.Type.CONNECT, p.type);
    assertEquals("/", p.namespace);
    assertEquals(SocketIoPacket.NO_ACK, p.ackId);
    assertEquals("{\"sid\":\"9oorx1V0bRdfGnmZAAAA\"}", p.data());
    assertEquals("", SocketIoCodec.decode("0").data());
  }

  @Test
  void decodesConnectErrorWithData() throws Exception {
    SocketIoPacket p = SocketIoCodec.decode("4{\"message\":\"unauthorized\",\"data\":{\"code\":\"TOKEN_EXPIRED\"}}");
    assertEquals(SocketIoPacket.Type.CONNECT_ERROR, p.type);
  }

  @Test
  void decodesEventWithoutAndWithAckId() throws Exception {
    SocketIoPacket e = SocketIoCodec.decode("2[\"new-message\",{\"roomId\":\"r1\",\"id\":\"m1\",\"text\":\"hello\"}]");
    assertEquals(SocketIoPacket.Type.EVENT, e.type);
    assertEquals("new-message", e.eventName);
    assertEquals(SocketIoPacket.NO_ACK, e.ackId);

    SocketIoPacket q = SocketIoCodec.decode("20[\"server-question\",{\"q\":\"still there?\"}]");
    assertEquals(0, q.ackId);
    assertEquals("server-question", q.eventName);

    SocketIoPacket big = SocketIoCodec.decode("2123456[\"x\"]");
    assertEquals(123456, big.ackId);
  }

  @Test
  void decodesAckWithId() throws Exception {
    SocketIoPacket a = SocketIoCodec.decode("31[{\"ok\":true,\"roomId\":\"r1\"}]");
    assertEquals(SocketIoPacket.Type.ACK, a.type);
    assertEquals(1, a.ackId);
    assertEquals("[{\"ok\":true,\"roomId\":\"r1\"}]", a.data());
  }

  @Test
  void decodesNamespacePrefix() throws Exception {
    SocketIoPacket p = SocketIoCodec.decode("4/admin,{\"message\":\"Invalid namespace\"}");
    assertEquals("/admin", p.namespace);
    assertEquals(SocketIoPacket.Type.CONNECT_ERROR, p.type);
    SocketIoPacket e = SocketIoCodec.decode("2/chat,7[\"hi\",1]");
    assertEquals("/chat", e.namespace);
    assertEquals(7, e.ackId);
    assertEquals("hi", e.eventName);
    SocketIoPacket d = SocketIoCodec.decode("1/chat,");
    assertEquals(SocketIoPacket.Type.DISCONNECT, d.type);
    assertEquals("/chat", d.namespace);
  }

  @Test
  void decodesBinaryHeadersWithAttachmentCounts() throws Exception {
    SocketIoPacket be = SocketIoCodec.decode("51-[\"file-chunk\",{\"name\":\"a.bin\"},{\"_placeholder\":true,\"num\":0}]");
    assertEquals(SocketIoPacket.Type.BINARY_EVENT, be.type);
    assertEquals(1, be.attachments);
    assertEquals("file-chunk", be.eventName);
    SocketIoPacket ba = SocketIoCodec.decode("61-7[{\"_placeholder\":true,\"num\":0}]");
    assertEquals(SocketIoPacket.Type.BINARY_ACK, ba.type);
    assertEquals(1, ba.attachments);
    assertEquals(7, ba.ackId);
  }

  @Test
  void encodesWhatTheOfficialClientSends() {
    assertEquals("0{\"token\":\"good-jwt\"}", SocketIoCodec.encode(SocketIoPacket.connect("{\"token\":\"good-jwt\"}")));
    assertEquals("1", SocketIoCodec.encode(SocketIoPacket.disconnect()));
    assertEquals("21[\"join-room\",{\"roomId\":\"r1\"}]",
        SocketIoCodec.encode(SocketIoPacket.event("join-room", "{\"roomId\":\"r1\"}", 1)));
    assertEquals("2[\"ask-me\"]", SocketIoCodec.encode(SocketIoPacket.event("ask-me", "", SocketIoPacket.NO_ACK)));
    assertEquals("30[{\"answer\":\"yes\"}]", SocketIoCodec.encode(SocketIoPacket.ack(0, "[{\"answer\":\"yes\"}]")));
    assertEquals("2[\"a\\\"b\"]", SocketIoCodec.encode(SocketIoPacket.event("a\"b", "", SocketIoPacket.NO_ACK)));
  }

  @Test
  void roundTrips() throws Exception {
    String[] texts = {
        "0{\"token\":\"t\"}", "0", "1", "2[\"e\",{\"a\":[1,2]}]", "212[\"e\"]", "30[{\"ok\":true}]",
        "4{\"message\":\"unauthorized\"}", "52-[\"f\",{\"_placeholder\":true,\"num\":0}]", "61-3[{}]",
        "2/admin,5[\"e\"]", "0/admin,{\"token\":\"t\"}"
    };
    for (String t : texts) assertEquals(t, SocketIoCodec.encode(SocketIoCodec.decode(t)), t);
  }

  @Test
  void rejectsMalformedPackets() {
    String[] bad = {
        "", "7", "x", "2{}", "2", "2[]", "2[1]", "2[\"connect\"]", "2[\"disconnect\",{}]", "2[\"e\",",
        "2[\"e\"]x", "3[{}]", "3{}", "1{}", "17", "0[]", "0\"x\"", "4", "4[1]", "5[\"e\"]", "5x-[\"e\"]",
        "51[\"e\"]", "6-[{}]", "21234567890[\"e\"]", "0{\"a\":}", "2[\"newListener\"]"
    };
    for (String b : bad) {
      assertThrows(MalformedFrameException.class, () -> SocketIoCodec.decode(b), "should reject: " + b);
    }
  }

  @Test
  void givesTheArgumentsOfAnEventOnBothPaths() throws Exception {
    for (SocketIoPacket event : new SocketIoPacket[] {SocketIoCodec.decode("2[\"e\",{\"a\":1},2]"),
        SocketIoCodec.fastEvent("42[\"e\",{\"a\":1},2]")}) {
      JsonReader r = SocketIoCodec.arguments(event);
      r.beginObject();
      assertEquals("a", r.nextName());
      assertEquals(1, r.nextInt());
      r.endObject();
      SocketIoCodec.endArguments(r); // skips the 2
    }
    for (SocketIoPacket event : new SocketIoPacket[] {SocketIoCodec.decode("2[\"e\"]"),
        SocketIoCodec.fastEvent("42[\"e\"]")}) {
      JsonReader r = SocketIoCodec.arguments(event);
      assertFalse(r.hasNext());
      SocketIoCodec.endArguments(r);
    }
  }

  @Test
  void theFastPathReadsAnEventLikeDecodeWithoutCopyingIt() throws Exception {
    String frame = "42[\"new-message\",{\"id\":\"m1\"}]";
    SocketIoPacket fast = SocketIoCodec.fastEvent(frame);
    assertEquals(SocketIoCodec.decode(frame.substring(1)), fast);
    assertEquals("new-message", fast.eventName);
    assertEquals(frame.substring(2), fast.data());
    assertEquals(SocketIoPacket.NO_ACK, fast.ackId);
  }

  @Test
  void theFastPathLeavesEverythingElseToDecode() {
    String[] others = {"2", "3", "40{}", "4", "42", "42[", "42[\"e", "42[1]", "42{}", "421[\"e\"]",
        "42/chat,[\"e\"]", "43[{}]", "42[\"e\\\"x\",1]", "42[\"connect\"]", "42[\"e\" ,1]", "42[\"e\"]x",
        "42[\"e\u0001\",1]", "451-[\"e\",{}]", "42[\"e\",]", "42[\"e\", ]", "42[\"e\",,1]"};
    for (String frame : others) assertNull(SocketIoCodec.fastEvent(frame), frame);
    // and decode refuses what has no value after the comma, as it always did
    assertThrows(MalformedFrameException.class, () -> SocketIoCodec.decode("2[\"e\",]"));
  }

  @Test
  void theArgumentsOfAFastEventAreCheckedWhenNobodyDecodesThem() throws Exception {
    SocketIoCodec.checkArguments(SocketIoCodec.fastEvent("42[\"x\",{\"a\":[1,2]},\"b\"]"));
    for (String bad : new String[] {"42[\"x\",", "42[\"x\",{]", "42[\"x\",1]]", "42[\"x\",1,]"}) {
      SocketIoPacket event = SocketIoCodec.fastEvent(bad);
      assertNotNull(event, bad);
      assertThrows(MalformedFrameException.class, () -> SocketIoCodec.checkArguments(event), bad);
    }
  }

  @Test
  void theFastPathGivesTheGatewaysNamesAsOneInstanceEach() {
    for (String name : new String[] {"new-message", "message-updated", "typing", "tenant-presence", "room-read",
        "call-invite", "call-accepted", "call-declined", "call-ended", "session-expired"}) {
      String frame = "42[\"" + name + "\",{}]";
      assertSame(name, SocketIoCodec.fastEvent(frame).eventName, name);
      assertSame(name, SocketIoCodec.fastEvent(new StringBuilder(frame)).eventName, name);
    }
    // names close to the gateway's are read as they are, and a reserved name is still left to decode
    for (String name : new String[] {"new-messagf", "new-messag", "new-message2", "typinG", "e", "call-ende"}) {
      assertEquals(name, SocketIoCodec.fastEvent("42[\"" + name + "\",{}]").eventName);
    }
    assertNull(SocketIoCodec.fastEvent("42[\"connect\",{}]"));
    assertNull(SocketIoCodec.fastEvent(new StringBuilder("42[\"disconnect\"]")));
  }

  @Test
  void theFastPathReadsACharSequenceAsAString() throws Exception {
    String frame = "42[\"new-message\",{\"id\":\"m1\"},2]";
    SocketIoPacket fromChars = SocketIoCodec.fastEvent(java.nio.CharBuffer.wrap(frame));
    assertEquals(SocketIoCodec.fastEvent(frame), fromChars);
    assertEquals(frame.substring(2), fromChars.data());
    JsonReader r = SocketIoCodec.arguments(fromChars);
    r.beginObject();
    assertEquals("id", r.nextName());
    assertEquals("m1", r.nextString());
    r.endObject();
    SocketIoCodec.endArguments(r);
    for (String other : new String[] {"42[\"e\\\"x\",1]", "42[\"e\",]", "421[\"e\"]", "42[\"e\"]x"}) {
      assertNull(SocketIoCodec.fastEvent(new StringBuilder(other)), other);
    }
    SocketIoPacket bad = SocketIoCodec.fastEvent(new StringBuilder("42[\"x\",{]"));
    assertThrows(MalformedFrameException.class, () -> SocketIoCodec.checkArguments(bad));
  }
}
