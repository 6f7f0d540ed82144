package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.contract.ApiException;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Serves the console, plain files from the jar under {@code /console/}: only names of the form
 * {@code name.ext} found in the jar's console folder, each with a strict Content-Security-Policy (scripts,
 * styles and requests to this origin only, no inline code, no framing) and no caching.
 */
public final class DevConsole {

    /** The path the console is served at. */
    public static final String PATH = "/console/";
    /** The Content-Security-Policy of every console answer. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private static final String FOLDER = "/dev/svc/chat/reference/console/";
    private static final Pattern FILE = Pattern.compile("[a-z][a-z0-9-]{0,40}\\.(html|js|css|png|svg)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "png", "image/png",
            "svg", "image/svg+xml");

    /** Files of the jar served under another name: the official socket.io client's ESM build (see the pom). */
    private static final Map<String, String> ALIASES = Map.of("socket-io.js", "socket.io.esm.min.js");

    private DevConsole() {
    }

    /** Installs the console's routes on {@code app}. */
    public static void install(Javalin app) {
        // Javalin matches /console and /console/ alike; the page's relative links need the slash.
        app.get(PATH, ctx -> {
            if (!ctx.path().endsWith("/")) {
                ctx.redirect(PATH);
            } else {
                serve(ctx, "index.html");
            }
        });
        app.get(PATH + "{file}", ctx -> serve(ctx, ctx.pathParam("file")));
    }

    private static void serve(Context ctx, String file) throws IOException {
        if (!FILE.matcher(file).matches()) {
            throw ApiException.notFound("No such file");
        }
        byte[] bytes;
        try (InputStream in = DevConsole.class.getResourceAsStream(FOLDER + ALIASES.getOrDefault(file, file))) {
            if (in == null) {
                throw ApiException.notFound("No such file");
            }
            bytes = in.readAllBytes();
        }
        String ext = file.substring(file.lastIndexOf('.') + 1);
        ctx.header("Content-Security-Policy", CSP)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-store")
                .contentType(TYPES.get(ext))
                .result(bytes);
    }
}
