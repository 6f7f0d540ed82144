package dev.svc.chat.reference.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One INFO line per HTTP request and per socket session's open and close, on the logger
 * {@value #LOGGER_NAME}. A line holds the method, the path (never the query string), the status and the
 * time taken, or the socket's session id and close status: never a header, a body or a query, which is where
 * API keys and tokens travel.
 */
public final class AccessLog {
    /** The logger's name; set it to WARN to silence the access log. */
    public static final String LOGGER_NAME = "dev.svc.chat.reference.access";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

    private AccessLog() {}

    /** Logs every request and socket session of the app being configured. */
    public static void install(JavalinConfig config) {
        config.requestLogger.http(AccessLog::request);
        config.requestLogger.ws(AccessLog::sockets);
    }

    static void request(Context ctx, Float millis) {
        request(ctx.method().name(), ctx.path(), ctx.statusCode(), millis);
    }

    /** Logs one request's line: {@code path} without its query string (Javalin's {@code ctx.path()} too). */
    static void request(String method, String path, int status, float millis) {
        if (LOG.isInfoEnabled()) {
            LOG.info("{} {} {} {} ms", method, path, status, Math.round(millis));
        }
    }

    private static void sockets(WsConfig ws) {
        ws.onConnect(ctx -> LOG.info("socket {} open {}", ctx.sessionId(), path(ctx)));
        ws.onClose(ctx -> LOG.info("socket {} closed {} {}", ctx.sessionId(), ctx.status(),
                ctx.reason() == null ? "" : ctx.reason()));
    }

    private static String path(WsContext ctx) {
        return ctx.session.getUpgradeRequest().getRequestURI().getPath();
    }
}
