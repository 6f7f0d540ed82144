package dev.svc.chat.reference.store;

import java.nio.file.Path;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreTool;
import org.h2.store.fs.FileUtils;

/**
 * Writes every live page of a closed H2 file into a new file beside it ({@code .tempFile}, H2's own name for
 * it) and renames that over the file. The file is opened for writing, as a restart after a {@code kill -9} opens
 * it (H2's recovery finds the newest complete version), and closed without writing ({@code closeImmediately});
 * H2's {@code MVStoreTool.compact(file, compress)} opens it read-only instead (with it the kill loop lost changes
 * acknowledged before the restart that packed the file; with this one too, see {@link H2Compaction}).
 * A kill before the rename leaves the old file and a partial {@code .tempFile}, which the next open of the
 * database deletes ({@code MVStoreTool.compactCleanUp}).
 */
final class H2Pack {

    private H2Pack() {
    }

    /** Packs the H2 file {@code file} (not open) in place. */
    static void pack(Path file) {
        String name = file.toString();
        String temp = name + ".tempFile";
        FileUtils.delete(temp);
        MVStore source = new MVStore.Builder().fileName(name).autoCommitDisabled().open();
        try {
            MVStore target = new MVStore.Builder().fileName(temp).compress().autoCommitDisabled().open();
            try {
                MVStoreTool.compact(source, target);
            } finally {
                target.close();
            }
        } finally {
            source.closeImmediately();
        }
        FileUtils.moveAtomicReplace(temp, name);
    }
}
