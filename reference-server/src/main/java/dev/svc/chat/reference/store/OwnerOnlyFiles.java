package dev.svc.chat.reference.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps the data directory owner-only where the file system has POSIX permissions: the directory and the
 * directories in it (the search index) 0700, their files 0600. The database holds API keys, token secrets and
 * webhook secrets. SQLite creates its log files with the process umask (usually 0644), and Java cannot change
 * the umask, so the files are made owner-only after each open and close; files created in between are
 * unreadable to others all the same, as the directory cannot be entered. Elsewhere (Windows) nothing is changed.
 */
public final class OwnerOnlyFiles {

    /** The directory's permissions. */
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    /** Every file's permissions. */
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnlyFiles() {
    }

    /** Returns whether the default file system has POSIX permissions. */
    static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** Creates {@code dir} (and missing parents) owner-only, or makes an existing one owner-only. */
    public static void createDirectory(Path dir) throws IOException {
        if (!posix()) {
            Files.createDirectories(dir);
            return;
        }
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        Files.setPosixFilePermissions(dir, DIRECTORY);
    }

    /**
     * Makes {@code dir} and the directories in it (the search index's) 0700 and every regular file in them
     * 0600.
     */
    public static void restrict(Path dir) {
        if (!posix()) {
            return;
        }
        try {
            Files.setPosixFilePermissions(dir, DIRECTORY);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    if (Files.isRegularFile(file)) {
                        Files.setPosixFilePermissions(file, FILE);
                    } else if (Files.isDirectory(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        restrict(file);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the data directory owner-only: " + dir, e);
        }
    }

    /** Returns the attribute that creates a file 0600 (empty where there are no POSIX permissions). */
    public static FileAttribute<?>[] fileAttributes() {
        return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }
}
