package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.CharBuffer;

import dev.svc.chat.Message;
import dev.svc.chat.internal.GatewayEvents;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import org.junit.jupiter.api.Test;

class FastMessageReaderTest {
  private static final String BASE = "\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"bob\","
      + "\"clientMessageId\":\"c1\",\"createdAt\":\"2026-11-21T10:00:00.000Z\"";

  private static String frame(String message) {
    return "42[\"new-message\"," + message + "]";
  }

  /** The fast reader's message, which must be what the adapter reads from the same frame. */
  private static Message fastAndSame(String message) throws Exception {
    String frame = frame(message);
    Message fast = FastMessageReader.read(frame, frame.indexOf('{'));
    assertNotNull(fast, "not taken: " + message);
    Message adapter = MessageJsonAdapter.INSTANCE.fromJson(Json.reader(message));
    assertEquals(adapter, fast, message);
    assertEquals(adapter.toString(), fast.toString());
    return fast;
  }

  @Test
  void readsWhatTheGatewayWritesExactlyAsTheAdapterDoes() throws Exception {
    Message m = fastAndSame("{" + BASE + ",\"rev\":3,\"parts\":[{\"type\":\"text\",\"text\":\"héllo 👋\"}],"
        + "\"editedAt\":\"2026-11-21T10:00:01.000Z\",\"deletedAt\":null,\"reactions\":{\"👍\":[\"bob\",\"amy\"],\"x\":[]}}");
    assertEquals(7, m.seq());
    assertEquals(3, m.rev());
    fastAndSame("{" + BASE + ",\"parts\":[]}");
    fastAndSame("{" + BASE + ",\"rev\":null,\"parts\":[{\"type\":\"image\"},{\"type\":\"text\",\"text\":null}],"
        + "\"reactions\":null,\"editedAt\":null}");
    fastAndSame("{\"future\":{\"a\":[1,-2,true,false,null,\"s\",{}],\"b\":[]}," + BASE + ",\"parts\":[],\"n\":0}");
    fastAndSame("{" + BASE + ",\"parts\":[],\"seq\":8,\"rev\":0}"); // a repeated field: the last one, as the adapter
  }

  @Test
  void readsAWholeMessageAsTheAdapterWroteIt() throws Exception {
    Message m = fastAndSame("{" + BASE + ",\"rev\":3,\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],"
        + "\"reactions\":{\"x\":[\"bob\"]}}");
    String written = Json.write(MessageJsonAdapter.INSTANCE, m); // a stored row
    FastMessageReader reader = new FastMessageReader();
    assertEquals(m, reader.readWhole(written));
    assertEquals(m, reader.readWhole(written), "again, with the reader's buffer and cache kept");
    assertNull(reader.readWhole(written + "]"), "something after the message");
    assertNull(reader.readWhole(written + " "));
    assertNull(reader.readWhole(written.substring(0, written.length() - 1)), "cut short");
  }

  @Test
  void leavesEverythingElseToTheAdapter() {
    String[] others = {
        "{" + BASE + "}", // no parts
        "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"a\\\"b\"}]}", // an escape
        "{ " + BASE + ",\"parts\":[]}", // white space
        "{" + BASE + ",\"parts\":[{\"type\":\"file\",\"url\":\"u\"}]}", // a part's other field
        "{" + BASE + ",\"parts\":[],\"seq\":1.0}",
        "{" + BASE + ",\"parts\":[],\"seq\":0}",
        "{" + BASE + ",\"parts\":[],\"seq\":-1}",
        "{" + BASE + ",\"parts\":[],\"seq\":\"1\"}",
        "{" + BASE + ",\"parts\":[],\"seq\":01}",
        "{" + BASE + ",\"parts\":[],\"id\":\"\"}",
        "{" + BASE + ",\"parts\":[],\"createdAt\":\"yesterday\"}",
        "{" + BASE + ",\"parts\":[],\"createdAt\":1795255200000}",
        "{" + BASE + ",\"parts\":null}",
        "{" + BASE + ",\"parts\":[{\"text\":\"no type\"}]}",
        "{" + BASE + ",\"parts\":[],\"reactions\":[]}",
        "{" + BASE + ",\"parts\":[],\"x\":1e5}",
        "{" + BASE + ",\"parts\":[]",
        "7", "", "[]",
    };
    for (String message : others) {
      String frame = frame(message);
      int start = frame.indexOf('{') < 0 ? 17 : frame.indexOf('{');
      assertNull(FastMessageReader.read(frame, start), message);
      for (CharSequence chars : charSequences(frame)) {
        assertNull(FastMessageReader.read(chars, start), chars.getClass() + ": " + message);
      }
    }
    String twoArguments = "42[\"new-message\",{" + BASE + ",\"parts\":[]},1]";
    assertNull(FastMessageReader.read(twoArguments, 17));
  }

  @Test
  void theDecoderFallsBackToTheAdapterWithItsErrorsAndReadsTheRest() throws Exception {
    GatewayEvents.Decoder<?> decoder = GatewayEvents.STANDARD.forName("new-message");
    SocketIoPacket twoArguments = SocketIoCodec.fastEvent("42[\"new-message\",{" + BASE + ",\"parts\":[]},1]");
    assertEquals("m1", ((Message) decoder.decode(twoArguments)).id());
    SocketIoPacket bad = SocketIoCodec.fastEvent(frame("{" + BASE + "}"));
    try {
      decoder.decode(bad);
      throw new AssertionError("a message without parts was read");
    } catch (com.squareup.moshi.JsonDataException expected) {
      assertEquals(true, expected.getMessage().contains("parts"), expected.getMessage());
    }
  }

  @Test
  void aReusedReaderReadsEachFrameAloneAndSharesOnlyRepeatedStrings() throws Exception {
    FastMessageReader reader = new FastMessageReader();
    String longText = new String(new char[2000]).replace('\0', 'x');
    String big = frame("{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"" + longText + "\"}]}");
    Message first = reader.readMessage(big, 17);
    assertNotNull(first);
    assertEquals(longText, first.parts().get(0).text());
    // a shorter frame after a longer one: what the buffer kept of the longer one is never read
    String whole = "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}";
    for (int cut = 1; cut < whole.length(); cut++) {
      String truncated = "42[\"new-message\"," + whole.substring(0, cut);
      assertNull(reader.readMessage(truncated, 17), truncated);
      assertNull(reader.readMessage(truncated + "]", 17), truncated + "]");
    }
    Message second = reader.readMessage(frame(whole), 17);
    Message third = reader.readMessage(frame(whole.replace("\"m1\"", "\"m2\"")), 17);
    assertEquals(MessageJsonAdapter.INSTANCE.fromJson(Json.reader(whole)), second);
    assertNotSame(second, third);
    assertSame(second.roomId(), third.roomId()); // repeated ids are one String, hashed once
    assertSame(second.senderId(), third.senderId());
    assertNotSame(second.id(), third.id()); // unique ids are not cached
    // ids of the same length, in the same cache slot or not, keep their own value
    for (int k = 0; k < 200; k++) {
      Message m = reader.readMessage(frame("{" + BASE.replace("\"r1\"", "\"r" + (char) ('A' + k % 26) + "\"")
          + ",\"parts\":[]}"), 17);
      assertEquals("r" + (char) ('A' + k % 26), m.roomId());
    }
  }

  @Test
  void theIdsOfARoomAndItsFiftySendersStayCachedAsTheyRepeat() throws Exception {
    FastMessageReader reader = new FastMessageReader();
    String room = "5b0e7a5c-2f7e-4d1a-9c3b-7e0d2a4f6b18";
    Message[] first = new Message[50];
    int sendersCopied = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int k = 0; k < 50; k++) {
        String frame = frame("{\"id\":\"m" + k + "\",\"roomId\":\"" + room + "\",\"seq\":" + (k + 1)
            + ",\"senderId\":\"user_" + k + "\",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],"
            + "\"clientMessageId\":\"c" + k + "\",\"createdAt\":\"2026-11-21T10:00:00.000Z\"}");
        Message m = reader.readMessage(frame, 17);
        assertEquals("user_" + k, m.senderId());
        if (pass == 0) {
          first[k] = m;
        } else {
          // the second time round the room's id, read in every message, is the String read the first time: no
          // copy, hashed once; of the senders, read in turn, the few that share a pair of slots with two others
          // (about 9 of 50 with 64 pairs) are copied again, not the room's
          assertSame(first[k].roomId(), m.roomId(), "room id at sender " + k);
          assertSame(first[k].parts().get(0).type(), m.parts().get(0).type());
          if (first[k].senderId() != m.senderId()) sendersCopied++;
        }
      }
    }
    assertTrue(sendersCopied <= 12, sendersCopied + " of 50 senders read again as new Strings");
  }

  @Test
  void controlCharactersAndEscapesAnywhereInTheMessageAreLeftToTheAdapter() {
    String[] values = {"\"a\u0001b\"", "\"a\u001fb\"", "\"a\\\\b\"", "\"a\\\"b\"", "\"a\u0000b\""};
    for (String v : values) {
      for (String field : new String[] {"id", "roomId", "senderId", "clientMessageId", "other"}) {
        String named = "\"" + field + "\":";
        String message = "{" + BASE.replace(named + "\"", named + v + ",\"x" + field + "\":\"")
            + ",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"other\":" + (field.equals("other") ? v : "\"o\"")
            + "}";
        String frame = frame(message);
        assertNull(FastMessageReader.read(frame, 17), message);
        for (CharSequence chars : charSequences(frame)) {
          assertNull(FastMessageReader.read(chars, 17), chars.getClass() + ": " + message);
        }
      }
      String inText = frame("{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":" + v + "}]}");
      assertNull(FastMessageReader.read(inText, 17), inText);
    }
  }

  /**
   * A string found in the reader's cache of repeated ones is taken without checking it for controls and escapes,
   * and a timestamp is left to its parser: a string with a cached one's characters and a control or an escape
   * more, or a timestamp with one, is still left to the adapter, with the cache warm and from every kind of frame.
   */
  @Test
  void aStringLikeACachedOneButForAControlOrAnEscapeIsLeftToTheAdapter() throws Exception {
    String clean = "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}";
    String[] bad = {"\u0001", "\u001f", "\\\\", "\\\"", "\u0000", "\\u0031"};
    FastMessageReader reader = new FastMessageReader();
    for (String b : bad) {
      String[] messages = {
          clean.replace("\"roomId\":\"r1\"", "\"roomId\":\"r1" + b + "\""),
          clean.replace("\"senderId\":\"bob\"", "\"senderId\":\"bo" + b + "b\""),
          clean.replace("\"type\":\"text\"", "\"type\":\"" + b + "text\""),
          clean.replace("10:00:00.000Z", "10:00:00.000Z" + b),
          clean.replace("10:00:00.000Z", "10:00:00" + b + ".000Z"),
      };
      for (String message : messages) {
        for (CharSequence frame : charSequences(frame(message))) {
          assertNotNull(reader.readMessage(frame(clean), 17), "the cache is warm");
          assertNull(reader.readMessage(frame, 17), frame.getClass() + ": " + message);
        }
      }
    }
    assertEquals(MessageJsonAdapter.INSTANCE.fromJson(Json.reader(clean)), reader.readMessage(frame(clean), 17));
  }

  @Test
  void anEventReadAheadIsTakenAsItIsAndOneNotTakenIsReadOnTheActorAsBefore() throws Exception {
    GatewayEvents.ReadAhead ahead = GatewayEvents.STANDARD.readAhead();
    GatewayEvents.Decoder<?> decoder = GatewayEvents.STANDARD.forName("new-message");
    SocketIoPacket event = SocketIoCodec.fastEvent(frame("{" + BASE + ",\"parts\":[]}"));
    ahead.read(event);
    Object read = event.readAheadBy(decoder);
    assertNotNull(read);
    assertSame(read, decoder.decode(event));
    assertNull(event.readAheadBy(GatewayEvents.STANDARD.forName("message-updated"))); // only for its own decoder

    SocketIoPacket bad = SocketIoCodec.fastEvent(frame("{" + BASE + "}"));
    ahead.read(bad);
    assertNull(bad.readAheadBy(decoder));
    try {
      decoder.decode(bad);
      throw new AssertionError("a message without parts was read");
    } catch (com.squareup.moshi.JsonDataException expected) {
      assertEquals(true, expected.getMessage().contains("parts"), expected.getMessage());
    }
    SocketIoPacket unknown = SocketIoCodec.fastEvent("42[\"something-new\",{}]");
    ahead.read(unknown); // an event this SDK does not know: nothing read, nothing thrown
    assertNull(unknown.readAheadBy(decoder));
  }

  /**
   * The frame as each kind of CharSequence a transport may hand over: a StringBuilder, a CharBuffer on an array
   * whose frame starts past the array's start, a read-only CharBuffer (no array), and one read through charAt.
   */
  private static CharSequence[] charSequences(String frame) {
    char[] padded = ("xx" + frame + "yy").toCharArray();
    CharBuffer sliced = CharBuffer.wrap(padded, 2, frame.length()).slice();
    CharSequence plain = new CharSequence() {
      @Override
      public int length() {
        return frame.length();
      }

      @Override
      public char charAt(int index) {
        return frame.charAt(index);
      }

      @Override
      public CharSequence subSequence(int start, int end) {
        return frame.subSequence(start, end);
      }

      @Override
      public String toString() {
        return frame;
      }
    };
    return new CharSequence[] {new StringBuilder(frame), sliced, CharBuffer.wrap(frame), plain};
  }

  @Test
  void readsTheSameMessageFromEveryKindOfCharSequence() throws Exception {
    String message = "{" + BASE + ",\"rev\":3,\"parts\":[{\"type\":\"text\",\"text\":\"héllo 👋\"}],"
        + "\"editedAt\":\"2026-11-21T10:00:01.000Z\",\"reactions\":{\"x\":[\"bob\"]}}";
    Message expected = fastAndSame(message);
    String frame = frame(message);
    FastMessageReader reader = new FastMessageReader();
    for (CharSequence chars : charSequences(frame)) {
      assertEquals(expected, reader.readMessage(chars, frame.indexOf('{')), chars.getClass().getName());
      assertEquals(expected, FastMessageReader.read(chars, frame.indexOf('{')), chars.getClass().getName());
      // the head scan and the decoder take it too, without a String of the frame
      SocketIoPacket event = SocketIoCodec.fastEvent(chars);
      assertNotNull(event, chars.getClass().getName());
      assertSame(chars, event.frame());
      assertEquals(expected, GatewayEvents.STANDARD.forName("new-message").decode(event));
    }
  }

  @Test
  void aFrameFromACharSequenceThatTheReaderLeavesIsReadByTheAdapterWithItsErrors() throws Exception {
    GatewayEvents.Decoder<?> decoder = GatewayEvents.STANDARD.forName("new-message");
    String escaped = frame("{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"a\\\"b\"}]}");
    String noParts = frame("{" + BASE + "}");
    String notJson = frame("{" + BASE + ",\"parts\":[}");
    for (CharSequence chars : charSequences(escaped)) {
      Message m = (Message) decoder.decode(SocketIoCodec.fastEvent(chars));
      assertEquals("a\"b", m.parts().get(0).text(), chars.getClass().getName());
    }
    for (CharSequence chars : charSequences(noParts)) {
      SocketIoPacket event = SocketIoCodec.fastEvent(chars);
      com.squareup.moshi.JsonDataException e =
          org.junit.jupiter.api.Assertions.assertThrows(com.squareup.moshi.JsonDataException.class,
              () -> decoder.decode(event), chars.getClass().getName());
      assertEquals(true, e.getMessage().contains("parts"), e.getMessage());
    }
    for (CharSequence chars : charSequences(notJson)) {
      SocketIoPacket event = SocketIoCodec.fastEvent(chars);
      org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> decoder.decode(event),
          chars.getClass().getName());
    }
  }

  @Test
  void aMessageOfOnePartKeepsItsPartsUnmodifiable() {
    String frame = frame("{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}");
    Message m = FastMessageReader.read(frame, frame.indexOf('{'));
    assertEquals(1, m.parts().size());
    org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class,
        () -> m.parts().add(m.parts().get(0)));
    org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, () -> m.parts().clear());
  }

  @Test
  void fieldNamesAreMatchedWholeNotByLengthAndFirstLetter() throws Exception {
    // names of a Message field's length and first letter, which the reader must skip as unknown fields
    Message m = fastAndSame("{\"ix\":\"no\",\"sex\":9,\"rox\":1,\"parta\":[],\"roomIx\":\"no\",\"senderIx\":\"no\","
        + "\"editedAx\":1,\"createdAx\":\"no\",\"deletedAx\":1,\"reactionx\":{},\"clientMessageIx\":\"no\","
        + "\"idx\":1,\"seqs\":2,\"partsx\":[],\"revision\":1,\"r\":1,\"\":0,\"s\":1,\"sen\":1,\"c\":1,"
        + BASE + ",\"parts\":[]}");
    assertEquals("m1", m.id());
    assertEquals("r1", m.roomId());
    assertEquals(7, m.seq());
    for (String end : new String[] {"\"rev", "\"r", "\"", "\"s", "\"senderI"}) {
      String cut = "42[\"new-message\",{" + BASE + ",\"parts\":[]," + end;
      assertNull(FastMessageReader.read(cut, cut.indexOf('{')), "a name cut at the frame's end: " + end);
      assertNull(new FastMessageReader().readWhole("{" + BASE + ",\"parts\":[]," + end), end);
    }
    String required = frame("{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"bob\",\"parts\":[],"
        + "\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"clientMessageIx\":\"c1\"}");
    assertNull(FastMessageReader.read(required, required.indexOf('{')), "a required field missing");
  }
  /**
   * One reader's messages, one after another, are each what the adapter reads from that frame alone: the
   * builder the reader reuses carries no field (rev, editedAt, deletedAt, parts, reactions) from one message,
   * read whole or given up half-way, to the next.
   */
  @Test
  void aReusedReaderCarriesNoFieldFromOneMessageToTheNext() throws Exception {
    String full = "{" + BASE + ",\"rev\":3,\"parts\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"}],"
        + "\"editedAt\":\"2026-11-21T10:00:01.000Z\",\"deletedAt\":\"2026-11-21T10:00:02.000Z\","
        + "\"reactions\":{\"x\":[\"bob\"]}}";
    String minimal = "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"b\"}]}";
    String noReactions = "{" + BASE + ",\"rev\":5,\"parts\":[],\"editedAt\":\"2026-11-21T10:00:03.000Z\","
        + "\"reactions\":{}}";
    // given up after its optional fields and parts were read: a field this reader does not take comes last
    String givenUp = "{" + BASE + ",\"rev\":9,\"editedAt\":\"2026-11-21T10:00:04.000Z\",\"parts\":[{\"type\":"
        + "\"text\",\"text\":\"c\"}],\"reactions\":{\"y\":[\"amy\"]},\"n\":1.5}";
    String missingRequired = "{\"id\":\"m9\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"bob\",\"parts\":[],"
        + "\"createdAt\":\"2026-11-21T10:00:00.000Z\"}";
    FastMessageReader reader = new FastMessageReader();
    String[] sequence = {full, minimal, noReactions, minimal, full, full, givenUp, minimal, missingRequired,
        minimal, givenUp, noReactions, full, missingRequired, noReactions};
    for (int k = 0; k < sequence.length; k++) {
      String frame = frame(sequence[k]);
      Message read = reader.readMessage(frame, frame.indexOf('{'));
      if (sequence[k] == givenUp || sequence[k] == missingRequired) {
        assertNull(read, "message " + k + " is left to the adapter");
        continue;
      }
      Message alone = MessageJsonAdapter.INSTANCE.fromJson(Json.reader(sequence[k]));
      assertEquals(alone, read, "message " + k);
      assertEquals(alone.toString(), read.toString(), "message " + k);
    }
  }
}
