package dev.svc.chat.reference.files;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.http.Credentials;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * tus 1.0.0 at {@code /v1/uploads} (core, creation, expiration, checksum, termination) with the session token.
 * Every answer carries {@code Tus-Resumable}; the checks run in the contract's order: the token (401), the
 * protocol version (412), the headers (400, 413, 415), the upload (404), the offset (409).
 */
final class TusHandler {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final Credentials credentials;
    private final UploadService uploads;
    private final Duration patchIdle;

    TusHandler(Credentials credentials, UploadService uploads, Duration patchIdle) {
        this.credentials = credentials;
        this.uploads = uploads;
        this.patchIdle = patchIdle;
    }

    void options(Context ctx) {
        ctx.header("Tus-Resumable", TusHeaders.VERSION);
        Principal principal = credentials.session(ctx);
        ctx.header("Tus-Version", TusHeaders.VERSION);
        ctx.header("Tus-Extension", "creation,expiration,checksum,termination");
        ctx.header("Tus-Max-Size", Long.toString(uploads.maxFileBytes(principal.tenantId())));
        ctx.header("Tus-Checksum-Algorithm", "sha256");
        ctx.status(204);
    }

    void create(Context ctx) {
        Principal principal = tus(ctx);
        FileRecord record = uploads.create(principal, ctx.header("Upload-Length"), ctx.header("Upload-Defer-Length"),
                ctx.header("Upload-Metadata"));
        ctx.header("Location", "/v1/uploads/" + record.id());
        expires(ctx, record);
        ctx.status(201);
    }

    void head(Context ctx) {
        Principal principal = tus(ctx);
        FileRecord record = uploads.own(principal, ctx.pathParam("fileId"));
        ctx.header("Upload-Offset", Long.toString(record.offset()));
        ctx.header("Upload-Length", Long.toString(record.length()));
        ctx.header("Cache-Control", "no-store");
        expires(ctx, record);
        ctx.status(200);
    }

    void patch(Context ctx) {
        Principal principal = tus(ctx);
        if (!TusHeaders.patchType(ctx.header("Content-Type"))) {
            throw ApiException.unsupportedMediaType("A PATCH takes Content-Type: " + TusHeaders.PATCH_TYPE);
        }
        // A client that stops sending holds the upload's lock only this long; what it sent is kept. The
        // connection's own timeout comes back after the PATCH, for the requests it carries next.
        EndPoint endPoint = Request.getBaseRequest(ctx.req()).getHttpChannel().getEndPoint();
        long idle = endPoint.getIdleTimeout();
        endPoint.setIdleTimeout(patchIdle.toMillis());
        FileRecord record;
        try (InputStream body = ctx.req().getInputStream()) {
            record = uploads.patch(principal, ctx.pathParam("fileId"), ctx.header("Upload-Offset"),
                    ctx.header("Upload-Checksum"), ctx.req().getContentLengthLong(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            endPoint.setIdleTimeout(idle);
        }
        ctx.header("Upload-Offset", Long.toString(record.offset()));
        expires(ctx, record);
        ctx.status(204);
    }

    void delete(Context ctx) {
        Principal principal = tus(ctx);
        uploads.terminate(principal, ctx.pathParam("fileId"));
        ctx.status(204);
    }

    /** Sets {@code Tus-Resumable}, then checks the token and the client's {@code Tus-Resumable}. */
    private Principal tus(Context ctx) {
        ctx.header("Tus-Resumable", TusHeaders.VERSION);
        Principal principal = credentials.session(ctx);
        TusHeaders.requireResumable(ctx.header("Tus-Resumable"));
        return principal;
    }

    private static void expires(Context ctx, FileRecord record) {
        if (!record.complete()) {
            ctx.header("Upload-Expires", HTTP_DATE.format(record.expiresAt()));
        }
    }
}
