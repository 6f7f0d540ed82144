package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.ThreadSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One room's messages in {@link InMemoryStore}, packed as bytes ({@link PackedCodec}) in chunks of up to 256 KiB,
 * with their seq, id and idempotency key indexed in primitive arrays ({@link SeqIndex}).
 *
 * <p>Why bytes and not the {@link Message} objects: a stored message lives as long as the server, and as objects
 * (15 a message, about 710 bytes) each young collection copied every message stored since the one before, then
 * copied them again from one survivor space to the next until they were old enough to tenure. At 5,000 messages a
 * second that copying was nearly all of 45 to 65 ms young pauses, the latency tail of the whole server. Packed,
 * a message is about 330 bytes in a few large arrays and a collection has almost nothing of it to copy. A read
 * unpacks the messages it returns; what it returns is a new object every time, equal to what was stored.
 *
 * <p>A message changed by an edit, a reaction or a delete is written again at the end and its seq points there;
 * the bytes of its former state stay in their chunk until the server stops (changes are rare beside sends).
 * Not thread-safe: its room's monitor guards it.
 */
final class PackedMessages {

    static final int MIN_CHUNK = 512;
    static final int MAX_CHUNK = 256 * 1024;
    private static final int EDITED = 1;
    private static final int DELETED = 2;
    private static final int REACTIONS = 4;
    // Section 10's fields, each written (after the reactions) only when the message has it.
    private static final int REPLY_TO = 8;
    private static final int IN_THREAD = 16;
    private static final int MENTIONS = 32;
    private static final int THREAD = 64;
    // One writer a thread: a record is written there, then copied to its chunk. Dropped past 64 KiB so that one
    // large message does not keep a large buffer on a request thread.
    private static final ThreadLocal<PackedCodec.Writer> WRITERS = ThreadLocal.withInitial(PackedCodec.Writer::new);
    private static final int KEPT_WRITER_BYTES = 64 * 1024;

    private final String roomId;
    private byte[][] chunks = new byte[1][];
    private int lastChunk = -1;
    private int used;
    private long chunkBytes;
    /** Where the latest state of the message at seq n is: its chunk in the high half, its offset in the low. */
    private long[] locations = new long[8];
    private int count;
    private final List<String> senders = new ArrayList<>();
    private final Map<String, Integer> senderIndex = new HashMap<>();
    private final SeqIndex byId = new SeqIndex();
    private final SeqIndex byClientId = new SeqIndex();

    PackedMessages(String roomId) {
        this.roomId = roomId;
    }

    /** Returns how many messages the room has (its last seq). */
    int size() {
        return count;
    }

    /** Stores a new message; its seq must be {@link #size()} + 1. */
    void append(Message message) {
        if (message.seq() != count + 1L) {
            throw new IllegalStateException("seq " + message.seq() + " after " + count);
        }
        int sender = sender(message.senderId());
        long location = write(message, sender);
        if (count == locations.length) {
            locations = Arrays.copyOf(locations, count + (count >> 1));
        }
        locations[count++] = location;
        int seq = count;
        byId.add(idHash(message.id()), seq);
        byClientId.add(clientIdHash(sender, message.clientMessageId()), seq);
    }

    /**
     * Stores a message's new state in place of its latest one: same seq and id, and the same sender and
     * idempotency key, which the indexes found it by and which a change never makes another's.
     */
    void replace(Message message) {
        int seq = Math.toIntExact(message.seq());
        PackedCodec.Reader in = reader(seq);
        if (!senders.get(in.readVarInt()).equals(message.senderId()) || !in.stringEquals(message.clientMessageId())) {
            throw new IllegalArgumentException("a change keeps the message's sender and clientMessageId: "
                    + message.id());
        }
        locations[seq - 1] = write(message, sender(message.senderId()));
    }

    /** Returns the latest state of the message at {@code seq} (1 to {@link #size()}). */
    Message get(long seq) {
        PackedCodec.Reader in = reader(seq);
        String senderId = senders.get(in.readVarInt());
        String clientMessageId = in.readString();
        String id = in.readString();
        long rev = in.readLong();
        Instant createdAt = in.readInstant();
        int flags = in.readByte();
        Instant editedAt = (flags & EDITED) != 0 ? in.readInstant() : null;
        Instant deletedAt = (flags & DELETED) != 0 ? in.readInstant() : null;
        int partCount = in.readVarInt();
        List<JsonNode> parts = new ArrayList<>(partCount);
        for (int i = 0; i < partCount; i++) {
            parts.add(in.readNode());
        }
        Map<String, List<String>> reactions = Map.of();
        if ((flags & REACTIONS) != 0) {
            int emojis = in.readVarInt();
            reactions = new LinkedHashMap<>();
            for (int i = 0; i < emojis; i++) {
                String emoji = in.readString();
                int users = in.readVarInt();
                List<String> userIds = new ArrayList<>(users);
                for (int u = 0; u < users; u++) {
                    userIds.add(in.readString());
                }
                reactions.put(emoji, userIds);
            }
        }
        String replyToId = (flags & REPLY_TO) != 0 ? in.readString() : null;
        String threadId = (flags & IN_THREAD) != 0 ? in.readString() : null;
        List<String> mentions = (flags & MENTIONS) != 0 ? readStrings(in) : List.of();
        ThreadSummary thread = null;
        if ((flags & THREAD) != 0) {
            int replies = in.readVarInt();
            Instant lastReplyAt = replies > 0 ? in.readInstant() : null;
            thread = new ThreadSummary(replies, lastReplyAt, readStrings(in));
        }
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions, replyToId, threadId, mentions, thread);
    }

    private static List<String> readStrings(PackedCodec.Reader in) {
        int n = in.readVarInt();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readString());
        }
        return out;
    }

    private static void writeStrings(PackedCodec.Writer out, List<String> strings) {
        out.writeVarLong(strings.size());
        strings.forEach(out::writeString);
    }

    /** Returns the rev of the latest state of the message at {@code seq}, without unpacking the rest. */
    long rev(long seq) {
        PackedCodec.Reader in = reader(seq);
        in.readVarInt();
        in.skipString();
        in.skipString();
        return in.readLong();
    }

    /** Returns the seq of the message with that id, or 0 (also for null). */
    int seqOfId(String id) {
        if (id == null) {
            return 0;
        }
        return byId.find(idHash(id), seq -> {
            PackedCodec.Reader in = reader(seq);
            in.readVarInt();
            in.skipString();
            return in.stringEquals(id);
        });
    }

    /** Returns the seq of the message {@code senderId} sent with that idempotency key, or 0. */
    int seqOfClientId(String senderId, String clientMessageId) {
        Integer sender = senderIndex.get(senderId);
        if (sender == null) {
            return 0;
        }
        return byClientId.find(clientIdHash(sender, clientMessageId), seq -> {
            PackedCodec.Reader in = reader(seq);
            return in.readVarInt() == sender && in.stringEquals(clientMessageId);
        });
    }

    private static int idHash(String id) {
        return SeqIndex.spread(id.hashCode());
    }

    private static int clientIdHash(int sender, String clientMessageId) {
        return SeqIndex.spread((clientMessageId == null ? 0 : clientMessageId.hashCode()) * 31 + sender);
    }

    private int sender(String senderId) {
        Integer index = senderIndex.get(senderId);
        if (index == null) {
            index = senders.size();
            senders.add(senderId);
            senderIndex.put(senderId, index);
        }
        return index;
    }

    private PackedCodec.Reader reader(long seq) {
        long location = locations[Math.toIntExact(seq - 1)];
        return new PackedCodec.Reader(chunks[(int) (location >>> 32)], (int) location);
    }

    /** Packs {@code message} after the last record and returns where it starts. */
    private long write(Message message, int sender) {
        PackedCodec.Writer out = WRITERS.get();
        out.reset();
        out.writeVarLong(sender);
        out.writeString(message.clientMessageId());
        out.writeString(message.id());
        out.writeLong(message.rev());
        out.writeInstant(message.createdAt());
        Map<String, List<String>> reactions = message.reactions();
        int flags = (message.editedAt() != null ? EDITED : 0) | (message.deletedAt() != null ? DELETED : 0)
                | (reactions.isEmpty() ? 0 : REACTIONS) | (message.replyToId() != null ? REPLY_TO : 0)
                | (message.threadId() != null ? IN_THREAD : 0) | (message.mentions().isEmpty() ? 0 : MENTIONS)
                | (message.thread() != null ? THREAD : 0);
        out.writeByte(flags);
        if (message.editedAt() != null) {
            out.writeInstant(message.editedAt());
        }
        if (message.deletedAt() != null) {
            out.writeInstant(message.deletedAt());
        }
        out.writeVarLong(message.parts().size());
        for (JsonNode part : message.parts()) {
            out.writeNode(part);
        }
        if (!reactions.isEmpty()) {
            out.writeVarLong(reactions.size());
            reactions.forEach((emoji, userIds) -> {
                out.writeString(emoji);
                out.writeVarLong(userIds.size());
                userIds.forEach(out::writeString);
            });
        }
        if (message.replyToId() != null) {
            out.writeString(message.replyToId());
        }
        if (message.threadId() != null) {
            out.writeString(message.threadId());
        }
        if (!message.mentions().isEmpty()) {
            writeStrings(out, message.mentions());
        }
        ThreadSummary thread = message.thread();
        if (thread != null) {
            out.writeVarLong(thread.replyCount());
            if (thread.replyCount() > 0) {
                out.writeInstant(thread.lastReplyAt());
            }
            writeStrings(out, thread.participantIds());
        }
        long location = place(out.bytes, out.size);
        if (out.bytes.length > KEPT_WRITER_BYTES) {
            WRITERS.remove();
        }
        return location;
    }

    private long place(byte[] record, int length) {
        if (lastChunk < 0 || used + length > chunks[lastChunk].length) {
            // Chunks double with the room (a room of a few messages keeps a few hundred bytes) up to MAX_CHUNK; a
            // record larger than that gets a chunk of its own size.
            int size = (int) Math.max(length, Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, chunkBytes)));
            if (++lastChunk == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[lastChunk] = new byte[size];
            chunkBytes += size;
            used = 0;
        }
        System.arraycopy(record, 0, chunks[lastChunk], used, length);
        long location = ((long) lastChunk << 32) | used;
        used += length;
        return location;
    }
}
