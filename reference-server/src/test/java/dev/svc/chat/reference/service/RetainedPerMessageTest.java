package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Guards what the in-memory store keeps per stored message (see {@link RetainedPerMessage}): counts of live
 * objects and bytes from class histograms, which a loaded machine does not change.
 */
class RetainedPerMessageTest {

    @Test
    void aStoredMessageIsPackedBytesWithNoObjectOfItsOwn() throws Exception {
        RetainedPerMessage.Result result = RetainedPerMessage.measure(20_000);
        System.out.print(result.table());
        // 0.3 objects and about 385 bytes a message with texts of 100 to 300 characters: the packed record (its
        // fields, texts as modified UTF-8, ~310 bytes) in the room's chunks, its location (8 bytes), its slots in
        // the id and idempotency indexes (~60 bytes of int arrays) and 4 bytes a revision. As objects (a Message,
        // its strings, parts and index entries) it was 15.3 objects and 710 bytes, every one of them copied by
        // each young collection until it tenured: the latency tail at 5,000 messages a second (PackedMessages).
        // The bounds leave room for what other threads of the test JVM keep alive between the two histograms.
        assertTrue(result.objectsPerMessage() <= 2, "objects per message: " + result.objectsPerMessage());
        assertTrue(result.bytesPerMessage() <= 500, "bytes per message: " + result.bytesPerMessage());
    }
}
