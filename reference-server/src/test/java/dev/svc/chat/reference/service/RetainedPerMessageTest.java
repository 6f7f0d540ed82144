package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Guards what the in-memory store keeps per stored message (see {@link RetainedPerMessage}): counts of live
 * objects and bytes from class histograms, which a loaded machine does not change.
 */
class RetainedPerMessageTest {

    @Test
    void aStoredMessageKeepsItsFieldsAndTwoIndexEntries() throws Exception {
        RetainedPerMessage.Result result = RetainedPerMessage.measure(20_000);
        System.out.print(result.table());
        // 15.3 objects and about 710 bytes a message with texts of 100 to 300 characters: the message, its id,
        // clientMessageId, createdAt, parts list, one text part (its node, fields, text node and text), an entry in
        // the id index and one in the sender's idempotency index. Kept twice over, or indexed by a key made per
        // message, it is more (30 objects and 1,260 bytes before the indexes and parts shrank). The bounds leave room
        // for what other threads of the test JVM keep alive between the two histograms (a whole-heap difference).
        assertTrue(result.objectsPerMessage() <= 20, "objects per message: " + result.objectsPerMessage());
        assertTrue(result.bytesPerMessage() <= 950, "bytes per message: " + result.bytesPerMessage());
    }
}
