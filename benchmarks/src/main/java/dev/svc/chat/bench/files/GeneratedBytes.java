package dev.svc.chat.bench.files;

import java.io.InputStream;
import java.util.Random;

import dev.svc.chat.FileSource;

/**
 * A source of any length that is never held in memory nor on the disk: 1 MiB of seeded random bytes repeated,
 * each repetition starting with its own index (so no two MiB are alike), the same bytes at every open.
 */
final class GeneratedBytes extends InputStream {
    private static final int BLOCK = 1024 * 1024;
    private static final byte[] BASE = base();

    private final long length;
    private final byte[] block = BASE.clone();
    private long position;

    private GeneratedBytes(long length) {
        this.length = length;
        stamp(0);
    }

    /** A source of {@code length} such bytes, named {@code name}. */
    static FileSource source(String name, long length) {
        return FileSource.builder(() -> new GeneratedBytes(length), length).name(name)
                .contentType("application/octet-stream").build();
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int count) {
        if (position >= length) return -1;
        int at = (int) (position % BLOCK);
        int n = (int) Math.min(Math.min(count, BLOCK - at), length - position);
        System.arraycopy(block, at, into, offset, n);
        position += n;
        if (position % BLOCK == 0) stamp(position / BLOCK);
        return n;
    }

    private void stamp(long index) {
        for (int i = 0; i < 8; i++) block[i] = (byte) (BASE[i] ^ (index >>> (8 * i)));
    }

    private static byte[] base() {
        byte[] bytes = new byte[BLOCK];
        new Random(42).nextBytes(bytes);
        return bytes;
    }
}
