package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Call;
import java.util.Set;

/**
 * A stored call: its contract shape and who declined it while it rang.
 *
 * @param call the call
 * @param declinedIds the members who declined it (unmodifiable)
 */
public record CallState(Call call, Set<String> declinedIds) {

    /** Copies the declined set so that the state never changes after it was read. */
    public CallState {
        declinedIds = Set.copyOf(declinedIds);
    }
}
