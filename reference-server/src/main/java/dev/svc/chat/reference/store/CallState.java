package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Call;
import java.util.Set;

/**
 * A stored call: its contract shape, who declined it while it rang, and its version.
 *
 * @param call the call
 * @param declinedIds the members who declined it (unmodifiable)
 * @param version 1 when it starts ringing, one more with each stored change: its events carry it, so that a
 *     cluster's node can tell which of them its sockets were handed
 */
public record CallState(Call call, Set<String> declinedIds, long version) {

    /** Copies the declined set so that the state never changes after it was read. */
    public CallState {
        declinedIds = Set.copyOf(declinedIds);
    }

    /** A call that starts ringing: version 1. */
    public CallState(Call call, Set<String> declinedIds) {
        this(call, declinedIds, 1);
    }

    /** Returns this state if {@code next} and {@code declined} are what it holds, else them at the next version. */
    public CallState then(Call next, Set<String> declined) {
        if (next.equals(call) && declined.equals(declinedIds)) {
            return this;
        }
        return new CallState(next, declined, version + 1);
    }
}
