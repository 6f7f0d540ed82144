package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of a call as the contract's Call shape.
 *
 * @param id the call's UUID
 * @param roomId the room it rings in
 * @param kind {@code audio} or {@code video}
 * @param initiatorId who started it
 * @param status {@code ringing}, {@code active}, {@code declined} or {@code ended}
 * @param participantIds the initiator, then whoever accepted, in order (those who left are removed)
 * @param createdAt when it started ringing
 * @param endedAt when it ended or was declined, or null
 * @param endReason {@code hangup}, {@code left}, {@code declined} or {@code missed}, or null while live
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Call(String id, String roomId, String kind, String initiatorId, String status,
                   List<String> participantIds, Instant createdAt, Instant endedAt, String endReason) {

    /** Status of a call nobody answered yet. */
    public static final String RINGING = "ringing";
    /** Status of a call someone accepted. */
    public static final String ACTIVE = "active";
    /** Status of a call every other member declined. */
    public static final String DECLINED = "declined";
    /** Status of a call that ended. */
    public static final String ENDED = "ended";

    /** Copies the participants so that the snapshot is immutable. */
    public Call {
        participantIds = List.copyOf(participantIds);
    }

    /** Returns whether the call is ringing or active (it blocks another call in its room). */
    public boolean isLive() {
        return RINGING.equals(status) || ACTIVE.equals(status);
    }

    /** Returns this call with another status and participants, still live. */
    public Call with(String newStatus, List<String> participants) {
        return new Call(id, roomId, kind, initiatorId, newStatus, participants, createdAt, null, null);
    }

    /** Returns this call finished at {@code at} with {@code status} and {@code reason}. */
    public Call finished(String newStatus, String reason, Instant at) {
        return new Call(id, roomId, kind, initiatorId, newStatus, participantIds, createdAt, at, reason);
    }
}
