package dev.svc.chat.reference.search;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The opaque cursor of a search page: the place of the page's last result, bound to the search it came from
 * (a hash of the user, the parsed query and its filters) and signed with the tenant's secret, so that a cursor
 * of another search, another user or another tenant, or one changed by hand, is refused. Every server of a
 * cluster shares the tenant's secret and reads every other one's cursors.
 */
final class SearchCursor {

    private static final byte VERSION = 1;
    private static final int HASH = 8;
    private static final int MAC = 16;

    private SearchCursor() {
    }

    /** A cursor that is not one this search gave. */
    static final class Refused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Refused() {
            super("cursor is not one this search gave");
        }
    }

    /** Returns the cursor continuing after {@code last} in the search described by {@code search}. */
    static String encode(byte[] secret, String search, SearchIndex.Position last) {
        byte[] room = last.roomId().getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(1 + 8 + 8 + 2 + room.length + HASH);
        body.put(VERSION).putLong(last.createdAtMillis()).putLong(last.seq()).putShort((short) room.length).put(room)
                .put(hash(search));
        byte[] signed = Arrays.copyOf(body.array(), body.capacity() + MAC);
        System.arraycopy(mac(secret, body.array()), 0, signed, body.capacity(), MAC);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
    }

    /** Returns the place a cursor of this search continues after; throws {@link Refused} for any other. */
    static SearchIndex.Position decode(byte[] secret, String search, String cursor) {
        byte[] signed;
        try {
            signed = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw new Refused();
        }
        if (signed.length < 1 + 8 + 8 + 2 + HASH + MAC) {
            throw new Refused();
        }
        byte[] body = Arrays.copyOf(signed, signed.length - MAC);
        byte[] mac = Arrays.copyOfRange(signed, body.length, signed.length);
        if (!MessageDigest.isEqual(mac, Arrays.copyOf(mac(secret, body), MAC))) {
            throw new Refused();
        }
        ByteBuffer in = ByteBuffer.wrap(body);
        if (in.get() != VERSION) {
            throw new Refused();
        }
        long millis = in.getLong();
        long seq = in.getLong();
        int roomLength = in.getShort();
        if (roomLength < 0 || roomLength != in.remaining() - HASH) {
            throw new Refused();
        }
        byte[] room = new byte[roomLength];
        in.get(room);
        byte[] hash = new byte[HASH];
        in.get(hash);
        if (!MessageDigest.isEqual(hash, hash(search))) {
            throw new Refused();
        }
        return new SearchIndex.Position(millis, seq, new String(room, StandardCharsets.UTF_8));
    }

    private static byte[] hash(String search) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(search.getBytes(StandardCharsets.UTF_8)),
                    HASH);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] mac(byte[] secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // The tenant's token secret, under a label of its own so that a MAC here is never a token's.
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update("svc-search-cursor\u0000".getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
