package dev.svc.chat.reference.files;

import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where uploads and their bytes are kept: in memory (bounded), in the data directory's {@code files/}, or in
 * PostgreSQL. Bytes are streamed in and out, never held whole. Methods on one file are called under
 * {@link UploadService}'s lock of that file (per process); PostgreSQL also locks the file's row, for a cluster.
 */
public interface FileStorage extends AutoCloseable {

    /** Stores a new upload, or throws 413 {@code payload_too_large} when the storage has no room for its length. */
    void create(FileRecord record);

    /** Returns the upload, or empty when there is none with this id. */
    Optional<FileRecord> find(String fileId);

    /**
     * Appends one PATCH's bytes at {@code record.offset()}: {@code copy} writes them into the sink it is given and
     * says how the body ended; the bytes are committed (durable, and the offset moved to {@code offset + bytes}
     * with {@code touchedAt = now}) when the result keeps them, else dropped. Returns {@code copy}'s result,
     * or {@link PatchResult.Outcome#CONFLICT} without calling it when the stored offset is no longer the record's.
     */
    PatchResult append(FileRecord record, Instant now, Function<ByteSink, PatchResult> copy);

    /** Replaces the record of an upload (its completion); the bytes stay. */
    void update(FileRecord record);

    /** Returns the committed bytes of the upload from {@code from}; the caller closes the stream. */
    InputStream read(FileRecord record, long from);

    /** Deletes the upload, its bytes, references and thumbnails (nothing when it is gone already). */
    void delete(String fileId);

    /** Records that a message referenced the file. */
    void addRef(String fileId, FileRef ref);

    /** Returns the messages recorded as referencing the file. */
    List<FileRef> refs(String fileId);

    /** Returns the cached thumbnail of the file at this size. */
    Optional<Thumbnail> thumbnail(String fileId, int size);

    /** Caches a thumbnail of the file. */
    void putThumbnail(String fileId, int size, Thumbnail thumbnail);

    /** Returns the uploads last touched before {@code cutoff}: those the sweep looks at. */
    List<FileRecord> touchedBefore(Instant cutoff);

    /** Releases what the storage holds open (not its data). */
    @Override
    void close();
}
