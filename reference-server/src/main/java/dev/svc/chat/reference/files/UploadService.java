package dev.svc.chat.reference.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.FileParts;
import dev.svc.chat.reference.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The files of contract section 9 over a {@link FileStorage}: uploads created, patched, looked up and
 * terminated by their uploader; completion (the SHA-256 carried along as the PATCHes arrived, {@link
 * RunningDigests}; the bytes' start read for their type and dimensions); the
 * {@code file} parts of messages; who may read a file; and the sweep of expired and unreferenced uploads. One
 * PATCH at a time per upload (a second one waits up to 5 s for the first, then is 409).
 */
public final class UploadService implements FileParts {

    /** How long a request waits for another one on the same upload before it is 409. */
    private static final long LOCK_WAIT_MILLIS = 5_000;
    /** The most bytes of one PATCH a kill may lose: a PATCH without a checksum is committed in steps of this. */
    static final long COMMIT_STEP = 1024 * 1024;

    private final FileStorage storage;
    private final Store store;
    private final Clock clock;
    private final RunningDigests digests;
    // Never removed while the upload lives: a lock dropped from the map while another thread holds it lets a
    // third one take a new lock of the same upload. Removed when the upload is deleted.
    private final Map<String, ReentrantLock> busy = new ConcurrentHashMap<>();
    private final Map<String, Object> thumbnailLocks = new ConcurrentHashMap<>();

    /** Creates the service over {@code storage}, reading tenants' settings, rooms and messages from {@code store}. */
    public UploadService(FileStorage storage, Store store, Clock clock) {
        this.storage = storage;
        this.store = store;
        this.clock = clock;
        this.digests = new RunningDigests(storage);
    }

    /** Returns the tenant's {@code maxFileBytes}. */
    public long maxFileBytes(String tenantId) {
        return store.settings(tenantId).maxFileBytes();
    }

    /** Creates an upload of {@code length} bytes for the principal, from tus's creation headers. */
    public FileRecord create(Principal principal, String lengthHeader, String deferHeader, String metadataHeader) {
        if (deferHeader != null) {
            throw ApiException.badRequest("Upload-Defer-Length is not supported; give Upload-Length");
        }
        long length = TusHeaders.nonNegative(lengthHeader, "Upload-Length");
        Map<String, String> metadata = TusHeaders.metadata(metadataHeader);
        String name = TusHeaders.filename(metadata);
        String type = TusHeaders.contentType(metadata);
        long max = maxFileBytes(principal.tenantId());
        if (length > max) {
            throw ApiException.payloadTooLarge("Upload-Length " + length + " is over this tenant's maxFileBytes ("
                    + max + ")");
        }
        FileRecord record = FileRecord.created(UUID.randomUUID().toString(), principal.tenantId(),
                principal.userId(), length, name, type, now());
        storage.create(record);
        if (length == 0) {
            return withLock(record.id(), () -> complete(record));
        }
        return record;
    }

    /** Returns the principal's own upload (HEAD, termination), else 404. */
    public FileRecord own(Principal principal, String fileId) {
        return current(principal.tenantId(), fileId)
                .filter(r -> r.uploaderId().equals(principal.userId()))
                .orElseThrow(UploadService::noUpload);
    }

    /**
     * Appends a PATCH body to the principal's upload and returns the upload after it. Checks, in order: the
     * offset header (400), the upload (404), the offset (409), room for a declared {@code contentLength} (413,
     * -1 when not declared); then streams the body: a checksum mismatch is 460, bytes past the length 413,
     * and in both nothing of the request is kept.
     */
    public FileRecord patch(Principal principal, String fileId, String offsetHeader, String checksumHeader,
                            long contentLength, InputStream body) {
        long offset = TusHeaders.nonNegative(offsetHeader, "Upload-Offset");
        byte[] checksum = TusHeaders.checksum(checksumHeader);
        FileRecord found = own(principal, fileId);
        return withLock(found.id(), () -> {
            FileRecord record = own(principal, fileId);
            if (record.complete() || offset != record.offset()) {
                throw ApiException.conflict("Upload-Offset " + offset + " is not the upload's offset "
                        + record.offset() + "; HEAD tells it");
            }
            long room = record.length() - record.offset();
            if (contentLength > room) {
                throw ApiException.payloadTooLarge("The PATCH of " + contentLength + " bytes goes past Upload-Length ("
                        + room + " bytes left)");
            }
            PatchResult result = checksum == null && contentLength >= 0
                    ? appendInSteps(record, contentLength, body) : appendWhole(record, room, checksum, body);
            switch (result.outcome()) {
                case CONFLICT -> throw ApiException.conflict("The upload moved on; HEAD tells its offset");
                case MISMATCH -> throw ApiException.checksumMismatch();
                case TOO_LONG -> throw ApiException.payloadTooLarge("The PATCH goes past Upload-Length ("
                        + room + " bytes left)");
                default -> {
                }
            }
            FileRecord after = storage.find(record.id()).orElseThrow(UploadService::noUpload);
            return after.offset() == after.length() ? complete(after) : after;
        });
    }

    /** Appends a PATCH's body in one commit: all of it is kept, or (a checksum, a body too long) none. */
    private PatchResult appendWhole(FileRecord record, long room, byte[] checksum, InputStream body) {
        MessageDigest running = digests.forPatch(record);
        PatchResult result = storage.append(record, now(), sink -> PatchCopy.copy(body, room, checksum, running, sink));
        if (result.keep()) {
            digests.committed(record.id(), record.offset() + result.bytes(), running);
        }
        return result;
    }

    /**
     * Appends a PATCH body of a declared length without a checksum (what arrives is kept) in commits of at most
     * {@link #COMMIT_STEP} bytes, so that a long PATCH (a client streams a whole file in one) is durable up to the
     * last step while it runs: a kill loses at most one step of it, and HEAD tells the offset committed so far.
     * Returns the outcome of the last step, with the bytes of all of them.
     */
    private PatchResult appendInSteps(FileRecord record, long contentLength, InputStream body) {
        FileRecord at = record;
        long done = 0;
        while (true) {
            long step = Math.min(COMMIT_STEP, contentLength - done);
            MessageDigest running = digests.forPatch(at);
            Instant now = now();
            PatchResult result = storage.append(at, now, sink -> PatchCopy.copyExactly(body, step, running, sink));
            if (result.keep()) {
                digests.committed(at.id(), at.offset() + result.bytes(), running);
                at = at.withOffset(at.offset() + result.bytes(), now);
            }
            done += result.bytes();
            if (result.outcome() != PatchResult.Outcome.DONE || done >= contentLength) {
                return new PatchResult(done, result.outcome(), result.cause());
            }
        }
    }

    /** Deletes the principal's upload unless a message references it (409). */
    public void terminate(Principal principal, String fileId) {
        FileRecord found = own(principal, fileId);
        withLock(found.id(), () -> {
            FileRecord record = own(principal, fileId);
            if (record.complete() && referenced(record)) {
                throw ApiException.conflict("A message references this file; delete the message first");
            }
            delete(record.id());
            return null;
        });
    }

    /**
     * Returns a complete file the principal may read: their own, or one a live message references in a room
     * they are a member of. Anything else is 404, as for a file that does not exist.
     */
    public FileRecord readable(Principal principal, String fileId) {
        FileRecord record = current(principal.tenantId(), fileId).filter(FileRecord::complete)
                .orElseThrow(UploadService::noFile);
        if (record.uploaderId().equals(principal.userId())) {
            return record;
        }
        for (FileRef ref : storage.refs(record.id())) {
            Optional<Room> room = store.room(record.tenantId(), ref.roomId());
            if (room.isPresent() && room.get().hasMember(principal.userId()) && holds(record, ref)) {
                return record;
            }
        }
        throw noFile();
    }

    /**
     * Returns a complete file of the tenant, for its API key's tools (the dev console); 404 for anything else,
     * another tenant's file included.
     */
    public FileRecord ofTenant(String tenantId, String fileId) {
        return current(tenantId, fileId).filter(FileRecord::complete).orElseThrow(UploadService::noFile);
    }

    /** Returns the stored bytes of a complete file from {@code from}; the caller closes the stream. */
    public InputStream open(FileRecord record, long from) {
        return storage.read(record, from);
    }

    /** Returns the image's thumbnail at {@code size}, made once and then kept; empty when it cannot be made. */
    public Optional<Thumbnail> thumbnail(FileRecord record, int size) {
        Optional<Thumbnail> cached = storage.thumbnail(record.id(), size);
        if (cached.isPresent()) {
            return cached;
        }
        // One thread makes a thumbnail; the others asking for it meanwhile wait and take the cached one.
        synchronized (thumbnailLocks.computeIfAbsent(record.id() + "/" + size, k -> new Object())) {
            try {
                cached = storage.thumbnail(record.id(), size);
                if (cached.isPresent()) {
                    return cached;
                }
                Thumbnail made = Thumbnails.make(record, size, () -> storage.read(record, 0));
                if (made == null) {
                    return Optional.empty();
                }
                storage.putThumbnail(record.id(), size, made);
                return Optional.of(made);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                thumbnailLocks.remove(record.id() + "/" + size);
            }
        }
    }

    @Override
    public List<JsonNode> resolve(Principal sender, List<JsonNode> parts) {
        List<JsonNode> out = new ArrayList<>(parts.size());
        for (int index = 0; index < parts.size(); index++) {
            int i = index;
            JsonNode part = parts.get(i);
            if (!"file".equals(part.path("type").asText(null))) {
                out.add(part);
                continue;
            }
            JsonNode id = part.get("fileId");
            if (id == null || !id.isTextual()) {
                throw ApiException.badRequest("part " + i + ": a file part needs a fileId string");
            }
            FileRecord record = current(sender.tenantId(), id.textValue())
                    .filter(r -> r.complete() && r.uploaderId().equals(sender.userId()))
                    .orElseThrow(() -> ApiException.badRequest("part " + i + ": file " + id.textValue()
                            + " is unknown, unfinished, or not uploaded by the sender"));
            out.add(part(record));
        }
        return out;
    }

    @Override
    public void referenced(String tenantId, Message message) {
        for (JsonNode part : message.parts()) {
            if ("file".equals(part.path("type").asText(null)) && part.path("fileId").isTextual()) {
                storage.addRef(part.get("fileId").textValue(), new FileRef(message.roomId(), message.id()));
            }
        }
    }

    /**
     * Deletes the unfinished uploads not patched for {@link FileRecord#LIFETIME}, and the complete ones that no
     * live message references that long after completion. Returns how many went.
     */
    public int sweep() {
        int deleted = 0;
        for (FileRecord candidate : storage.touchedBefore(now().minus(FileRecord.LIFETIME))) {
            ReentrantLock lock = busy.computeIfAbsent(candidate.id(), k -> new ReentrantLock());
            if (!lock.tryLock()) {
                continue; // a PATCH is running: the upload is not idle
            }
            try {
                Optional<FileRecord> record = storage.find(candidate.id());
                if (record.isPresent() && record.get().expiresAt().isBefore(now())
                        && !(record.get().complete() && referenced(record.get()))) {
                    delete(candidate.id());
                    deleted++;
                }
            } finally {
                lock.unlock();
            }
        }
        return deleted;
    }

    /** Returns the stored part of a complete file, as a message keeps it. */
    static ObjectNode part(FileRecord record) {
        ObjectNode part = JsonNodeFactory.instance.objectNode()
                .put("type", "file").put("fileId", record.id()).put("name", record.name())
                .put("contentType", record.contentType()).put("size", record.length()).put("sha256", record.sha256());
        if (record.image()) {
            part.put("width", record.width()).put("height", record.height());
        }
        return part;
    }

    /**
     * Returns the tenant's upload: empty for a malformed id, another tenant's, or an unfinished one past its
     * expiry; an upload whose bytes are all there but whose completion a kill interrupted is completed now.
     */
    private Optional<FileRecord> current(String tenantId, String fileId) {
        if (!Inputs.isServerId(fileId)) {
            return Optional.empty();
        }
        Optional<FileRecord> found = storage.find(fileId).filter(r -> r.tenantId().equals(tenantId));
        if (found.isEmpty() || found.get().complete()) {
            return found;
        }
        FileRecord record = found.get();
        if (record.expiresAt().isBefore(now())) {
            return Optional.empty();
        }
        if (record.offset() == record.length()) {
            return Optional.of(withLock(record.id(), () -> {
                FileRecord again = storage.find(fileId).orElseThrow(UploadService::noUpload);
                return again.complete() ? again : complete(again);
            }));
        }
        return found;
    }

    /** Takes the bytes' SHA-256, type and dimensions; stores and returns the complete record. */
    private FileRecord complete(FileRecord record) {
        try {
            String sha256 = digests.complete(record);
            FileType type = ImageSniffer.sniff(record.declaredType(), () -> storage.read(record, 0));
            FileRecord done = record.completed(now(), sha256, type);
            storage.update(done);
            return done;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a completed upload", e);
        }
    }

    /** Returns whether a live message (not deleted, the part not edited away) references the file. */
    private boolean referenced(FileRecord record) {
        for (FileRef ref : storage.refs(record.id())) {
            if (holds(record, ref)) {
                return true;
            }
        }
        return false;
    }

    private boolean holds(FileRecord record, FileRef ref) {
        Optional<Message> message = store.message(record.tenantId(), ref.roomId(), ref.messageId());
        if (message.isEmpty() || message.get().deletedAt() != null) {
            return false;
        }
        for (JsonNode part : message.get().parts()) {
            if ("file".equals(part.path("type").asText(null)) && record.id().equals(part.path("fileId").asText(null))) {
                return true;
            }
        }
        return false;
    }

    private interface Locked<T> {
        T run();
    }

    /**
     * Runs {@code work} as the one PATCH, completion or termination of the upload now (the thread that holds
     * the lock may take it again); else 409.
     */
    private <T> T withLock(String fileId, Locked<T> work) {
        ReentrantLock lock = busy.computeIfAbsent(fileId, k -> new ReentrantLock());
        try {
            // A PATCH that was cut commits what arrived and lets go a moment after HEAD shows it: a client
            // resuming at once waits for that rather than failing.
            if (!lock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                throw ApiException.conflict("Another request is writing this upload; retry after it, HEAD tells"
                        + " the offset");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.conflict("Interrupted while waiting for this upload");
        }
        try {
            return work.run();
        } finally {
            lock.unlock();
        }
    }

    /** Deletes the upload and forgets its lock (called under it). */
    private void delete(String fileId) {
        storage.delete(fileId);
        digests.forget(fileId);
        busy.remove(fileId);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static ApiException noUpload() {
        return ApiException.notFound("Upload not found");
    }

    private static ApiException noFile() {
        return ApiException.notFound("File not found");
    }
}
