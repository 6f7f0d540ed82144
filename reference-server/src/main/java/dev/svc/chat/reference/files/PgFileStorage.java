package dev.svc.chat.reference.files;

import dev.svc.chat.reference.store.Database;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Uploads in PostgreSQL (the cluster), so that every node serves every file and a node's disk holds nothing:
 * the record in {@code files}, the bytes in {@code file_chunks} rows of at most {@value #CHUNK} bytes. A PATCH
 * runs in one transaction that locks the upload's row, checks its offset (another node may have moved it),
 * inserts the chunks as they fill and moves the offset; it commits what is kept, else rolls back, so nothing of
 * a refused PATCH stays. Reads fetch one chunk at a time.
 */
final class PgFileStorage implements FileStorage {

    static final int CHUNK = 256 * 1024;
    private static final String COLUMNS = "id, tenant_id, uploader_id, length, upload_offset, name, declared_type,"
            + " created_at, touched_at, completed_at, sha256, content_type, width, height";

    private final Database db;

    /** Thrown inside a PATCH's transaction to roll back what it inserted; carries the result out. */
    private static final class Dropped extends RuntimeException {
        final transient PatchResult result;

        Dropped(PatchResult result) {
            super(null, null, false, false);
            this.result = result;
        }
    }

    PgFileStorage(Database db) {
        this.db = db;
    }

    @Override
    public void create(FileRecord r) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO files (" + COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                bindRecord(ps, r, 1);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<FileRecord> find(String fileId) {
        return db.tx(c -> find(c, fileId, false));
    }

    @Override
    public PatchResult append(FileRecord record, Instant now, Function<ByteSink, PatchResult> copy) {
        try {
            return db.tx(c -> {
                Optional<FileRecord> locked = find(c, record.id(), true);
                if (locked.isEmpty() || locked.get().offset() != record.offset()) {
                    return new PatchResult(0, PatchResult.Outcome.CONFLICT, null);
                }
                ChunkWriter writer = new ChunkWriter(c, record.id(), record.offset());
                PatchResult result = copy.apply(writer);
                if (!result.keep()) {
                    throw new Dropped(result);
                }
                writer.flush();
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE files SET upload_offset = ?, touched_at = ? WHERE id = ?")) {
                    ps.setLong(1, record.offset() + result.bytes());
                    ps.setLong(2, now.toEpochMilli());
                    ps.setString(3, record.id());
                    ps.executeUpdate();
                }
                return result;
            });
        } catch (Dropped dropped) {
            return dropped.result;
        }
    }

    /** Gathers a PATCH's bytes into chunk rows of {@value #CHUNK} bytes in the PATCH's transaction. */
    private static final class ChunkWriter implements ByteSink {
        private final Connection c;
        private final String fileId;
        private final byte[] chunk = new byte[CHUNK];
        private long start;
        private int filled;

        ChunkWriter(Connection c, String fileId, long start) {
            this.c = c;
            this.fileId = fileId;
            this.start = start;
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            while (len > 0) {
                int n = Math.min(len, CHUNK - filled);
                System.arraycopy(b, off, chunk, filled, n);
                filled += n;
                off += n;
                len -= n;
                if (filled == CHUNK) {
                    try {
                        flush();
                    } catch (SQLException e) {
                        throw new java.io.IOException(e);
                    }
                }
            }
        }

        void flush() throws SQLException {
            if (filled == 0) {
                return;
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO file_chunks (file_id, start_offset, data) VALUES (?, ?, ?)")) {
                ps.setString(1, fileId);
                ps.setLong(2, start);
                ps.setBytes(3, java.util.Arrays.copyOf(chunk, filled));
                ps.executeUpdate();
            }
            start += filled;
            filled = 0;
        }
    }

    @Override
    public void update(FileRecord r) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE files SET touched_at = ?, completed_at = ?,"
                    + " sha256 = ?, content_type = ?, width = ?, height = ? WHERE id = ?")) {
                ps.setLong(1, r.touchedAt().toEpochMilli());
                setMillis(ps, 2, r.completedAt());
                ps.setString(3, r.sha256());
                ps.setString(4, r.contentType());
                setInt(ps, 5, r.width());
                setInt(ps, 6, r.height());
                ps.setString(7, r.id());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public InputStream read(FileRecord record, long from) {
        return new InputStream() {
            private long position = from;
            private ByteArrayInputStream current = new ByteArrayInputStream(new byte[0]);

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (current.available() == 0 && !next()) {
                    return -1;
                }
                int n = current.read(b, off, len);
                position += n;
                return n;
            }

            /** Loads the chunk that holds {@code position}; false past the end. */
            private boolean next() {
                byte[][] found = db.tx(c -> {
                    try (PreparedStatement ps = c.prepareStatement("SELECT start_offset, data FROM file_chunks"
                            + " WHERE file_id = ? AND start_offset <= ? ORDER BY start_offset DESC LIMIT 1")) {
                        ps.setString(1, record.id());
                        ps.setLong(2, position);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                return null;
                            }
                            long start = rs.getLong(1);
                            byte[] data = rs.getBytes(2);
                            int skip = (int) (position - start);
                            return skip >= data.length ? null
                                    : new byte[][] {java.util.Arrays.copyOfRange(data, skip, data.length)};
                        }
                    }
                });
                if (found == null) {
                    return false;
                }
                current = new ByteArrayInputStream(found[0]);
                return true;
            }
        };
    }

    @Override
    public void delete(String fileId) {
        db.tx(c -> {
            for (String table : new String[] {"file_chunks", "file_refs", "file_thumbnails"}) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE file_id = ?")) {
                    ps.setString(1, fileId);
                    ps.executeUpdate();
                }
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM files WHERE id = ?")) {
                ps.setString(1, fileId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void addRef(String fileId, FileRef ref) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO file_refs (file_id, room_id, message_id)"
                    + " SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM file_refs WHERE file_id = ? AND room_id = ?"
                    + " AND message_id = ?)")) {
                for (int i = 0; i < 2; i++) {
                    ps.setString(1 + 3 * i, fileId);
                    ps.setString(2 + 3 * i, ref.roomId());
                    ps.setString(3 + 3 * i, ref.messageId());
                }
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<FileRef> refs(String fileId) {
        return db.tx(c -> {
            List<FileRef> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT room_id, message_id FROM file_refs WHERE file_id = ?")) {
                ps.setString(1, fileId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new FileRef(rs.getString(1), rs.getString(2)));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Optional<Thumbnail> thumbnail(String fileId, int size) {
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT content_type, data FROM file_thumbnails WHERE file_id = ? AND size = ?")) {
                ps.setString(1, fileId);
                ps.setInt(2, size);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new Thumbnail(rs.getString(1), rs.getBytes(2))) : Optional.empty();
                }
            }
        });
    }

    @Override
    public void putThumbnail(String fileId, int size, Thumbnail thumbnail) {
        db.tx(c -> {
            // Two nodes may make the same thumbnail at once: the second insert adds nothing.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO file_thumbnails (file_id, size, content_type,"
                    + " data) SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM file_thumbnails WHERE file_id = ?"
                    + " AND size = ?)")) {
                ps.setString(1, fileId);
                ps.setInt(2, size);
                ps.setString(3, thumbnail.contentType());
                ps.setBytes(4, thumbnail.bytes());
                ps.setString(5, fileId);
                ps.setInt(6, size);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<FileRecord> touchedBefore(Instant cutoff) {
        return db.tx(c -> {
            List<FileRecord> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM files WHERE touched_at < ?")) {
                ps.setLong(1, cutoff.toEpochMilli());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(record(rs));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public void close() {
        // the database is the server's to close
    }

    private static Optional<FileRecord> find(Connection c, String fileId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM files WHERE id = ?"
                + (lock ? " FOR UPDATE" : ""))) {
            ps.setString(1, fileId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(record(rs)) : Optional.empty();
            }
        }
    }

    private static FileRecord record(ResultSet rs) throws SQLException {
        long completed = rs.getLong(10);
        Instant completedAt = rs.wasNull() ? null : Instant.ofEpochMilli(completed);
        int width = rs.getInt(13);
        Integer w = rs.wasNull() ? null : width;
        int height = rs.getInt(14);
        Integer h = rs.wasNull() ? null : height;
        return new FileRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                rs.getString(6), rs.getString(7), Instant.ofEpochMilli(rs.getLong(8)),
                Instant.ofEpochMilli(rs.getLong(9)), completedAt, rs.getString(11), rs.getString(12), w, h);
    }

    private static void bindRecord(PreparedStatement ps, FileRecord r, int first) throws SQLException {
        ps.setString(first, r.id());
        ps.setString(first + 1, r.tenantId());
        ps.setString(first + 2, r.uploaderId());
        ps.setLong(first + 3, r.length());
        ps.setLong(first + 4, r.offset());
        ps.setString(first + 5, r.name());
        ps.setString(first + 6, r.declaredType());
        ps.setLong(first + 7, r.createdAt().toEpochMilli());
        ps.setLong(first + 8, r.touchedAt().toEpochMilli());
        setMillis(ps, first + 9, r.completedAt());
        ps.setString(first + 10, r.sha256());
        ps.setString(first + 11, r.contentType());
        setInt(ps, first + 12, r.width());
        setInt(ps, first + 13, r.height());
    }

    private static void setMillis(PreparedStatement ps, int i, Instant at) throws SQLException {
        if (at == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, at.toEpochMilli());
        }
    }

    private static void setInt(PreparedStatement ps, int i, Integer value) throws SQLException {
        if (value == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setInt(i, value);
        }
    }
}
