package dev.svc.chat.reference.http;

import dev.svc.chat.reference.contract.ApiException;
import io.javalin.Javalin;
import io.javalin.http.HttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become the contract's error body. Javalin's own responses (no route, wrong
 * method) are mapped too, and anything unexpected is a 500 {@code internal} without a stack trace.
 */
final class ErrorMapping {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapping.class);

    /** The paths under which HEAD is a route: tus's upload offsets. */
    private static final String UPLOADS_PREFIX = "/v1/uploads/";

    private ErrorMapping() {
    }

    /** Registers the exception handlers on {@code app}. */
    static void install(Javalin app, Responses responses) {
        // Javalin answers HEAD for every GET route by itself (200, before any credential check); the contract
        // knows no HEAD but tus's (an upload's offset, section 9), and an unknown method is 404.
        app.before(ctx -> {
            if (ctx.method() == io.javalin.http.HandlerType.HEAD && !ctx.path().startsWith(UPLOADS_PREFIX)) {
                throw ApiException.notFound("No such route");
            }
        });
        app.exception(ApiException.class, (e, ctx) -> {
            if (e.retryAfterSeconds() > 0) {
                ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
            if (e.status() == 413) {
                closeAfterRefusedBody(ctx);
            }
            responses.error(ctx, e.status(), e.code(), e.getMessage());
        });
        app.exception(HttpResponseException.class, (e, ctx) -> {
            switch (e.getStatus()) {
                case 404, 405 -> responses.error(ctx, 404, "not_found", "No such route");
                case 413 -> {
                    closeAfterRefusedBody(ctx);
                    responses.error(ctx, 413, "payload_too_large", "Body too large");
                }
                case 400 -> responses.error(ctx, 400, "bad_request", "Bad request");
                default -> internal(responses, ctx, e);
            }
        });
        app.exception(Exception.class, (e, ctx) -> internal(responses, ctx, e));
    }

    /**
     * Closes the connection after a body refused as too large: the rest of it was never read, and whether Jetty
     * could still drain it before the answer (and so keep the connection) depended on how much had arrived by
     * then, so the same request was answered with or without {@code Connection: close} (SendRouteTest saw both
     * under load). The send route ahead of Javalin does the same ({@code SendRoute}).
     */
    static void closeAfterRefusedBody(io.javalin.http.Context ctx) {
        ctx.header("Connection", "close");
    }

    private static void internal(Responses responses, io.javalin.http.Context ctx, Exception e) {
        // Logged here with its trace for the operator; the client only ever sees the generic body.
        LOG.error("internal error on {} {}", ctx.method(), ctx.path(), e);
        responses.error(ctx, 500, "internal", "Internal server error");
    }
}
