package dev.moviegraph.graphql;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.graphql.auth.AuthRules;
import dev.moviegraph.graphql.budget.PlanningCatalog;
import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.caching.CacheSettings;
import dev.moviegraph.graphql.caching.CachedDocuments;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorHandler;
import dev.moviegraph.graphql.wiring.GatewaySchema;
import dev.moviegraph.graphql.wiring.LiveInterest;
import dev.moviegraph.graphql.wiring.Loaders;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.telemetry.Telemetry;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.GraphQL;
import graphql.ParseAndValidate;
import graphql.ParseAndValidateResult;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.language.Document;
import graphql.language.OperationDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;

/**
 * The execution of requests over the {@link GatewaySchema}, schema and engines built once. A request (or
 * a batch of operations sent together) passes a chain of single-purpose steps ({@link RequestStep}):
 * {@link SubscriptionRefusal} (a subscription over HTTP), {@link PlanOnly} ({@code Moviegraph-Trace: plan}:
 * the plan, never data), {@link ReadBudgetCheck} (estimated over {@link PlanningCatalog}, which calls
 * nothing, and refused over the read budget), and {@link Execution} (a fresh DataLoader registry per
 * operation, the time limit, the receipt in {@code extensions.cost}). Every error it answers has a code
 * ({@link ErrorCodes}); every answer says how long HTTP caches may keep it ({@link CacheControl}).
 * Transport is the http layer's.
 */
public final class GraphQLService implements AutoCloseable {
    /** Total characters of the cached documents' query text: a bound on the cache's memory. */
    static final long DOCUMENT_CACHE_CHARS = 4_000_000;

    private final GraphQL graphQL;
    private final QueryLimits limits;
    private final Cache<String, PreparsedDocumentEntry> documents;
    private final CachedDocuments cachedDocuments;
    private final GatewaySchema schema;
    /** Subscriptions, read as queries of the live schema (see {@link GatewaySchema#liveSchema}); null without one. */
    private final GraphQL live;
    private final KnownEstimates knownEstimates = new KnownEstimates();
    private final Telemetry telemetry;
    /** What answering a request takes, in order: each step answers or hands on (see {@link RequestStep}). */
    private final List<RequestStep> steps;
    /** Fires each query's time limit; one daemon thread, cancelled timers are removed at once. */
    private final ScheduledThreadPoolExecutor deadlines;

    /** The shipped schema, built and checked against a store's access patterns before the store is up. */
    public static final class PreparedSchema {
        private final GatewaySchema schema;

        private PreparedSchema(GatewaySchema schema) {
            this.schema = schema;
        }
    }

    /**
     * Builds the shipped schema for a store with these access patterns (what the schema needs of the store), to
     * hand to {@link Builder#schema(PreparedSchema)}: the slow part of a service's build, done ahead.
     */
    public static PreparedSchema prepareSchema(List<AccessPattern> accessPatterns) {
        return new PreparedSchema(GatewaySchema.load(accessPatterns, Clock.systemUTC()));
    }

    /** A service reading {@code catalog}, with the defaults: no writer, batching on, default limits and caching, no traces. */
    public static Builder builder(CatalogReader catalog, GatewayMetrics metrics) {
        return new Builder(catalog, metrics);
    }

    /** What a service is made of; each setting has the production default until set. */
    public static final class Builder {
        private final CatalogReader catalog;
        private final GatewayMetrics metrics;
        private CatalogWriter writer;
        private boolean batching = true;
        private QueryLimits limits = QueryLimits.DEFAULTS;
        private CacheSettings cache = CacheSettings.DEFAULTS;
        private Telemetry telemetry = Telemetry.OFF;
        private String schemaText;
        private GatewaySchema built;
        private Clock clock = Clock.systemUTC();
        private AuthRules.AccessPolicy access = AuthRules.AccessPolicy.SANDBOX;

        private Builder(CatalogReader catalog, GatewayMetrics metrics) {
            this.catalog = catalog;
            this.metrics = metrics;
        }

        public Builder writer(CatalogWriter writer) {
            this.writer = writer;
            return this;
        }

        /** {@code false} makes every DataLoader key its own request (BATCHING=off, for comparison only). */
        public Builder batching(boolean batching) {
            this.batching = batching;
            return this;
        }

        public Builder limits(QueryLimits limits) {
            this.limits = limits;
            return this;
        }

        public Builder cache(CacheSettings cache) {
            this.cache = cache;
            return this;
        }

        /** With traces: a span per operation, and one per DynamoDB call under it. */
        public Builder telemetry(Telemetry telemetry) {
            this.telemetry = telemetry;
            return this;
        }

        /**
         * The shipped schema, built beforehand ({@link #prepareSchema}, which the server runs on another core
         * while the store starts); it must have been checked against this catalog's access patterns.
         */
        public Builder schema(PreparedSchema prepared) {
            this.built = prepared.schema;
            return this;
        }

        /** Another schema text than the shipped one (tests use it). */
        public Builder schema(String schemaText) {
            this.schemaText = schemaText;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** How people get in (WRITE_TOKEN set, sign-in on): what the {@code @auth} refusals tell them to do. */
        public Builder access(AuthRules.AccessPolicy access) {
            this.access = access;
            return this;
        }

        /** The service; a schema whose fields the catalog cannot serve is refused here, at start-up. */
        public GraphQLService build() {
            GatewaySchema schema = schemaText != null ? GatewaySchema.of(schemaText, catalog, clock)
                    : built != null ? built : GatewaySchema.load(catalog, clock);
            return new GraphQLService(catalog, writer, batching, metrics, schema, limits, cache, telemetry, access);
        }
    }

    private GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                           GatewaySchema schema, QueryLimits limits, CacheSettings cache, Telemetry telemetry,
                           AuthRules.AccessPolicy access) {
        this.telemetry = telemetry;
        Cache<String, PreparsedDocumentEntry> documents = Caffeine.newBuilder()
                .maximumWeight(DOCUMENT_CACHE_CHARS)
                .weigher((String query, PreparsedDocumentEntry entry) -> query.length())
                .recordStats()
                .build();
        metrics.monitor(documents, "graphql.documents");
        metrics.monitor(knownEstimates.cache(), "graphql.estimates");
        this.cachedDocuments = new CachedDocuments(documents, limits.maxAliases());
        this.schema = schema;
        this.graphQL = engine(schema.schema(), cachedDocuments, limits);
        // Its own document cache: a subscription's query form must never be found by an HTTP request.
        this.live = schema.liveSchema() == null ? null : engine(schema.liveSchema(), new CachedDocuments(
                Caffeine.newBuilder().maximumWeight(DOCUMENT_CACHE_CHARS / 4)
                        .weigher((String query, PreparsedDocumentEntry entry) -> query.length()).build(),
                limits.maxAliases()), limits);
        this.limits = limits;
        this.documents = documents;
        this.deadlines = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "moviegraph-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
        RequestInputs inputs = new RequestInputs(new Loaders(batching, metrics), limits, metrics);
        this.steps = List.of(new SubscriptionRefusal(),
                new AuthorizationCheck(new AuthRules(access), this::parsed),
                new PlanOnly(catalog, inputs),
                new ReadBudgetCheck(catalog, inputs, knownEstimates, this::operation),
                new Execution(catalog, writer, inputs, cache, telemetry, deadlines, this::operation));
    }

    private static GraphQL engine(graphql.schema.GraphQLSchema schema, CachedDocuments documents, QueryLimits limits) {
        return GraphQL.newGraphQL(schema)
                .defaultDataFetcherExceptionHandler(new ErrorHandler())
                .preparsedDocumentProvider(documents)
                .instrumentation(new GatewayInstrumentation(limits.maxDepth(), limits.maxDeferred()))
                .build();
    }

    /** The trace a request with these headers belongs to ({@code traceparent}); the root when tracing is off. */
    public io.opentelemetry.context.Context traceParent(java.util.function.Function<String, String> headers) {
        return telemetry.parentOf(headers);
    }

    public CompletableFuture<Map<String, Object>> execute(GraphQLRequest request, TraceMode mode) {
        return answer(request, mode).thenApply(GraphQLAnswer::body);
    }

    /**
     * One reading of a subscription: {@code query} is the subscription's document made a query of the
     * live schema. It runs as any query does (read budget, time limit, fresh DataLoaders, extensions.cost),
     * and {@code interest} collects what it depended on.
     */
    public CompletableFuture<Map<String, Object>> executeLive(GraphQLRequest query, LiveInterest interest) {
        return answerAll(live, List.of(query), TraceMode.OFF, interest).thenApply(answers -> answers.get(0).body());
    }

    /** The schema requests are validated against. */
    graphql.schema.GraphQLSchema schema() {
        return graphQL.getGraphQLSchema();
    }

    /** A request's document and its parse or validation errors against the schema. */
    public record Validated(Document document, List<graphql.GraphQLError> errors) {
    }

    /** Parses (within the parser limits) and validates a request against the schema, without running it. */
    public Validated validate(GraphQLRequest request) {
        ExecutionInput input = ExecutionInput.newExecutionInput().query(request.query())
                .operationName(request.operationName()).variables(request.variables())
                .graphQLContext(context -> context.put(ParserOptions.class, limits.parserOptions()))
                .build();
        ParseAndValidateResult result = ParseAndValidate.parseAndValidate(schema(), input);
        return new Validated(result.getDocument(), result.getErrors());
    }

    /** One request's answer, with how long HTTP caches may keep it. */
    public CompletableFuture<GraphQLAnswer> answer(GraphQLRequest request, TraceMode mode) {
        return answerAll(List.of(request), mode).thenApply(answers -> answers.get(0));
    }

    /**
     * Operations sent together (a batch), answered in their order, each as it would be alone except that
     * the limits are the whole request's: the estimates of all its queries together must fit the read
     * budget (else none runs), their reads consume one budget through one guard, and one time limit stops
     * them all. They run concurrently, as Apollo Server runs a batch.
     */
    public CompletableFuture<List<GraphQLAnswer>> answerAll(List<GraphQLRequest> requests, TraceMode mode) {
        return answerAll(graphQL, requests, mode, null);
    }

    private CompletableFuture<List<GraphQLAnswer>> answerAll(GraphQL engine, List<GraphQLRequest> requests, TraceMode mode,
                                                             LiveInterest interest) {
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        long start = System.nanoTime();
        List<OperationDefinition.Operation> kinds = requests.stream()
                .map(request -> operationKind(request).orElse(null)).toList();
        return chain(0).answer(new RequestStep.Batch(engine, engine == live, requests, kinds, mode, start, interest,
                java.util.Collections.nCopies(requests.size(), false)));
    }

    /** The steps from {@code step} on; the last one ({@link Execution}) never calls on. */
    private RequestStep.Chain chain(int step) {
        return batch -> steps.get(step).answer(batch, step + 1 < steps.size() ? chain(step + 1)
                : ignored -> CompletableFuture.failedFuture(new IllegalStateException("no step after execution")));
    }

    /**
     * Whether {@code query} parses and validates against the schema within the document limits (tokens,
     * characters, fragments, aliases): what execution would check before running it. A valid document is
     * kept in the document cache, so executing it next parses nothing again.
     */
    public boolean validates(String query) {
        ExecutionInput input = ExecutionInput.newExecutionInput().query(query)
                .graphQLContext(context -> context.put(ParserOptions.class, limits.parserOptions()))
                .build();
        PreparsedDocumentEntry entry = cachedDocuments.getDocumentAsync(input, parsing -> {
            ParseAndValidateResult result = ParseAndValidate.parseAndValidate(schema.schema(), parsing);
            return result.isFailure() ? new PreparsedDocumentEntry(result.getErrors())
                    : new PreparsedDocumentEntry(result.getDocument());
        }).join();
        return !entry.hasErrors();
    }

    /** Stops the thread that fires time limits; called once HTTP has stopped taking requests. */
    @Override
    public void close() {
        deadlines.shutdownNow();
    }

    /**
     * The kind of operation a request would run (query, mutation...), or empty when the document does
     * not parse or does not name one operation unambiguously; execution then reports the exact error.
     * A document seen before is taken from the cache, a new one is parsed within the parser limits.
     */
    public Optional<OperationDefinition.Operation> operationKind(GraphQLRequest request) {
        return operation(request).map(OperationDefinition::getOperation);
    }

    /** The request's document, from the document cache when it has it; parsed (within the limits) otherwise. */
    private Document documentOf(GraphQLRequest request) {
        // asMap().get: not a lookup the cache's statistics should count
        PreparsedDocumentEntry cached = documents.asMap().get(request.query());
        return cached != null && cached.getDocument() != null ? cached.getDocument()
                : Parser.parse(new ParserEnvironment.Builder()
                        .document(request.query())
                        .parserOptions(limits.parserOptions())
                        .build());
    }

    /** The request's document, or empty when it does not parse (execution then says why). */
    private Optional<Document> parsed(GraphQLRequest request) {
        try {
            return Optional.of(documentOf(request));
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }

    /** The operation a request runs, from the document cache when it has the document. */
    private Optional<OperationDefinition> operation(GraphQLRequest request) {
        try {
            Document document = documentOf(request);
            List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
            return operations.stream()
                    .filter(op -> request.operationName() == null ? operations.size() == 1
                            : request.operationName().equals(op.getName()))
                    .findFirst();
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }
}
