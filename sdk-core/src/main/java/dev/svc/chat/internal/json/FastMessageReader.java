package dev.svc.chat.internal.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessageLinks;
import dev.svc.chat.MessagePart;

/**
 * Reads the commonest {@link Message}, as the gateway writes it, straight from a frame's characters: no
 * UTF-8 copy, no Moshi reader. It takes only what it can read exactly as {@link MessageJsonAdapter} would
 * (compact JSON, strings without escapes, integer numbers, parts of {@code type} and {@code text}, the
 * message as the event's only argument) and gives up, returning null, on anything else, valid or not:
 * then the adapter reads the frame, with its checks and its error messages. So it changes how fast a
 * message is read, never what is read or refused. It maps the fields of a {@link Message}; its
 * {@link FrameScanner} reads the tokens.
 */
public final class FastMessageReader {
  /** The Message's fields, by code: {@link #NAMES}{@code [code]} spells field {@code code}. */
  private static final int ID = 0;
  private static final int ROOM_ID = 1;
  private static final int SEQ = 2;
  private static final int SENDER_ID = 3;
  private static final int PARTS = 4;
  private static final int CLIENT_MESSAGE_ID = 5;
  private static final int CREATED_AT = 6;
  private static final int EDITED_AT = 7;
  private static final int DELETED_AT = 8;
  private static final int REACTIONS = 9;
  private static final int REV = 10;
  private static final int REPLY_TO_ID = 11;
  private static final int THREAD_ID = 12;
  private static final int MENTIONS = 13;
  /** A root's summary: this reader gives up on one that is not null (the adapter reads it). */
  private static final int THREAD = 14;
  /** A field of another name (skipped). */
  private static final int OTHER = 15;
  private static final char[][] NAMES = chars("id", "roomId", "seq", "senderId", "parts", "clientMessageId",
      "createdAt", "editedAt", "deletedAt", "reactions", "rev", "replyToId", "threadId", "mentions", "thread");
  private static final char[] TYPE = "type".toCharArray();
  private static final char[] TEXT = "text".toCharArray();

  /** The frame's tokens; it keeps its buffer and its cache of repeated strings from one message to the next. */
  private final FrameScanner in = new FrameScanner();
  /**
   * The builder of the messages this reader reads, reused from one to the next: {@link Message.Builder#build}
   * copies what it holds (the parts into a list of the message's own), so a message shares nothing with it.
   * Every optional field is reset before each message and every required one must be read in that message
   * (the {@code seen} mask), so no field passes from one message to the next. It has no way to forget
   * reactions: after a message with some it is dropped, and the next message gets a new one.
   */
  private Message.Builder builder;
  /**
   * The one part of the message being read, left in its frame ({@link FrameFields}): its type, or null when its
   * parts are in {@link #builder}; where its text is ({@code keptTextAt} -1: no text).
   */
  private String keptType;
  private int keptTextAt;
  private int keptTextEnd;

  /**
   * A reader for one thread at a time (a connection's socket reader): it keeps its buffer and its cache of
   * repeated strings from one message to the next, both made at the first message (an idle client of a
   * fleet pays nothing). The messages it returns share nothing mutable.
   */
  public FastMessageReader() {
  }

  /**
   * Returns the message that starts at {@code start} in {@code frame} and is the last thing in it but the
   * closing {@code ]} of the event's arguments; null when this reader does not take it. A new reader each
   * call: for a stream of frames, keep one reader and call {@link #readMessage}.
   */
  public static Message read(CharSequence frame, int start) {
    return new FastMessageReader().readMessage(frame, start);
  }

  /** Same as {@link #read}, with this reader's buffer and cache; not thread-safe. */
  public Message readMessage(CharSequence frame, int start) {
    return read(frame, start, true);
  }

  /**
   * Returns the message that is the whole of {@code json} (as {@link MessageJsonAdapter} writes one, such as a
   * stored row); null when this reader does not take it. With this reader's buffer and cache; not thread-safe.
   */
  public Message readWhole(CharSequence json) {
    return read(json, 0, false);
  }

  private Message read(CharSequence text, int start, boolean inEvent) {
    if (start < 0) return null;
    int n = text.length();
    try {
      in.load(text, start);
      Message m = message();
      if (m == null) return null;
      int i = in.position();
      return inEvent ? (i == n - 1 && in.at(i) == ']' ? m : null) : (i == n ? m : null);
    } catch (RuntimeException e) {
      return null; // out of bounds, not a number, not a timestamp...: the adapter will say what is wrong
    } finally {
      in.release();
    }
  }

  private Message message() {
    if (!in.take('{')) return null;
    Message.Builder b = builder;
    if (b == null) {
      b = Message.builder();
      builder = b;
    } else {
      // the optional fields; parts are reset where they are read
      b.rev(0).editedAt(null).deletedAt(null).links(MessageLinks.none());
    }
    // the links, set on the builder once read (a root's summary is left to the adapter)
    String replyToId = null;
    String threadId = null;
    List<String> mentions = Collections.emptyList();
    int seen = 0;
    // a String frame keeps the id, the client message id and a lone part until the app asks for them
    String frame = in.frameString();
    int idAt = 0;
    int idEnd = 0;
    int clientMessageIdAt = 0;
    int clientMessageIdEnd = 0;
    keptType = null;
    if (in.take('}')) return null;
    do {
      int name = name();
      if (name < 0 || !in.take(':')) return null;
      switch (name) {
        case ID:
          if (frame == null) {
            b.id(in.nonEmpty());
          } else {
            idAt = in.position() + 1;
            idEnd = in.nonEmptyClose();
          }
          break;
        case ROOM_ID:
          b.roomId(in.nonEmptyCached());
          break;
        case SEQ:
          b.seq(in.atLeast(1));
          break;
        case SENDER_ID:
          b.senderId(in.nonEmptyCached());
          break;
        case PARTS:
          if (!parts(b)) return null;
          break;
        case CLIENT_MESSAGE_ID:
          if (frame == null) {
            b.clientMessageId(in.nonEmpty());
          } else {
            clientMessageIdAt = in.position() + 1;
            clientMessageIdEnd = in.nonEmptyClose();
          }
          break;
        case CREATED_AT:
          b.createdAt(in.timestamp());
          break;
        case EDITED_AT:
          b.editedAt(in.takeNull() ? null : in.timestamp());
          break;
        case DELETED_AT:
          b.deletedAt(in.takeNull() ? null : in.timestamp());
          break;
        case REACTIONS:
          if (!in.takeNull() && !reactions(b)) return null;
          break;
        case REV:
          if (!in.takeNull()) b.rev(in.atLeast(0));
          break;
        case REPLY_TO_ID:
          replyToId = in.takeNull() ? null : in.nonEmpty();
          break;
        case THREAD_ID:
          threadId = in.takeNull() ? null : in.nonEmptyCached();
          break;
        case MENTIONS:
          if (!in.takeNull()) {
            mentions = mentions(mentions);
            if (mentions == null) return null;
          }
          break;
        case THREAD:
          if (!in.takeNull()) return null;
          break;
        default:
          if (!in.skipValue(0)) return null;
      }
      seen |= 1 << name;
    } while (in.take(','));
    // required: id, roomId, seq, senderId, parts, clientMessageId, createdAt
    if (!in.take('}') || (seen & 127) != 127) return null;
    if (replyToId != null || threadId != null || !mentions.isEmpty()) {
      b.links(MessageLinks.builder().replyToId(replyToId).threadId(threadId).mentions(mentions).build());
    }
    if (frame == null) return b.build();
    return FrameMessages.of(b, new FrameFields(frame, idAt, idEnd, clientMessageIdAt, clientMessageIdEnd, keptType,
        keptTextAt, keptTextEnd));
  }

  /**
   * Adds the parts to {@code b}, or, from a String frame, keeps a lone part in it ({@link #keptType}); false when
   * this reader does not take them.
   */
  private boolean parts(Message.Builder b) {
    if (!in.take('[')) return false;
    b.parts(Collections.<MessagePart>emptyList()); // a repeated field: the last one counts
    keptType = null;
    if (in.take(']')) return true;
    boolean keep = in.frameString() != null;
    do {
      if (!in.take('{')) return false;
      String type = null;
      int textAt = -1; // no text
      int textEnd = 0;
      if (!in.take('}')) {
        do {
          if (in.takeKey(TYPE)) {
            type = in.takeNull() ? null : in.cachedString();
          } else if (in.takeKey(TEXT)) {
            if (in.takeNull()) {
              textAt = -1;
            } else {
              textAt = in.position() + 1;
              textEnd = in.stringClose();
              if (textEnd < 0) return false;
            }
          } else {
            return false; // other fields are kept raw by the adapter
          }
        } while (in.take(','));
        if (!in.take('}')) return false;
      }
      if (type == null || type.isEmpty()) return false;
      if (keep) {
        keptType = type;
        keptTextAt = textAt;
        keptTextEnd = textEnd;
        keep = false;
      } else {
        if (keptType != null) b.addPart(part(keptType, keptTextAt, keptTextEnd)); // more than one: all made now
        keptType = null;
        b.addPart(part(type, textAt, textEnd));
      }
    } while (in.take(','));
    return in.take(']');
  }

  private MessagePart part(String type, int textAt, int textEnd) {
    return MessagePart.builder(type).text(textAt < 0 ? null : in.between(textAt, textEnd)).build();
  }

  /**
   * The mentioned users, or {@code read} (those read so far) for {@code []}; null when this reader does not take
   * them.
   */
  private List<String> mentions(List<String> read) {
    if (!in.take('[')) return null;
    if (in.take(']')) return read;
    List<String> users = new ArrayList<>(2);
    do {
      String u = in.cachedString();
      if (u == null) return null;
      users.add(u);
    } while (in.take(','));
    return in.take(']') ? users : null;
  }

  private boolean reactions(Message.Builder b) {
    if (!in.take('{')) return false;
    if (in.take('}')) return true;
    do {
      String emoji = in.cachedString();
      if (emoji == null || !in.take(':') || !in.take('[')) return false;
      List<String> users = new ArrayList<>();
      if (!in.take(']')) {
        do {
          String u = in.cachedString();
          if (u == null) return false;
          users.add(u);
        } while (in.take(','));
        if (!in.take(']')) return false;
      }
      b.reaction(emoji, users);
      builder = null; // holds reactions now, which no setter clears: not reused
    } while (in.take(','));
    return in.take('}');
  }

  /** A field name: the code of one of the Message's, or {@link #OTHER}; -1 when this reader does not take it. */
  private int name() {
    int quote = in.position();
    if (in.at(quote) != '"') return -1;
    int start = quote + 1;
    int known = known(start);
    if (known >= 0) {
      in.moveTo(start + NAMES[known].length + 1);
      return known;
    }
    return in.skipString() ? OTHER : -1;
  }

  /**
   * The code of the Message field whose name starts at {@code at} and is followed by its closing quote, or -1:
   * the candidate chosen by its first letters, then compared whole (the NUL after the frame stops a comparison
   * at its end).
   */
  private int known(int at) {
    int candidate;
    switch (in.at(at)) {
      case 'i':
        candidate = ID;
        break;
      case 'r':
        candidate = in.at(at + 1) == 'o' ? ROOM_ID
            : in.at(at + 2) == 'v' ? REV : in.at(at + 2) == 'p' ? REPLY_TO_ID : REACTIONS;
        break;
      case 't':
        candidate = in.at(at + 6) == 'I' ? THREAD_ID : THREAD; // "thread" then its quote, or "threadId"
        break;
      case 'm':
        candidate = MENTIONS;
        break;
      case 's':
        candidate = in.at(at + 2) == 'q' ? SEQ : SENDER_ID;
        break;
      case 'p':
        candidate = PARTS;
        break;
      case 'c':
        candidate = in.at(at + 1) == 'l' ? CLIENT_MESSAGE_ID : CREATED_AT;
        break;
      case 'e':
        candidate = EDITED_AT;
        break;
      case 'd':
        candidate = DELETED_AT;
        break;
      default:
        return -1;
    }
    char[] name = NAMES[candidate];
    return in.matches(at, name) && in.at(at + name.length) == '"' ? candidate : -1;
  }

  private static char[][] chars(String... words) {
    char[][] out = new char[words.length][];
    for (int k = 0; k < words.length; k++) out[k] = words[k].toCharArray();
    return out;
  }
}
