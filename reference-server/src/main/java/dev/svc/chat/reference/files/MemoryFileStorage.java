package dev.svc.chat.reference.files;

import dev.svc.chat.reference.contract.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Uploads in memory, for a server without a data directory or database. Bounded: each upload reserves its
 * whole {@code Upload-Length} of the budget when it is created, so the bytes of every upload admitted fit, and
 * an upload past the budget is refused at creation (413 naming the budget) rather than half-way.
 */
final class MemoryFileStorage extends IndexedFileStorage<MemoryFileStorage.Entry> {

    private final long budget;
    private long reserved; // guarded by this

    /** One upload: its record, references, thumbnails and committed bytes, in the pieces they came in. */
    static final class Entry extends IndexedFileStorage.Entry {
        final List<byte[]> chunks = new CopyOnWriteArrayList<>();
        final Map<Integer, Thumbnail> thumbnails = new ConcurrentHashMap<>();

        Entry(FileRecord record) {
            super(record);
        }
    }

    MemoryFileStorage(long budget) {
        this.budget = budget;
    }

    @Override
    public void create(FileRecord record) {
        synchronized (this) {
            if (record.length() > budget - reserved) {
                throw ApiException.payloadTooLarge("The server's memory budget for files (" + budget + " bytes) has no"
                        + " room for " + record.length() + " more bytes; retry later or run it with a data directory");
            }
            reserved += record.length();
        }
        entries.put(record.id(), new Entry(record));
    }

    @Override
    public PatchResult append(FileRecord record, Instant now, Function<ByteSink, PatchResult> copy) {
        Entry entry = entryAtOffset(record);
        if (entry == null) {
            return new PatchResult(0, PatchResult.Outcome.CONFLICT, null);
        }
        List<byte[]> pending = new ArrayList<>();
        PatchResult result = copy.apply((b, off, len) -> pending.add(Arrays.copyOfRange(b, off, off + len)));
        if (result.keep()) {
            entry.chunks.addAll(pending);
            entry.record = record.withOffset(record.offset() + result.bytes(), now);
        }
        return result;
    }

    @Override
    public void update(FileRecord record) {
        Entry entry = entries.get(record.id());
        if (entry != null) {
            entry.record = record;
        }
    }

    @Override
    public InputStream read(FileRecord record, long from) {
        Entry entry = entries.get(record.id());
        List<byte[]> chunks = entry == null ? List.of() : List.copyOf(entry.chunks);
        return new ChunksStream(chunks, from);
    }

    @Override
    public void delete(String fileId) {
        Entry entry = entries.remove(fileId);
        if (entry != null) {
            synchronized (this) {
                reserved -= entry.record.length();
            }
        }
    }

    @Override
    public void addRef(String fileId, FileRef ref) {
        Entry entry = entries.get(fileId);
        if (entry != null && !entry.refs.contains(ref)) {
            entry.refs.add(ref);
        }
    }

    @Override
    public Optional<Thumbnail> thumbnail(String fileId, int size) {
        Entry entry = entries.get(fileId);
        return entry == null ? Optional.empty() : Optional.ofNullable(entry.thumbnails.get(size));
    }

    @Override
    public void putThumbnail(String fileId, int size, Thumbnail thumbnail) {
        Entry entry = entries.get(fileId);
        if (entry != null) {
            entry.thumbnails.put(size, thumbnail);
        }
    }

    /** The bytes of a list of pieces from an offset, without copying them into one array. */
    private static final class ChunksStream extends InputStream {
        private final List<byte[]> chunks;
        private int chunk;
        private int pos;

        ChunksStream(List<byte[]> chunks, long from) {
            this.chunks = chunks;
            long skip = from;
            while (chunk < chunks.size() && skip >= chunks.get(chunk).length) {
                skip -= chunks.get(chunk).length;
                chunk++;
            }
            pos = (int) skip;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (chunk < chunks.size() && pos >= chunks.get(chunk).length) {
                chunk++;
                pos = 0;
            }
            if (chunk >= chunks.size()) {
                return -1;
            }
            byte[] current = chunks.get(chunk);
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
