package dev.svc.chat.reference.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One server per data directory: an exclusive lock on {@value #FILE}, held while the database is open. SQLite
 * lets several processes open its file, and two servers on one directory would each count a room's messages
 * from their own cache and index; the operating system releases the lock when the process ends, a kill
 * included, so a restart never finds a stale one.
 */
final class DataDirLock implements AutoCloseable {

    /** The lock file's name in the data directory. */
    static final String FILE = "svc-chat.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code dataDir}; throws {@link IllegalStateException} when another process holds it. */
    static DataDirLock take(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    OwnerOnlyFiles.fileAttributes());
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IllegalStateException("the data directory " + dataDir + " is in use by another server");
            }
            return new DataDirLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            close(channel);
            throw new IllegalStateException("the data directory " + dataDir + " is in use by this process", e);
        } catch (IOException e) {
            close(channel);
            throw new UncheckedIOException("cannot lock the data directory " + dataDir, e);
        } catch (RuntimeException e) {
            close(channel);
            throw e;
        }
    }

    private static void close(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the lock was not taken: nothing else to release
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it too
        }
        close(channel);
    }
}
