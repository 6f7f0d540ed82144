package dev.svc.chat.reference.files;

import java.io.IOException;

/**
 * How the body of one PATCH ended, and whether its bytes are kept.
 *
 * @param bytes the bytes read (all of them kept, or none)
 * @param outcome how it ended
 * @param cause the read failure of a body cut off, else null
 */
public record PatchResult(long bytes, Outcome outcome, IOException cause) {

    /** How a PATCH body ended. */
    public enum Outcome {
        /** Read to its end and verified when it had a checksum: kept. */
        DONE(true),
        /** Cut off (the client went, or the idle timeout) without a checksum: what arrived is kept, as tus advises. */
        CUT(true),
        /** Cut off with a checksum: nothing can be verified, nothing is kept. */
        CUT_UNVERIFIED(false),
        /** The checksum did not match: nothing kept (460). */
        MISMATCH(false),
        /** More bytes than the upload has room for: nothing kept (413). */
        TOO_LONG(false),
        /** Another node moved the offset first: nothing read, nothing kept (409). */
        CONFLICT(false);

        private final boolean keep;

        Outcome(boolean keep) {
            this.keep = keep;
        }

        /** Returns whether the bytes read are committed. */
        public boolean keep() {
            return keep;
        }
    }

    /** Returns whether the bytes read are committed. */
    public boolean keep() {
        return outcome.keep();
    }
}
