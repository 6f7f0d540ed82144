package dev.svc.chat.reference.gateway;

import dev.svc.chat.reference.contract.ApiException;
import java.util.HashMap;
import java.util.Map;

/**
 * The order guard of one connection's {@code send-message} events. Once a send of a room was refused with a
 * retryable error ({@code rate_limited}, {@code internal}: the client will send it again), every later send of
 * the same user to that room on this connection is refused with the same error until that refused
 * {@code clientMessageId} comes again. A client that pipelines its sends can then never have a later send
 * stored before the refused one. Thread-safe (events of one connection come in one at a time anyway).
 */
final class SendBlocks {

    private final Map<String, Block> blocks = new HashMap<>();

    private record Block(String clientMessageId, ApiException error) {
    }

    /**
     * Throws the blocking error if the room is blocked for a send other than the refused one; the refused one
     * coming again lifts the block (and is then handled as any send).
     */
    synchronized void check(String userId, String roomId, String clientMessageId) {
        if (blocks.isEmpty()) {
            return;
        }
        String key = key(userId, roomId);
        Block block = blocks.get(key);
        if (block == null) {
            return;
        }
        if (block.clientMessageId().equals(clientMessageId)) {
            blocks.remove(key);
            return;
        }
        throw block.error();
    }

    /** Records a refusal: a retryable one blocks the room until {@code clientMessageId} comes again. */
    synchronized void refused(String userId, String roomId, String clientMessageId, ApiException error) {
        if (isRetryable(error)) {
            blocks.putIfAbsent(key(userId, roomId), new Block(clientMessageId, error));
        }
    }

    /** Returns whether a client sends again after {@code error}: a 5xx or a 429, as the SDK's outbox does. */
    static boolean isRetryable(ApiException error) {
        return error.status() >= 500 || error.status() == 429;
    }

    private static String key(String userId, String roomId) {
        return userId + '\u0000' + roomId;
    }
}
