package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.store.Store;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;

/**
 * A servlet filter ahead of every other on {@code /v1/*}: answers a request with the fault its tenant injected
 * ({@link DevFaults}) and notes every request in its tenant's {@link DevRequestLog}. The dev API's own
 * requests ({@code /v1/dev/}) are neither faulted (a fault must be clearable) nor logged (the console polls).
 * The credential is read only to learn the tenant and user; it is never kept.
 */
public final class DevFilter implements Filter {

    /** The servlet path pattern this filter must see. */
    public static final String PATHS = "/v1/*";
    private static final String DEV_PREFIX = "/v1/dev/";

    private final Store store;
    private final SessionTokens tokens;
    private final DevFaults faults;
    private final DevRequestLog log;
    private final Clock clock;

    /** Creates the filter over the tenants of {@code store}. */
    public DevFilter(Store store, SessionTokens tokens, DevFaults faults, DevRequestLog log, Clock clock) {
        this.store = store;
        this.tokens = tokens;
        this.faults = faults;
        this.log = log;
        this.clock = clock;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse res = (HttpServletResponse) response;
        String path = req.getRequestURI();
        if (path.startsWith(DEV_PREFIX)) {
            chain.doFilter(request, response);
            return;
        }
        Instant at = clock.instant();
        long started = System.nanoTime();
        Principal who = principal(req);
        if (who != null && faults.any()) {
            DevFaults.Fault fault = faults.take(who.tenantId(), path);
            if (fault != null && !hold(fault)) {
                return; // interrupted: the server is stopping
            }
            if (fault != null && fault.status() > 0) {
                answer(res, fault);
                note(who, req, at, started, fault.status(), true);
                return;
            }
        }
        try {
            chain.doFilter(request, response);
        } finally {
            if (who != null) {
                if (req.isAsyncStarted()) {
                    req.getAsyncContext().addListener(new Completion(who, req, res, at, started));
                } else {
                    note(who, req, at, started, res.getStatus(), false);
                }
            }
        }
    }

    /**
     * Holds the request for the fault's latency on its own thread (a dev tool's delay: the thread is Jetty's
     * and waits as a slow handler would). Returns false if interrupted.
     */
    private static boolean hold(DevFaults.Fault fault) {
        if (fault.latencyMs() <= 0) {
            return true;
        }
        try {
            Thread.sleep(fault.latencyMs());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Returns the tenant (and user) the request's credential names, or null. */
    private Principal principal(HttpServletRequest req) {
        String key = req.getHeader("x-api-key");
        if (key != null && key.startsWith("sk_")) {
            return store.tenantByApiKey(key).map(Principal::apiKey).orElse(null);
        }
        String header = req.getHeader("Authorization");
        if (header != null && header.length() > 7 && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return tokens.identify(header.substring(7).trim());
        }
        return null;
    }

    private void note(Principal who, HttpServletRequest req, Instant at, long started, int status, boolean fault) {
        double millis = Math.round((System.nanoTime() - started) / 1e4) / 100.0;
        log.add(who.tenantId(), new DevRequestLog.Entry(at, req.getMethod(), DevRequestLog.route(req.getRequestURI()),
                status, millis, who.userId(), fault));
    }

    private static void answer(HttpServletResponse res, DevFaults.Fault fault) throws IOException {
        String code = fault.status() == 429 ? "rate_limited" : fault.status() == 500 ? "internal" : "unavailable";
        String message = "Injected fault (dev API)";
        byte[] body = ("{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
        res.setStatus(fault.status());
        if (fault.retryAfterSeconds() > 0) {
            res.setHeader("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        res.setContentType("application/json");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /** Notes an asynchronous request once its answer is written. */
    private final class Completion implements AsyncListener {
        private final Principal who;
        private final HttpServletRequest req;
        private final HttpServletResponse res;
        private final Instant at;
        private final long started;

        Completion(Principal who, HttpServletRequest req, HttpServletResponse res, Instant at, long started) {
            this.who = who;
            this.req = req;
            this.res = res;
            this.at = at;
            this.started = started;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            note(who, req, at, started, res.getStatus(), false);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }
}
