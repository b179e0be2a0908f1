package dev.moviegraph;

import dev.moviegraph.catalog.ChangeFeed;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.admin.BulkLoader;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.DynamoCatalog;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.streams.StreamAggregator;
import dev.moviegraph.dynamo.streams.StreamChangeFeed;
import dev.moviegraph.dynamo.write.DynamoCatalogWriter;
import dev.moviegraph.dynamo.write.DynamoPersistedQueries;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.budget.ClientBudgets;
import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.caching.CacheSettings;
import dev.moviegraph.graphql.live.LiveQueries;
import dev.moviegraph.graphql.persisted.AutomaticPersistedQueries;
import dev.moviegraph.graphql.persisted.PersistedDocuments;
import dev.moviegraph.graphql.persisted.TrustedDocuments;
import dev.moviegraph.http.GraphQLHandler;
import dev.moviegraph.http.GraphQLWebSocket;
import dev.moviegraph.http.HealthHandler;
import dev.moviegraph.http.HttpServer;
import dev.moviegraph.http.WarmUp;
import dev.moviegraph.auth.Credentials;
import dev.moviegraph.auth.OidcSettings;
import dev.moviegraph.auth.TokenVerifier;
import dev.moviegraph.graphql.auth.AuthRules;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleLoader;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.telemetry.Telemetry;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The whole server, assembled in one place from its configuration: DynamoDB (embedded or not), the
 * table, the GraphQL service and the HTTP routes. No static state: several can run in one JVM.
 */
public final class Moviegraph implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Moviegraph.class);

    private final EmbeddedDynamo embedded;
    private final DynamoDbAsyncClient client;
    private final HttpServer http;
    private final ExecutorService writes;
    private final StreamAggregator aggregator;
    private final DynamoDbStreamsAsyncClient streams;
    private final Duration grace;
    private final GraphQLService graphql;
    private final Live live;
    private final Telemetry telemetry;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);

    private Moviegraph(EmbeddedDynamo embedded, DynamoDbAsyncClient client, HttpServer http, ExecutorService writes,
                       StreamAggregator aggregator, DynamoDbStreamsAsyncClient streams, Duration grace,
                       GraphQLService graphql, Live live, Telemetry telemetry) {
        this.embedded = embedded;
        this.client = client;
        this.http = http;
        this.writes = writes;
        this.aggregator = aggregator;
        this.streams = streams;
        this.grace = grace;
        this.graphql = graphql;
        this.live = live;
        this.telemetry = telemetry;
    }

    /** Subscriptions: the WebSocket transport, the live queries, the change feed and the transport's timers. */
    private record Live(GraphQLWebSocket socket, LiveQueries queries, ChangeFeed feed, ScheduledExecutorService timers) {
        void close() {
            socket.closeAll();
            queries.close();
            feed.close();
            timers.shutdownNow();
        }
    }

    /** Writes wait on DynamoDB (read, then a conditional transaction) on threads of their own. */
    private static final int WRITE_THREADS = 32;

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Starts the server; {@code interceptors} observe every DynamoDB call (tests count them). */
    public static Moviegraph start(AppConfig config, List<ExecutionInterceptor> interceptors) {
        long started = System.nanoTime();
        // Before anything starts: a bad manifest is a configuration problem, reported on one line.
        TrustedDocuments trusted = trustedDocuments(config.persistedQueries().trustedDocuments());
        // The schema needs nothing the store holds: built on another core while the engine and the client start.
        CompletableFuture<GraphQLService.PreparedSchema> schema = CompletableFuture.supplyAsync(
                () -> GraphQLService.prepareSchema(TableModel.accessPatterns()),
                runnable -> daemonThreads("moviegraph-start-").newThread(runnable).start());
        CompletableFuture<EmbeddedDynamo> engine = null;
        URI endpoint = null;
        DynamoDbAsyncClient client;
        if (config.endpoint() instanceof AppConfig.Endpoint.Embedded) {
            // The table and the sample come next, as for any endpoint (prepareTable).
            // The sample table starts from the build's copy of it (prepareTable then finds it loaded).
            boolean sample = config.loadSample() && config.createTable()
                    && EmbeddedDynamo.SAMPLE_TABLE.equals(config.tableName());
            // The engine opens its data on another core while this one builds the client (a second of the
            // SDK's classes): its calls wait for the engine's endpoint.
            engine = CompletableFuture.supplyAsync(() -> config.dataDir() == null ? EmbeddedDynamo.ephemeral(sample)
                    : EmbeddedDynamo.persistent(config.dataDir(), sample),
                    runnable -> daemonThreads("moviegraph-start-engine-").newThread(runnable).start());
            try {
                client = DynamoClients.createForStarting(engine.thenApply(EmbeddedDynamo::endpoint), interceptors);
            } catch (RuntimeException e) {
                engine.thenAccept(EmbeddedDynamo::close);
                throw e;
            }
        } else {
            if (config.endpoint() instanceof AppConfig.Endpoint.Url url) {
                endpoint = url.uri();
            }
            client = DynamoClients.create(endpoint, interceptors);
        }
        EmbeddedDynamo embedded = null;
        ExecutorService writes = null;
        Telemetry telemetry = Telemetry.OFF;
        StreamAggregator aggregator = null;
        DynamoDbStreamsAsyncClient streams = null;
        Live live = null;
        try {
            if (engine != null) {
                embedded = joined(engine);
                endpoint = embedded.endpoint();
                LOG.info("Engine started in-process at {} ({})", endpoint, config.dataDir() == null
                        ? "data discarded at exit" : "data kept in " + config.dataDir());
            }
            prepareTable(config, client);
            ItemWeights weights = new ItemWeights(client, config.tableName()).load();
            DynamoCatalog catalog = new DynamoCatalog(client, config.tableName(), new CursorCodec(config.cursorSecret()),
                    weights);
            GatewayMetrics metrics = new GatewayMetrics();
            writes = Executors.newFixedThreadPool(WRITE_THREADS, daemonThreads("moviegraph-write-"));
            DynamoCatalogWriter writer = new DynamoCatalogWriter(client, config.tableName(), config.totals(), writes,
                    weights);
            AppConfig.Limits limits = config.limits();
            QueryLimits queryLimits = new QueryLimits(limits.maxDepth(), limits.maxAliases(), limits.maxTokens(),
                    limits.maxChars(), limits.introspection(), limits.maxResultNodes(), limits.maxReadUnits(),
                    Duration.ofMillis(limits.timeoutMillis()), limits.maxDeferred());
            telemetry = Telemetry.fromEnvironment(config.telemetry(), "moviegraph", config.tableName());
            GraphQLService graphql = GraphQLService.builder(catalog, metrics).schema(joined(schema))
                    .writer(writer).batching(config.batching())
                    .limits(queryLimits).cache(new CacheSettings(config.caching().currentMonthSeconds(),
                            config.caching().finishedMonthSeconds(), config.caching().maxAgeSeconds()))
                    .telemetry(telemetry)
                    .access(new AuthRules.AccessPolicy(config.writeToken() != null, config.signIn() != null)).build();
            PersistedDocuments documents = persistedDocuments(config, trusted, client, graphql, queryLimits, metrics);
            if (config.totals() == TotalsMode.STREAM && config.aggregator()) {
                String arn = new TableAdmin(client, config.tableName()).ensureStream(config.createTable());
                streams = DynamoClients.createStreams(endpoint);
                aggregator = new StreamAggregator(client, streams, config.tableName(), arn, metrics).start();
            }
            ObjectMapper json = new ObjectMapper();
            // Warm-up queries come from this server itself: never counted against a client.
            AtomicBoolean warmingUp = new AtomicBoolean(config.warmUpSeconds() > 0 && trusted == null);
            ClientBudgets budgets = new ClientBudgets(config.clientRate().readUnitsPerSecond(), () -> !warmingUp.get(),
                    Ticker.systemTicker(), metrics);
            String addressHeader = config.clientRate().addressHeader();
            Credentials credentials = credentials(config);
            if (config.subscriptions().enabled()) {
                ChangeFeed feed = ChangeFeed.NONE;
                try {
                    if (config.subscriptions().readStream()) {
                        String arn = new TableAdmin(client, config.tableName()).ensureStream(config.createTable());
                        if (streams == null) {
                            streams = DynamoClients.createStreams(endpoint);
                        }
                        feed = StreamChangeFeed.readingTheStream(client, streams, config.tableName(), arn, Clock.systemUTC());
                    } else {
                        feed = StreamChangeFeed.publishedElsewhere(client, config.tableName(), Clock.systemUTC());
                    }
                } catch (IllegalStateException e) {
                    LOG.warn("Subscriptions answer once and never update: {}", e.getMessage()
                            .replace("TOTALS=stream needs", "they need"));
                }
                LiveQueries queries = new LiveQueries(graphql, feed);
                ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(daemonThreads("moviegraph-ws-"));
                AppConfig.Subscriptions ws = config.subscriptions();
                live = new Live(new GraphQLWebSocket(queries, graphql, documents, json, credentials, new GraphQLWebSocket.Limits(
                        ws.maxConnections(), ws.maxPerConnection(), Duration.ofMillis(ws.initTimeoutMillis())), timers,
                        budgets, addressHeader),
                        queries, feed, timers);
                metrics.gauge("graphql.subscriptions", "Subscriptions open on this server", queries::activeSubscriptions);
                metrics.gauge("graphql.websocket.connections", "WebSockets open on this server",
                        live.socket()::connections);
            }
            if (!config.batching()) {
                LOG.warn("BATCHING=off: every DataLoader key is its own request (for comparison only)");
            }
            Duration grace = Duration.ofSeconds(config.shutdownGraceSeconds());
            // Trusted documents run only their manifest's documents, which the warm-up's are not.
            boolean warm = warmingUp.get();
            if (config.warmUpSeconds() > 0 && !warm) {
                LOG.info("WARMUP_SECONDS is not used with TRUSTED_DOCUMENTS: the warm-up's queries are not in the manifest");
            }
            // GraphQL over server-sent events runs its operations as the WebSocket does; without subscriptions,
            // queries only, through live queries that never hear of a change.
            LiveQueries eventStreamQueries = live != null ? live.queries() : new LiveQueries(graphql, ChangeFeed.NONE);
            GraphQLHandler graphqlHandler = new GraphQLHandler(graphql, documents, json, credentials,
                    limits.maxBodyBytes(), limits.maxBatchOperations(), !limits.corsOrigins().isEmpty(), budgets, addressHeader,
                    eventStreamQueries, live != null, config.subscriptions().maxConnections());
            metrics.gauge("graphql.sse.subscriptions", "Subscriptions open over server-sent events on this server",
                    graphqlHandler.events()::subscriptions);
            HttpServer http = new HttpServer(graphqlHandler,
                    live == null ? null : live.socket(), new HealthHandler(catalog, warmingUp::get), metrics,
                    limits.maxBodyBytes(), limits.corsOrigins(), grace)
                    .start(config.port());
            if (warm) {
                long warming = System.nanoTime();
                int clients = Math.max(2, Math.min(16, 2 * Runtime.getRuntime().availableProcessors()));
                long answered = new WarmUp(http.port(), json).run(Duration.ofSeconds(config.warmUpSeconds()), clients);
                warmingUp.set(false);
                LOG.info("Warmed up with {} queries in {} ms (WARMUP_SECONDS={})", answered,
                        (System.nanoTime() - warming) / 1_000_000, config.warmUpSeconds());
            }
            LOG.info("moviegraph ready in {} ms: GraphiQL at http://localhost:{}/graphiql, GraphQL at /graphql",
                    (System.nanoTime() - started) / 1_000_000, http.port());
            return new Moviegraph(embedded, client, http, writes, aggregator, streams, grace, graphql, live, telemetry);
        } catch (RuntimeException e) {
            telemetry.close();
            if (live != null) {
                live.close();
            }
            if (aggregator != null) {
                aggregator.close();
            }
            if (streams != null) {
                streams.close();
            }
            if (writes != null) {
                writes.shutdownNow();
            }
            client.close();
            if (embedded != null) {
                embedded.close();
            }
            throw e;
        }
    }

    /** The manifest of TRUSTED_DOCUMENTS, or null when it is unset. */
    private static TrustedDocuments trustedDocuments(Path manifest) {
        if (manifest == null) {
            return null;
        }
        try {
            TrustedDocuments list = TrustedDocuments.load(manifest);
            LOG.info("TRUSTED_DOCUMENTS: only the {} documents of {} run", list.size(), manifest);
            return list;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("TRUSTED_DOCUMENTS=" + manifest + ": " + e.getMessage());
        }
    }

    /** Trusted documents when there is a list, else automatic persisted queries in the table unless APQ=off. */
    /**
     * Who may do what: the WRITE_TOKEN, and, with OIDC_ISSUER, the provider's tokens. The provider's keys are
     * fetched in the background at start (a provider that is down does not stop the server; a signed-in
     * request then gets a clear 503 until it answers). Without either, the embedded engine is a sandbox.
     */
    private static Credentials credentials(AppConfig config) {
        AppConfig.SignIn signIn = config.signIn();
        TokenVerifier verifier = null;
        if (signIn != null) {
            verifier = new TokenVerifier(new OidcSettings(signIn.issuer(), signIn.audience(), signIn.rolesClaim(),
                    Duration.ofSeconds(signIn.clockSkewSeconds()), OidcSettings.DEFAULT_TIMEOUT));
            Thread warmUp = new Thread(verifier::warmUp, "moviegraph-oidc-keys");
            warmUp.setDaemon(true);
            warmUp.start();
        }
        return new Credentials(config.writeToken(), verifier,
                config.embedded() && config.writeToken() == null && signIn == null);
    }

    private static PersistedDocuments persistedDocuments(AppConfig config, TrustedDocuments trusted,
                                                         DynamoDbAsyncClient client, GraphQLService graphql,
                                                         QueryLimits limits, GatewayMetrics metrics) {
        if (trusted != null) {
            return PersistedDocuments.trusted(trusted, limits, metrics);
        }
        AppConfig.PersistedQueries settings = config.persistedQueries();
        if (!settings.automatic()) {
            return PersistedDocuments.off(metrics);
        }
        Clock clock = Clock.systemUTC();
        return PersistedDocuments.automatic(new AutomaticPersistedQueries(
                new DynamoPersistedQueries(client, config.tableName(), clock), graphql::validates,
                new AutomaticPersistedQueries.Settings(settings.maxDocumentBytes(), settings.registrationsPerMinute(),
                        Duration.ofSeconds(settings.ttlSeconds())), metrics, clock), metrics);
    }

    /** The value of a start-up step run on another thread; its failure as it was thrown there. */
    private static <T> T joined(CompletableFuture<T> step) {
        try {
            return step.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static void prepareTable(AppConfig config, DynamoDbAsyncClient client) {
        TableAdmin admin = new TableAdmin(client, config.tableName());
        // A table created for the sample gets its stream once the sample is in: the load's inserts would only
        // be records for the stream's readers to skip.
        boolean loadFirst = config.createTable() && config.loadSample();
        if (config.createTable()) {
            if (loadFirst ? admin.ensureTableForLoad() : admin.ensureTable()) {
                LOG.info("Created table {} with its indexes", config.tableName());
            }
        } else if (!admin.exists()) {
            throw new IllegalStateException("Table " + config.tableName()
                    + " does not exist; create it or set CREATE_TABLE=true");
        }
        admin.requireLayout();
        if (config.createTable()) {
            // Expired persisted queries are ignored when read; with time to live DynamoDB also deletes them.
            if (admin.ensureTimeToLive() == TableAdmin.TimeToLive.OTHER_ATTRIBUTE) {
                LOG.warn("Table {} has time to live on another attribute; expired persisted queries stay in it"
                        + " (they are never served)", config.tableName());
            }
        }
        if (config.loadSample()) {
            new SampleLoader(new BulkLoader(client, config.tableName())).loadIfMissing();
        }
        if (loadFirst) {
            admin.startStreamAfterLoad();
        }
    }

    public int port() {
        return http.port();
    }

    /**
     * Shuts down in order, each step logged with its time: HTTP stops accepting (new requests, /health
     * included, are refused) and lets the requests in flight finish within the grace, then the timer of
     * the queries' time limits, the write threads, the stream aggregator, the DynamoDB client and last
     * the embedded engine stop.
     * Runs once; a second call waits for the first to finish. Throws when a step failed, after trying
     * every other step.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            awaitClosed();
            return;
        }
        try {
            shutdown();
        } finally {
            closed.countDown();
        }
    }

    private void awaitClosed() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutdown() {
        long begun = System.nanoTime();
        long deadline = begun + grace.toNanos();
        LOG.info("Shutting down: no new requests, up to {} s for those in flight", grace.toSeconds());
        List<RuntimeException> failures = new ArrayList<>();
        if (live != null) {
            // Subscribers first: a clean close code (1001) lets their clients reconnect elsewhere at once.
            step("subscriptions", live::close, failures);
        }
        step("event streams", http::endStreams, failures);
        step("HTTP", http::stop, failures);
        step("query time limits", graphql::close, failures);
        step("write threads", () -> stopWrites(deadline), failures);
        step("traces", telemetry::close, failures);
        if (aggregator != null) {
            step("stream aggregator", aggregator::close, failures);
        }
        if (streams != null) {
            step("stream client", streams::close, failures);
        }
        step("DynamoDB client", client::close, failures);
        if (embedded != null) {
            step("engine", embedded::close, failures);
        }
        LOG.info("Shut down in {} ms", (System.nanoTime() - begun) / 1_000_000);
        if (!failures.isEmpty()) {
            IllegalStateException failed = new IllegalStateException(failures.size() + " shutdown step(s) failed");
            failures.forEach(failed::addSuppressed);
            throw failed;
        }
    }

    private static void step(String what, Runnable stop, List<RuntimeException> failures) {
        long started = System.nanoTime();
        try {
            stop.run();
            LOG.info("Shutdown: {} stopped in {} ms", what, (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.error("Shutdown: {} did not stop cleanly", what, e);
            failures.add(e);
        }
    }

    /** Writes belong to requests, so none should be left after the HTTP drain; any left get the rest of the grace. */
    private void stopWrites(long deadline) {
        writes.shutdown();
        try {
            long wait = Math.max(deadline - System.nanoTime(), TimeUnit.SECONDS.toNanos(1));
            if (!writes.awaitTermination(wait, TimeUnit.NANOSECONDS)) {
                LOG.warn("Shutdown: writes still running were interrupted, {} queued never started",
                        writes.shutdownNow().size());
            }
        } catch (InterruptedException e) {
            writes.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
