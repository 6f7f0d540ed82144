package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.cluster.Cluster;
import dev.svc.chat.reference.dev.DevAccess;
import dev.svc.chat.reference.dev.DevTools;
import dev.svc.chat.reference.files.FileComponents;
import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.gateway.GatewayConfig;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.search.IndexCatchUp;
import dev.svc.chat.reference.search.IndexQueue;
import dev.svc.chat.reference.search.LuceneIndex;
import dev.svc.chat.reference.search.PgSearchIndex;
import dev.svc.chat.reference.search.SearchIndex;
import dev.svc.chat.reference.search.SearchService;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.service.NotifyingPublisher;
import dev.svc.chat.reference.service.PayloadEncoder;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.service.PushService;
import dev.svc.chat.reference.service.SendRateLimiter;
import dev.svc.chat.reference.service.TenantSettingsCache;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.OwnerOnlyFiles;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.webhook.WebhookDispatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's composition root: its parts wired together from its options, the store (in memory, SQLite or
 * PostgreSQL), tokens, the services and where their events go (the gateway's fan-out, or on PostgreSQL the
 * cluster's bus), webhooks and the gateway, with the threads they run on. The HTTP side is {@link WebServer}.
 */
final class ServerComponents {

    /**
     * The system property of the data directory's search index's commit interval in milliseconds (default 1000);
     * tests set it long, to kill a server whose index has not committed its latest writes.
     */
    static final String SEARCH_COMMIT_PROPERTY = "svc.search.commitMillis";
    /** The system property of the Lucene index's queue of writes, in messages (default 16,384). */
    static final String SEARCH_QUEUE_PROPERTY = "svc.search.queue";

    final Database database;
    final Store store;
    final ObjectMapper mapper = Json.newMapper();
    final SessionTokens tokens;
    final ChatService service;
    final MessageActions actions;
    final CallService calls;
    final PushService push;
    final WebhookDispatcher webhooks;
    final Gateway gateway;
    final DevAccess devAccess;
    final DevTools dev;
    final SearchService search;
    final FileComponents files;
    private final SearchIndex searchIndex;
    /** The Lucene index's writes, queued for the search thread; null on PostgreSQL, which writes in the send. */
    private final IndexQueue indexQueue;
    private final Cluster cluster;
    private final ScheduledThreadPoolExecutor callTimers = daemonPool("svc-ref-call-timer", 1);
    private final ScheduledThreadPoolExecutor webhookPool = daemonPool("svc-ref-webhook", 2);
    private final ScheduledThreadPoolExecutor searchCommits = daemonPool("svc-ref-search-commit", 1);

    ServerComponents(ServerOptions options) {
        this.database = openDatabase(options);
        this.searchIndex = openSearchIndex(options, database);
        this.indexQueue = searchIndex instanceof LuceneIndex ? new IndexQueue(searchIndex,
                Integer.getInteger(SEARCH_QUEUE_PROPERTY, IndexQueue.DEFAULT_CAPACITY)) : null;
        SearchIndex writes = indexQueue != null ? indexQueue : searchIndex;
        this.store = database != null ? new JdbcStore(database, writes) : new InMemoryStore(writes);
        if (indexQueue != null) {
            indexQueue.readFrom(store);
        }
        catchUpSearch();
        this.search = new SearchService(store, writes);
        this.tokens = new SessionTokens(store, options.clock);
        FanOut fanOut = Gateway.newFanOut(mapper, options.presenceInterval);
        // On PostgreSQL, every server on the same database and schema is a node of one cluster: room events,
        // presence and typing reach every node's sockets, and who is online counts every node's connections.
        this.cluster = options.databaseUrl == null ? null : new Cluster(fanOut, mapper, store, database,
                options.databaseUrl, options.databaseUser, options.databasePassword, options.databaseSchema,
                options.busFaults);
        PresenceDirectory online = cluster != null ? cluster.presence() : fanOut;
        this.push = new PushService(store, options.clock, online);
        TenantSettingsCache settingsCache = new TenantSettingsCache(store::settings,
                TenantSettingsCache.DEFAULT_MAX_AGE);
        this.webhooks = new WebhookDispatcher(mapper, store, options.clock, settingsCache, webhookPool,
                options.webhookAttempts, options.webhookFirstRetry);
        if (cluster != null) {
            cluster.deliverWebhooks(webhooks, options.clock, options.webhookLease);
        }
        // Files in the data directory's files/ with --data-dir (SQLite keeps the rest), in PostgreSQL on a cluster.
        this.files = FileComponents.open(options.dataDir, options.databaseUrl != null ? database : null, store,
                options.clock);
        this.devAccess = DevAccess.forBind(options.host, options.devApi, options.console);
        this.dev = new DevTools(devAccess, store, mapper, options.clock, options.pingInterval, options.pingTimeout);
        webhooks.observe(dev.webhooks());
        // Room events pass the dev tools' tap: the console's live views, and the dropped fan-out fault.
        NotifyingPublisher publisher = new NotifyingPublisher(dev.tap(cluster != null ? cluster.events() : fanOut),
                push, webhooks);
        this.service = new ChatService(store, options.clock,
                new SendRateLimiter(options.clock, options.sendPerSecond, options.sendBurst), publisher, settingsCache,
                new PayloadEncoder(mapper), files.uploads());
        this.calls = new CallService(store, service, options.clock, publisher, options.callRingTimeout, callTimers);
        this.actions = new MessageActions(store, service, publisher, online);
        this.gateway = new Gateway(new GatewayConfig(options.pingInterval, options.pingTimeout,
                options.connectTimeout, GatewayConfig.DEFAULT_MAX_PAYLOAD, options.outboundQueueLimit,
                options.outboundQueueBytes, options.webSocketCompression),
                mapper, options.clock, store, tokens, fanOut, service);
        dev.watch(gateway);
    }

    /** Opens the database the options ask for: SQLite in the data directory, PostgreSQL, or none (memory). */
    private static Database openDatabase(ServerOptions options) {
        if (options.dataDir != null) {
            try {
                OwnerOnlyFiles.createDirectory(options.dataDir); // it holds every tenant's secrets
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot create the data directory " + options.dataDir + ": "
                        + e.getMessage(), e);
            }
            return Database.sqlite(options.dataDir);
        }
        if (options.databaseUrl != null) {
            return Database.postgres(options.databaseUrl, options.databaseUser, options.databasePassword,
                    options.databaseSchema);
        }
        return null;
    }

    /**
     * Returns the search index: Lucene in memory, Lucene in the data directory ({@code search-index}), or
     * PostgreSQL full-text search in the database.
     */
    private static SearchIndex openSearchIndex(ServerOptions options, Database database) {
        if (options.dataDir != null) {
            return LuceneIndex.open(options.dataDir.resolve("search-index"));
        }
        return database != null ? new PgSearchIndex(database) : LuceneIndex.inMemory();
    }

    /**
     * Brings a lasting index up to the messages (those written since its last commit before a kill, or all of
     * them for an index made anew). Lucene's writes then run on the search thread: it drains their queue every
     * {@value IndexQueue#DRAIN_MILLIS} ms, and in a data directory commits every second ({@value #SEARCH_COMMIT_PROPERTY})
     * after a drain. In memory Lucene writes a segment when its buffer is full, on that thread too (a drain's).
     */
    private void catchUpSearch() {
        if (searchIndex instanceof LuceneIndex lucene && database != null) {
            IndexCatchUp.run(database, store, lucene, lucene.indexedRevs());
            lucene.commit();
            long every = Long.getLong(SEARCH_COMMIT_PROPERTY, 1000);
            searchCommits.scheduleWithFixedDelay(() -> indexQueue.drainQuietly(lucene::commit), every, every,
                    TimeUnit.MILLISECONDS);
        } else if (searchIndex instanceof PgSearchIndex pg) {
            IndexCatchUp.run(database, store, pg, pg.indexedRevs());
        }
        if (indexQueue != null) {
            searchCommits.scheduleWithFixedDelay(indexQueue::drainQuietly, IndexQueue.DRAIN_MILLIS,
                    IndexQueue.DRAIN_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Stops every thread and closes every connection of the parts but the gateway, which the server closes
     * first, before Jetty stops: the dev channel, call timers, webhooks, the cluster, the store.
     */
    void closeAfterGateway() {
        dev.close();
        callTimers.shutdownNow();
        files.close();
        webhooks.close();
        webhookPool.shutdownNow();
        if (cluster != null) {
            cluster.close();
        }
        // Never interrupted: an interrupt closes Lucene's file channels under a running commit, its lock's too.
        searchCommits.shutdown();
        try {
            searchCommits.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (indexQueue != null) {
            indexQueue.close();
        }
        searchIndex.close();
        store.close();
    }

    private static ScheduledThreadPoolExecutor daemonPool(String name, int threads) {
        AtomicInteger count = new AtomicInteger();
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
        return pool;
    }
}
