package dev.svc.chat.reference.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory's uploads: what a reader sees of an upload (HEAD's offset, its references) is what its record
 * on the disk holds, so that a {@code kill -9} never takes back an offset a client was told.
 */
class DirectoryFileStorageTest {
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @TempDir Path dataDir;

    private static PatchResult tenBytes(ByteSink sink) throws java.io.IOException {
        sink.write(new byte[10], 0, 10);
        return new PatchResult(10, PatchResult.Outcome.DONE, null);
    }

    private static PatchResult append(DirectoryFileStorage storage, FileRecord record) {
        return storage.append(record, NOW, sink -> {
            try {
                return tenBytes(sink);
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Makes the next record write of {@code id} fail: its temporary file's place is a directory that is not empty. */
    private void breakRecordWrites(String id) throws Exception {
        Path blocked = blocker(id);
        Files.createDirectories(blocked);
        Files.writeString(blocked.resolve("in-the-way"), "x");
    }

    private void mendRecordWrites(String id) throws Exception {
        Files.delete(blocker(id).resolve("in-the-way"));
        Files.delete(blocker(id));
    }

    private Path blocker(String id) {
        return dataDir.resolve("files").resolve(id + ".json.tmp");
    }

    /** Creates upload {@code id} of {@code length} bytes in {@code storage} and appends its first 10 bytes. */
    private static FileRecord tenBytesIn(DirectoryFileStorage storage, String id, long length) {
        FileRecord created = FileRecord.created(id, "t", "alice", length, "a.bin", "application/octet-stream", NOW);
        storage.create(created);
        append(storage, created);
        FileRecord at10 = storage.find(id).orElseThrow();
        assertEquals(10, at10.offset());
        return at10;
    }

    @Test
    void anOffsetWhoseRecordWasNotWrittenIsNotShown() throws Exception {
        DirectoryFileStorage storage = DirectoryFileStorage.open(dataDir);
        FileRecord at10 = tenBytesIn(storage, "up1", 100);

        breakRecordWrites("up1");
        assertThrows(UncheckedIOException.class, () -> append(storage, at10));
        assertEquals(10, storage.find("up1").orElseThrow().offset(),
                "HEAD would tell an offset that a kill -9 takes back");
        storage.close();
        mendRecordWrites("up1"); // the record write failed as a kill in its middle would have left it

        DirectoryFileStorage reopened = DirectoryFileStorage.open(dataDir);
        assertEquals(10, reopened.find("up1").orElseThrow().offset());
        assertEquals(10, Files.size(dataDir.resolve("files").resolve("up1.bin")), "cut back to its record");
        reopened.close();
    }

    @Test
    void aRecordUpdateOrReferenceThatWasNotWrittenIsNotShown() throws Exception {
        DirectoryFileStorage storage = DirectoryFileStorage.open(dataDir);
        FileRecord at10 = tenBytesIn(storage, "up2", 10);

        breakRecordWrites("up2");
        FileRecord touched = at10.withOffset(10, NOW.plusSeconds(60));
        assertThrows(UncheckedIOException.class, () -> storage.update(touched));
        assertEquals(at10, storage.find("up2").orElseThrow());
        assertThrows(UncheckedIOException.class, () -> storage.addRef("up2", new FileRef("room", "m1")));
        assertEquals(List.of(), storage.refs("up2"));
        storage.close();
    }
}
