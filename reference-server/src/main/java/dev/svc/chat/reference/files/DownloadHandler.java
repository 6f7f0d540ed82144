package dev.svc.chat.reference.files;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.http.Credentials;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /v1/files/{fileId}} (the bytes, with {@code Range}, {@code ETag} and headers that keep a browser
 * from running them) and {@code GET /v1/files/{fileId}/thumbnail?size=N}. Only the four image types are shown
 * inline; everything else is an attachment, and no answer is ever sniffed or allowed to run script.
 */
final class DownloadHandler {

    /** Forbids every fetch and script of a file opened in a browser; sandbox gives it an opaque origin. */
    static final String CSP = "default-src 'none'; sandbox";

    private final Credentials credentials;
    private final UploadService uploads;

    DownloadHandler(Credentials credentials, UploadService uploads) {
        this.credentials = credentials;
        this.uploads = uploads;
    }

    void file(Context ctx) {
        Principal principal = credentials.session(ctx);
        FileRecord record = uploads.readable(principal, ctx.pathParam("fileId"));
        String etag = "\"" + record.sha256() + "\"";
        safeHeaders(ctx);
        ctx.header("ETag", etag);
        ctx.header("Accept-Ranges", "bytes");
        ctx.header("Cache-Control", "private, no-cache");
        boolean inline = record.image() && ImageSniffer.IMAGE_TYPES.contains(record.contentType());
        ctx.header("Content-Disposition", (inline ? "inline" : "attachment") + "; filename*=UTF-8''"
                + encode(record.name()));
        if (etag.equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        String ifRange = ctx.header("If-Range");
        ByteRange range = ifRange == null || ifRange.equals(etag) ? ByteRange.parse(ctx.header("Range"), record.length())
                : null;
        long start = range == null ? 0 : range.start();
        long count = range == null ? record.length() : range.length();
        if (range != null) {
            ctx.status(206);
            ctx.header("Content-Range", "bytes " + range.start() + "-" + range.end() + "/" + record.length());
        } else {
            ctx.status(200);
        }
        ctx.contentType(record.contentType());
        ctx.res().setContentLengthLong(count);
        try (InputStream in = uploads.open(record, start)) {
            OutputStream out = ctx.res().getOutputStream();
            byte[] buffer = new byte[PatchCopy.BUFFER];
            long left = count;
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the stored file ended " + left + " bytes early");
                }
                out.write(buffer, 0, n);
                left -= n;
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void thumbnail(Context ctx) {
        Principal principal = credentials.session(ctx);
        int size = size(ctx.queryParam("size"));
        thumbnail(ctx, uploads, uploads.readable(principal, ctx.pathParam("fileId")), size);
    }

    /** Answers the thumbnail of {@code record}, which the caller may read, at {@code size}; 404 for a non-image. */
    static void thumbnail(Context ctx, UploadService uploads, FileRecord record, int size) {
        if (!record.image()) {
            throw ApiException.notFound("Thumbnails are made of images only");
        }
        Thumbnail thumbnail = uploads.thumbnail(record, size).orElseThrow(() ->
                ApiException.notFound("No thumbnail can be made of this image"));
        safeHeaders(ctx);
        ctx.header("ETag", "\"" + record.sha256() + "-" + size + "\"");
        ctx.header("Cache-Control", "private, max-age=86400");
        ctx.status(200).contentType(thumbnail.contentType()).result(thumbnail.bytes());
    }

    private static void safeHeaders(Context ctx) {
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Content-Security-Policy", CSP);
    }

    /** Returns {@code size} (64 to 1024, default 320), else 400. */
    static int size(String value) {
        if (value == null || value.isEmpty()) {
            return Thumbnails.DEFAULT;
        }
        if (value.length() > 4 || !value.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(value) < Thumbnails.MIN || Integer.parseInt(value) > Thumbnails.MAX) {
            throw ApiException.badRequest("size must be an integer from " + Thumbnails.MIN + " to " + Thumbnails.MAX);
        }
        return Integer.parseInt(value);
    }

    /** Returns RFC 8187's percent-encoding of a file name's UTF-8 bytes (attr-char kept). */
    static String encode(String name) {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$&+-.^_`|~".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }
}
