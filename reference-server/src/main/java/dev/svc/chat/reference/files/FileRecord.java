package dev.svc.chat.reference.files;

import java.time.Duration;
import java.time.Instant;

/**
 * What the server keeps of one upload besides its bytes. {@code offset} counts the bytes committed (each one
 * answered, or kept from a PATCH cut off); the upload is complete once {@code completedAt} is set, which
 * happens when the offset reaches the length and the bytes were read once to fill in the fields below.
 *
 * @param id the server's id of the file (a UUID)
 * @param tenantId the uploader's tenant
 * @param uploaderId the uploader
 * @param length the declared {@code Upload-Length}
 * @param offset the bytes committed so far
 * @param name the file name from {@code Upload-Metadata}
 * @param declaredType the {@code contentType} from {@code Upload-Metadata} ({@code application/octet-stream} when absent)
 * @param createdAt when the upload was created
 * @param touchedAt when it last changed: created, patched, or completed (expiry counts from here)
 * @param completedAt when it was completed, or null
 * @param sha256 the lowercase hex SHA-256 of the bytes once complete, else null
 * @param contentType the stored type once complete (the declared one, unless the bytes contradict an image type)
 * @param width an image's width in pixels, else null
 * @param height an image's height in pixels, else null
 */
public record FileRecord(String id, String tenantId, String uploaderId, long length, long offset, String name,
                         String declaredType, Instant createdAt, Instant touchedAt, Instant completedAt,
                         String sha256, String contentType, Integer width, Integer height) {

    /** How long an unfinished upload lives after its last PATCH, and a complete one that no message references. */
    public static final Duration LIFETIME = Duration.ofHours(24);

    /** Returns a new, empty upload. */
    static FileRecord created(String id, String tenantId, String uploaderId, long length, String name,
                              String declaredType, Instant now) {
        return new FileRecord(id, tenantId, uploaderId, length, 0, name, declaredType, now, now, null, null, null,
                null, null);
    }

    /** Returns whether the upload is complete (only then may a message reference it). */
    public boolean complete() {
        return completedAt != null;
    }

    /** Returns whether the server found an image of one of the four inline types in the bytes. */
    public boolean image() {
        return width != null;
    }

    /** Returns when the upload expires if nothing happens to it (unfinished), or may go if unreferenced. */
    public Instant expiresAt() {
        return touchedAt.plus(LIFETIME);
    }

    /** Returns this upload with {@code offset} bytes committed at {@code now}. */
    FileRecord withOffset(long newOffset, Instant now) {
        return new FileRecord(id, tenantId, uploaderId, length, newOffset, name, declaredType, createdAt, now, null,
                null, null, null, null);
    }

    /** Returns this upload completed at {@code now} with what the bytes said. */
    FileRecord completed(Instant now, String hex, FileType type) {
        return new FileRecord(id, tenantId, uploaderId, length, offset, name, declaredType, createdAt, now, now, hex,
                type.contentType(), type.width(), type.height());
    }
}
