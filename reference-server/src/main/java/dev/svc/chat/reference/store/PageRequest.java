package dev.svc.chat.reference.store;

/**
 * Which page of a room's history to read: {@code after} and {@code before} are exclusive seq bounds and at
 * most one of them is set; with neither the latest messages are read.
 *
 * @param limit the page size, 1 to 100
 * @param before read the last {@code limit} messages with seq below this, or null
 * @param after read the first {@code limit} messages with seq above this, or null
 */
public record PageRequest(int limit, Long before, Long after) {

    /** Checks that at most one bound is set. */
    public PageRequest {
        if (before != null && after != null) {
            throw new IllegalArgumentException("before and after are exclusive");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit < 1");
        }
    }
}
