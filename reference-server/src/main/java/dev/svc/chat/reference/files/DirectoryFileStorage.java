package dev.svc.chat.reference.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.store.OwnerOnlyFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Uploads in the data directory's {@code files/} (owner-only): {@code <id>.bin} holds the bytes, {@code
 * <id>.json} the record and references, {@code <id>.t<size>} the thumbnails. A PATCH's bytes are written at
 * the committed offset and forced to the disk, then the record with the new offset replaces the old one
 * atomically (written, forced, renamed, the directory forced) before the PATCH is answered, and only then does a
 * reader (HEAD) see the new offset; references and record updates go to the disk first too. The record is the
 * truth: at start every unfinished {@code .bin} is cut back to its record's offset, so a {@code kill -9} drops at
 * most the bytes of the request it left unanswered.
 */
final class DirectoryFileStorage extends IndexedFileStorage<IndexedFileStorage.Entry> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    private DirectoryFileStorage(Path dir) {
        this.dir = dir;
    }

    /** Opens (creating when absent) {@code files/} in {@code dataDir} and loads its uploads. */
    static DirectoryFileStorage open(Path dataDir) {
        Path dir = dataDir.resolve("files");
        try {
            OwnerOnlyFiles.createDirectory(dir);
            DirectoryFileStorage storage = new DirectoryFileStorage(dir);
            storage.load();
            return storage;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the files directory " + dir, e);
        }
    }

    private void load() throws IOException {
        try (Stream<Path> paths = Files.list(dir)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                String name = path.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    Files.deleteIfExists(path);
                } else if (name.endsWith(".json")) {
                    Entry entry = readEntry(path);
                    FileRecord record = entry.record;
                    entries.put(record.id(), entry);
                    if (!record.complete()) {
                        try (FileChannel channel = FileChannel.open(bin(record.id()), StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE)) {
                            if (channel.size() > record.offset()) {
                                channel.truncate(record.offset());
                                channel.force(true);
                            }
                        }
                    }
                }
            }
        }
    }

    @Override
    public void create(FileRecord record) {
        Entry entry = new Entry(record);
        try {
            Files.deleteIfExists(bin(record.id()));
            Files.createFile(bin(record.id()), OwnerOnlyFiles.fileAttributes());
            writeMeta(record, entry.refs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create an upload in " + dir, e);
        }
        entries.put(record.id(), entry);
    }

    @Override
    public PatchResult append(FileRecord record, Instant now, Function<ByteSink, PatchResult> copy) {
        Entry entry = entryAtOffset(record);
        if (entry == null) {
            return new PatchResult(0, PatchResult.Outcome.CONFLICT, null);
        }
        try (FileChannel channel = FileChannel.open(bin(record.id()), StandardOpenOption.WRITE)) {
            channel.position(record.offset());
            PatchResult result = copy.apply((b, off, len) -> {
                ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            });
            if (result.keep()) {
                channel.force(true);
                publish(entry, record.withOffset(record.offset() + result.bytes(), now));
            } else {
                channel.truncate(record.offset());
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store an upload's bytes in " + dir, e);
        }
    }

    @Override
    public void update(FileRecord record) {
        Entry entry = entries.get(record.id());
        if (entry != null) {
            try {
                publish(entry, record);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot store an upload's record in " + dir, e);
            }
        }
    }

    @Override
    public InputStream read(FileRecord record, long from) {
        try {
            FileChannel channel = FileChannel.open(bin(record.id()), StandardOpenOption.READ);
            channel.position(from);
            return Channels.newInputStream(channel);
        } catch (NoSuchFileException e) {
            throw ApiException.notFound("File not found"); // deleted (swept, terminated) a moment ago
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an upload in " + dir, e);
        }
    }

    @Override
    public void delete(String fileId) {
        entries.remove(fileId);
        try (Stream<Path> paths = Files.list(dir)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (path.getFileName().toString().startsWith(fileId + ".")) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete an upload in " + dir, e);
        }
    }

    @Override
    public void addRef(String fileId, FileRef ref) {
        Entry entry = entries.get(fileId);
        if (entry == null) {
            return;
        }
        synchronized (entry) {
            if (entry.refs.contains(ref)) {
                return;
            }
            List<FileRef> refs = new ArrayList<>(entry.refs);
            refs.add(ref);
            try {
                writeMeta(entry.record, refs);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot store an upload's record in " + dir, e);
            }
            entry.refs.add(ref);
        }
    }

    @Override
    public Optional<Thumbnail> thumbnail(String fileId, int size) {
        Path path = dir.resolve(fileId + ".t" + size);
        try {
            byte[] bytes = Files.readAllBytes(path);
            // The first byte of a PNG is 0x89, of a JPEG 0xFF: the type needs no file of its own.
            return Optional.of(new Thumbnail((bytes[0] & 0xff) == 0x89 ? "image/png" : "image/jpeg", bytes));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a thumbnail in " + dir, e);
        }
    }

    @Override
    public void putThumbnail(String fileId, int size, Thumbnail thumbnail) {
        if (!entries.containsKey(fileId)) {
            return;
        }
        try {
            replace(dir.resolve(fileId + ".t" + size), thumbnail.bytes(), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store a thumbnail in " + dir, e);
        }
    }

    private Path bin(String fileId) {
        return dir.resolve(fileId + ".bin");
    }

    /**
     * Makes {@code record} the entry's: first on the disk ({@link #writeMeta}), then in memory, under the entry's
     * lock. A reader (HEAD, a send referencing the file) never sees a record a {@code kill -9} could still undo.
     */
    private void publish(Entry entry, FileRecord record) throws IOException {
        synchronized (entry) {
            writeMeta(record, entry.refs);
            entry.record = record;
        }
    }

    /** Replaces {@code <id>.json} atomically and durably with {@code r} and {@code refs}. */
    private void writeMeta(FileRecord r, List<FileRef> refs) throws IOException {
        ObjectNode node = JSON.createObjectNode()
                .put("id", r.id()).put("tenantId", r.tenantId()).put("uploaderId", r.uploaderId())
                .put("length", r.length()).put("offset", r.offset()).put("name", r.name())
                .put("declaredType", r.declaredType()).put("createdAt", r.createdAt().toEpochMilli())
                .put("touchedAt", r.touchedAt().toEpochMilli())
                .put("completedAt", r.completedAt() == null ? null : r.completedAt().toEpochMilli())
                .put("sha256", r.sha256()).put("contentType", r.contentType())
                .put("width", r.width()).put("height", r.height());
        ArrayNode array = node.putArray("refs");
        for (FileRef ref : refs) {
            array.addObject().put("roomId", ref.roomId()).put("messageId", ref.messageId());
        }
        replace(dir.resolve(r.id() + ".json"), JSON.writeValueAsBytes(node), true);
    }

    private static Entry readEntry(Path path) throws IOException {
        JsonNode n = JSON.readTree(path.toFile());
        Entry entry = new Entry(new FileRecord(n.get("id").asText(), n.get("tenantId").asText(),
                n.get("uploaderId").asText(), n.get("length").asLong(), n.get("offset").asLong(),
                n.get("name").asText(), n.get("declaredType").asText(),
                Instant.ofEpochMilli(n.get("createdAt").asLong()), Instant.ofEpochMilli(n.get("touchedAt").asLong()),
                n.path("completedAt").isNumber() ? Instant.ofEpochMilli(n.get("completedAt").asLong()) : null,
                n.path("sha256").isTextual() ? n.get("sha256").asText() : null,
                n.path("contentType").isTextual() ? n.get("contentType").asText() : null,
                n.path("width").isInt() ? n.get("width").asInt() : null,
                n.path("height").isInt() ? n.get("height").asInt() : null));
        for (JsonNode ref : n.path("refs")) {
            entry.refs.add(new FileRef(ref.get("roomId").asText(), ref.get("messageId").asText()));
        }
        return entry;
    }

    /** Writes {@code bytes} to a temporary file, then renames it over {@code target}; forced when {@code durable}. */
    private void replace(Path target, byte[] bytes, boolean durable) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try (FileChannel channel = FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), OwnerOnlyFiles.fileAttributes())) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if (durable) {
                channel.force(true);
            }
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        if (durable) {
            forceDirectory();
        }
    }

    /** Forces the directory's entries (the rename) to the disk where the platform allows it (not on Windows). */
    private void forceDirectory() {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Windows cannot open a directory; its renames are durable with the file's own flush.
        }
    }
}
