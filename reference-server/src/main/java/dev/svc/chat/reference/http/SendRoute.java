package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.contract.ApiException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/chat/rooms/{roomId}/messages}, the hottest route, answered as a servlet filter in front of
 * Javalin: Javalin's request pipeline (its route lookup, a regular expression per route twice a request, its
 * task lists, its result stream) cost about as much CPU as the send itself. Every other request, and any form
 * of this path the filter does not take exactly ({@link #roomOf}), goes on to Javalin, whose route for it
 * ({@link MessageHandler#send}) stays and must answer the same bytes.
 *
 * <p>What Javalin did around the handler is done here the same way: the credential, body and send go through
 * the same code ({@link Credentials}, {@link JsonBody}, {@link MessageHandler#accept}); an {@link ApiException}
 * is the contract's error body with its {@code Retry-After} as {@link ErrorMapping} writes it; anything else a
 * 500 {@code internal} logged with its trace; the access log gets its line ({@link AccessLog}). The answer goes
 * as soon as the message is stored and handed to the fan-out, whatever its readers do.
 */
final class SendRoute implements Filter {

    // ErrorMapping's logger: an operator's setting for where internal errors go holds for this route too.
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapping.class);
    private static final String PREFIX = "/v1/chat/rooms/";
    private static final String SUFFIX = "/messages";

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final MessageHandler messages;

    SendRoute(Credentials credentials, ObjectMapper mapper, Responses responses, MessageHandler messages) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.messages = messages;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String roomId = roomOf(req);
        if (roomId == null) {
            chain.doFilter(request, response);
            return;
        }
        long started = System.nanoTime();
        HttpServletResponse res = (HttpServletResponse) response;
        MessageHandler.Sent sent;
        try {
            sent = messages.accept(credentials.session(req.getHeader("Authorization"), req.getHeader("x-api-key")),
                    JsonBody.read(req, mapper), roomId);
        } catch (ApiException e) {
            if (e.retryAfterSeconds() > 0) {
                res.setHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
            if (e.status() == 413) {
                res.setHeader("Connection", "close");
            }
            finish(req, res, started, e.status(), responses.errorJson(e.code(), e.getMessage()));
            return;
        } catch (RuntimeException e) {
            finish(req, res, started, 500, internal(req, e));
            return;
        }
        finish(req, res, started, sent.status(), sent.json());
    }

    /**
     * Returns the room of a request this route takes: a POST whose path is exactly the route's, with a room id
     * of one segment that needs no decoding (a UUID does not); else null, and Javalin handles the request.
     */
    static String roomOf(HttpServletRequest req) {
        if (!"POST".equals(req.getMethod())) {
            return null;
        }
        String path = req.getRequestURI();
        int end = path.length() - SUFFIX.length();
        if (end <= PREFIX.length() || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return null;
        }
        for (int i = PREFIX.length(); i < end; i++) {
            char c = path.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '-' || c == '_')) {
                return null;
            }
        }
        return path.substring(PREFIX.length(), end);
    }

    private byte[] internal(HttpServletRequest req, Throwable e) {
        LOG.error("internal error on {} {}", req.getMethod(), req.getRequestURI(), e);
        return responses.errorJson("internal", "Internal server error");
    }

    /** Writes the answer as Javalin writes a byte result, then the access log's line. */
    private static void finish(HttpServletRequest req, HttpServletResponse res, long started, int status,
                               byte[] json) throws IOException {
        try {
            res.setStatus(status);
            res.setContentType("application/json");
            res.setContentLength(json.length);
            res.getOutputStream().write(json);
        } finally {
            AccessLog.request(req.getMethod(), req.getRequestURI(), status, (System.nanoTime() - started) / 1e6f);
        }
    }
}
