package dev.svc.chat.reference;

import dev.svc.chat.reference.dev.DevApi;
import dev.svc.chat.reference.dev.DevConsole;
import dev.svc.chat.reference.dev.DevFiles;
import dev.svc.chat.reference.dev.DevFilter;
import dev.svc.chat.reference.http.AccessLog;
import dev.svc.chat.reference.http.ContractErrorHandler;
import dev.svc.chat.reference.http.Credentials;
import dev.svc.chat.reference.http.HttpSettings;
import dev.svc.chat.reference.http.Routes;
import io.javalin.Javalin;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP side of a server: Javalin on Jetty with the REST routes ({@link Routes}) and the Socket.IO gateway
 * installed, Jetty's own refusals in the contract's error body, and a thread pool whose idle threads go.
 */
final class WebServer {

    private WebServer() {
    }

    /** Starts Javalin on the options' host and port with the routes and gateway of {@code parts}. */
    static Javalin start(ServerOptions options, ServerComponents parts) {
        // Sends are answered by a filter ahead of Javalin (SendRoute); its filter is set before the server starts.
        FilterHolder sendRoute = new FilterHolder();
        sendRoute.setAsyncSupported(true);
        Javalin javalin = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.startupWatcherEnabled = false;
            AccessLog.install(config);
            config.jetty.modifyWebSocketServletFactory(parts.gateway::configure);
            config.jetty.threadPool = jettyThreads();
            config.jetty.modifyHttpConfiguration(HttpSettings::apply); // no header cache (see there)
            // What Jetty refuses before a route runs (a header flood, a bad request line) in the contract's body.
            config.jetty.modifyServer(server -> server.setErrorHandler(new ContractErrorHandler()));
            // No gzip of answers: the contract asks none, the SDK's clients take either, and copying every answer
            // through the compression stream cost a seventh of a send's samples; SendRoute writes plain bytes too.
            config.http.disableCompression();
            config.jetty.modifyServletContextHandler(context -> {
                // Ahead of the send route, so that a fault or the request log sees sends too (dev API on only).
                if (parts.devAccess.devApi()) {
                    context.addFilter(new FilterHolder(new DevFilter(parts.store, parts.tokens, parts.dev.faults(),
                            parts.dev.requestLog(), options.clock)), DevFilter.PATHS, EnumSet.of(DispatcherType.REQUEST));
                }
                context.addFilter(sendRoute, Routes.SEND_ROUTE_PATHS, EnumSet.of(DispatcherType.REQUEST));
            });
        });
        sendRoute.setFilter(Routes.install(javalin, parts.mapper, parts.store, parts.tokens, parts.service,
                parts.actions, parts.calls, parts.push, parts.search));
        parts.files.install(javalin, new Credentials(parts.store, parts.tokens));
        new DevApi(parts.devAccess, parts.store, parts.mapper, parts.tokens, parts.service, parts.actions,
                parts.gateway, parts.dev, parts.webhooks, options.clock).install(javalin);
        new DevFiles(parts.devAccess, parts.store, parts.files).install(javalin);
        parts.dev.channel().install(javalin);
        if (parts.devAccess.console()) {
            DevConsole.install(javalin);
        }
        parts.gateway.install(javalin);
        javalin.start(options.host, options.port);
        return javalin;
    }

    /**
     * Javalin's pool (250 threads at most, named as Javalin names it), except that idle threads go after
     * 10 s, all of them at once: Jetty's default retires one idle thread a minute, so the 250 threads a
     * connection flood starts stayed for hours.
     */
    private static QueuedThreadPool jettyThreads() {
        QueuedThreadPool pool = new QueuedThreadPool(250, 8, 10_000);
        pool.setName("JettyServerThreadPool");
        pool.setMaxEvictCount(250);
        return pool;
    }

    /** Returns the TCP connections Jetty holds open, HTTP and WebSocket alike. */
    static int openEndpoints(Javalin running) {
        int n = 0;
        for (Connector connector : running.jettyServer().server().getConnectors()) {
            n += connector.getConnectedEndPoints().size();
        }
        return n;
    }
}
