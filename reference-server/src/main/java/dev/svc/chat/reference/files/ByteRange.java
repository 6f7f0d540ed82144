package dev.svc.chat.reference.files;

import dev.svc.chat.reference.contract.ApiException;

/**
 * One byte range of a {@code Range: bytes=...} header (RFC 9110 section 14), inclusive. Only a single range is
 * served: a header with several, another unit or a malformed value is ignored (the whole file is sent, as the RFC
 * allows); a range that starts past the end is 416.
 *
 * @param start the first byte
 * @param end the last byte
 */
record ByteRange(long start, long end) {

    /** Returns the number of bytes. */
    long length() {
        return end - start + 1;
    }

    /** Returns the range {@code header} asks of a file of {@code size} bytes, or null for the whole file. */
    static ByteRange parse(String header, long size) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (!h.regionMatches(true, 0, "bytes=", 0, 6) || h.indexOf(',') >= 0) {
            return null;
        }
        String spec = h.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        String first = spec.substring(0, dash).trim();
        String last = spec.substring(dash + 1).trim();
        long from;
        long to;
        if (first.isEmpty()) {
            long suffix = number(last);
            if (suffix <= 0) {
                return suffix == 0 ? unsatisfiable(size) : null;
            }
            from = Math.max(0, size - suffix);
            to = size - 1;
        } else {
            from = number(first);
            to = last.isEmpty() ? Long.MAX_VALUE : number(last);
            if (from < 0 || to < 0 || to < from) {
                return null;
            }
            to = Math.min(to, size - 1);
        }
        if (from >= size) {
            return unsatisfiable(size);
        }
        return new ByteRange(from, to);
    }

    private static ByteRange unsatisfiable(long size) {
        throw ApiException.rangeNotSatisfiable("The range starts past the file's end (" + size + " bytes)");
    }

    /** Returns a decimal of at most 18 digits, or -1. */
    private static long number(String s) {
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(s);
    }
}
