package dev.svc.chat.reference.files;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Copies the body of one PATCH into a storage's sink, 64 KiB at a time: at most {@code room} bytes (one more is a
 * body too long), hashing them when the request carries a checksum and into the upload's running digest (the whole
 * file's SHA-256 so far), and says how the body ended.
 */
final class PatchCopy {

    static final int BUFFER = 64 * 1024;

    private PatchCopy() {
    }

    /**
     * Reads {@code in} to its end or its failure into {@code sink}. {@code expected} is the request's SHA-256, or
     * null; {@code running}, when not null, is updated with every byte written to the sink (so it holds exactly the
     * bytes a cut keeps). A failure of the sink (the disk) is thrown; a failure to read is an outcome.
     */
    static PatchResult copy(InputStream in, long room, byte[] expected, MessageDigest running, ByteSink sink) {
        MessageDigest digest = expected == null ? null : sha256();
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        while (true) {
            int n;
            try {
                n = in.read(buffer, 0, (int) Math.min(buffer.length, room - total + 1));
            } catch (IOException e) {
                return new PatchResult(total, expected == null ? PatchResult.Outcome.CUT
                        : PatchResult.Outcome.CUT_UNVERIFIED, e);
            }
            if (n < 0) {
                break;
            }
            if (total + n > room) {
                return new PatchResult(total, PatchResult.Outcome.TOO_LONG, null);
            }
            try {
                sink.write(buffer, 0, n);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot store an upload's bytes", e);
            }
            if (digest != null) {
                digest.update(buffer, 0, n);
            }
            if (running != null) {
                running.update(buffer, 0, n);
            }
            total += n;
        }
        if (digest != null && !MessageDigest.isEqual(digest.digest(), expected)) {
            return new PatchResult(total, PatchResult.Outcome.MISMATCH, null);
        }
        return new PatchResult(total, PatchResult.Outcome.DONE, null);
    }

    /**
     * Reads exactly {@code count} bytes of {@code in} (a body of a declared length, so never more than it holds)
     * into {@code sink} and {@code running}; a body that fails or ends before is {@link PatchResult.Outcome#CUT}
     * with what was written (kept, as a PATCH without a checksum keeps what arrived).
     */
    static PatchResult copyExactly(InputStream in, long count, MessageDigest running, ByteSink sink) {
        byte[] buffer = new byte[(int) Math.min(BUFFER, Math.max(1, count))];
        long total = 0;
        while (total < count) {
            int n;
            try {
                n = in.read(buffer, 0, (int) Math.min(buffer.length, count - total));
            } catch (IOException e) {
                return new PatchResult(total, PatchResult.Outcome.CUT, e);
            }
            if (n < 0) {
                return new PatchResult(total, PatchResult.Outcome.CUT, null);
            }
            try {
                sink.write(buffer, 0, n);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot store an upload's bytes", e);
            }
            running.update(buffer, 0, n);
            total += n;
        }
        return new PatchResult(total, PatchResult.Outcome.DONE, null);
    }

    /** Returns a new SHA-256 digest (every JVM has one). */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
