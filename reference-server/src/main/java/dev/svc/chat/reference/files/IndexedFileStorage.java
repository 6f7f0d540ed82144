package dev.svc.chat.reference.files;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A storage that keeps every upload's record and references in memory, by id (the memory storage, and the data
 * directory's, which loads them at start): the look-ups, the sweep's listing and {@link #close()} read that map,
 * never where the bytes are.
 *
 * @param <E> the entry a storage keeps per upload
 */
abstract class IndexedFileStorage<E extends IndexedFileStorage.Entry> implements FileStorage {

    /** One upload: its record and the messages referencing it. */
    static class Entry {
        volatile FileRecord record;
        final List<FileRef> refs = new CopyOnWriteArrayList<>();

        Entry(FileRecord record) {
            this.record = record;
        }
    }

    final Map<String, E> entries = new ConcurrentHashMap<>();

    @Override
    public Optional<FileRecord> find(String fileId) {
        E entry = entries.get(fileId);
        return entry == null ? Optional.empty() : Optional.of(entry.record);
    }

    /**
     * Returns the upload's entry when its committed offset is still the record's, or null: then the caller answers
     * {@link PatchResult.Outcome#CONFLICT} (gone, or another PATCH moved it).
     */
    final E entryAtOffset(FileRecord record) {
        E entry = entries.get(record.id());
        return entry == null || entry.record.offset() != record.offset() ? null : entry;
    }

    @Override
    public List<FileRef> refs(String fileId) {
        E entry = entries.get(fileId);
        return entry == null ? List.of() : List.copyOf(entry.refs);
    }

    @Override
    public List<FileRecord> touchedBefore(Instant cutoff) {
        List<FileRecord> out = new ArrayList<>();
        for (E entry : entries.values()) {
            if (entry.record.touchedAt().isBefore(cutoff)) {
                out.add(entry.record);
            }
        }
        return out;
    }

    @Override
    public void close() {
        entries.clear();
    }
}
