package dev.svc.chat.reference.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SHA-256 of each unfinished upload's committed bytes, carried along as its PATCHes arrive, so that completion
 * reads none of them again. Kept in memory, per process: after a restart, or when another node of a cluster took
 * the last PATCHes (the kept offset is not the record's), the stored bytes are read once to rebuild it. Called under
 * {@link UploadService}'s lock of the upload.
 */
final class RunningDigests {

    /** The digest of an upload's first {@code offset} bytes. */
    private record State(long offset, MessageDigest digest) {
    }

    private final FileStorage storage;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    RunningDigests(FileStorage storage) {
        this.storage = storage;
    }

    /**
     * Returns a digest of the upload's committed bytes for one PATCH to go on with: a copy of the kept one (so a
     * PATCH whose bytes are dropped leaves it as it was), or one rebuilt from the stored bytes.
     */
    MessageDigest forPatch(FileRecord record) {
        State state = states.get(record.id());
        if (state != null && state.offset() == record.offset()) {
            try {
                return (MessageDigest) state.digest().clone();
            } catch (CloneNotSupportedException e) {
                // a provider without clone: read the bytes again
            }
        }
        return read(record, record.offset());
    }

    /** Keeps {@code digest} as the upload's, of its first {@code offset} bytes (the PATCH's bytes were committed). */
    void committed(String fileId, long offset, MessageDigest digest) {
        states.put(fileId, new State(offset, digest));
    }

    /** Returns the lowercase hex SHA-256 of the whole complete upload, and forgets its digest. */
    String complete(FileRecord record) {
        State state = states.remove(record.id());
        MessageDigest digest = state != null && state.offset() == record.length() ? state.digest()
                : read(record, record.length());
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Forgets the upload's digest (deleted). */
    void forget(String fileId) {
        states.remove(fileId);
    }

    /** Returns the digest of the upload's first {@code bytes} stored bytes, read once. */
    private MessageDigest read(FileRecord record, long bytes) {
        MessageDigest digest = PatchCopy.sha256();
        if (bytes == 0) {
            return digest;
        }
        try (InputStream in = storage.read(record, 0)) {
            byte[] buffer = new byte[PatchCopy.BUFFER];
            for (long left = bytes; left > 0; ) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the upload " + record.id() + " holds fewer than its " + bytes + " bytes");
                }
                digest.update(buffer, 0, n);
                left -= n;
            }
            return digest;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an upload's stored bytes", e);
        }
    }
}
