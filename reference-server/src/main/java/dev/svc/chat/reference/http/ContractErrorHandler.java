package dev.svc.chat.reference.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own error answers in the contract's body, for what fails before a route runs: headers over
 * {@value #MAX_HEADER_BYTES} bytes (431), a request line or URI Jetty cannot parse (400), and any error
 * page Jetty would otherwise write as HTML.
 */
public final class ContractErrorHandler extends ErrorHandler {

    /** The most bytes of request line and headers together (Jetty's default, kept). */
    public static final int MAX_HEADER_BYTES = 8192;

    /** Creates the handler. */
    public ContractErrorHandler() {
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
        return ByteBuffer.wrap(body(status, message(status)));
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        int status = response.getStatus();
        byte[] body = body(status, message(status));
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        baseRequest.setHandled(true);
    }

    private static String message(int status) {
        return switch (status) {
            case 431 -> "Request headers over " + MAX_HEADER_BYTES + " bytes";
            case 414 -> "Request URI too long";
            case 413 -> "Body too large";
            case 404 -> "No such route";
            case 400 -> "Bad request";
            default -> status >= 500 ? "Internal server error" : "Bad request";
        };
    }

    private static byte[] body(int status, String message) {
        String code = switch (status) {
            case 404 -> "not_found";
            case 413 -> "payload_too_large";
            default -> status >= 500 ? "internal" : "bad_request";
        };
        return ("{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
