package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import graphql.ExecutionInput;
import graphql.GraphQL;
import graphql.ParseAndValidate;
import graphql.ParseAndValidateResult;
import graphql.analysis.MaxQueryDepthInstrumentation;
import graphql.execution.instrumentation.ChainedInstrumentation;
import graphql.execution.instrumentation.dataloader.DataLoaderDispatchingContextKeys;
import graphql.introspection.Introspection;
import graphql.parser.ParserOptions;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.language.Document;
import graphql.language.OperationDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.execution.ResultNodesInfo;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The execution of one request over the {@link GatewaySchema}: each request gets a fresh DataLoader
 * registry, so batching and caching never leak between requests, and a receipt of every DynamoDB call it
 * made ({@code extensions.cost}, and {@code extensions.trace} on demand). A query is first estimated
 * (the same fetchers over {@link PlanningCatalog}, which calls nothing) and refused when over its read
 * budget; it then runs under its time limit. A planned request answers {@code extensions.plan} instead of
 * data. Every error it answers has a code ({@link ErrorCodes}); transport is the http layer's.
 */
public final class GraphQLService implements AutoCloseable {
    /** Total characters of the cached documents' query text: a bound on the cache's memory. */
    static final long DOCUMENT_CACHE_CHARS = 4_000_000;

    private final GraphQL graphQL;
    /** Subscriptions, read as queries of the live schema (see {@link GatewaySchema#liveSchema}); null without one. */
    private final GraphQL live;
    private final CatalogReader catalog;
    private final CatalogWriter writer;
    private final Loaders loaders;
    private final GatewayMetrics metrics;
    private final QueryLimits limits;
    private final Cache<String, PreparsedDocumentEntry> documents;
    private final CachedDocuments cachedDocuments;
    private final GatewaySchema schema;
    /** Fires each query's time limit; one daemon thread, cancelled timers are removed at once. */
    private final ScheduledThreadPoolExecutor deadlines;

    public GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics) {
        this(catalog, writer, batching, metrics, QueryLimits.DEFAULTS);
    }

    public GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                          QueryLimits limits) {
        this(catalog, writer, batching, metrics, GatewaySchema.load(catalog, Clock.systemUTC()), limits);
    }

    /** With another schema text or clock: tests use them. */
    GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                   String schemaText, Clock clock) {
        this(catalog, writer, batching, metrics, GatewaySchema.of(schemaText, catalog, clock), QueryLimits.DEFAULTS);
    }

    private GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                           GatewaySchema schema, QueryLimits limits) {
        Cache<String, PreparsedDocumentEntry> documents = Caffeine.newBuilder()
                .maximumWeight(DOCUMENT_CACHE_CHARS)
                .weigher((String query, PreparsedDocumentEntry entry) -> query.length())
                .recordStats()
                .build();
        metrics.monitor(documents, "graphql.documents");
        this.cachedDocuments = new CachedDocuments(documents, limits.maxAliases());
        this.schema = schema;
        this.graphQL = engine(schema.schema(), cachedDocuments, limits);
        // Its own document cache: a subscription's query form must never be found by an HTTP request.
        this.live = schema.liveSchema() == null ? null : engine(schema.liveSchema(), new CachedDocuments(
                Caffeine.newBuilder().maximumWeight(DOCUMENT_CACHE_CHARS / 4)
                        .weigher((String query, PreparsedDocumentEntry entry) -> query.length()).build(),
                limits.maxAliases()), limits);
        this.catalog = catalog;
        this.writer = writer;
        this.loaders = new Loaders(batching, metrics);
        this.metrics = metrics;
        this.limits = limits;
        this.documents = documents;
        this.deadlines = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "moviegraph-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    private static GraphQL engine(graphql.schema.GraphQLSchema schema, CachedDocuments documents, QueryLimits limits) {
        return GraphQL.newGraphQL(schema)
                .defaultDataFetcherExceptionHandler(new ErrorHandler())
                .preparsedDocumentProvider(documents)
                .instrumentation(new ChainedInstrumentation(new OperationNames(),
                        new MaxQueryDepthInstrumentation(limits.maxDepth())))
                .build();
    }

    public CompletableFuture<Map<String, Object>> execute(GraphQLRequest request, TraceMode mode) {
        OperationDefinition.Operation kind = operationKind(request).orElse(null);
        if (kind == OperationDefinition.Operation.SUBSCRIPTION) {
            return CompletableFuture.completedFuture(Map.of("errors", List.of(Map.of(
                    "message", "Subscriptions are served over WebSocket at this same path, with the graphql-transport-ws"
                            + " protocol (graphql-ws, Apollo Client's GraphQLWsLink), not over HTTP",
                    "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))));
        }
        return execute(graphQL, request, kind, mode, null);
    }

    /**
     * One reading of a subscription: {@code query} is the subscription's document made a query of the
     * live schema. It runs as any query does (read budget, time limit, fresh DataLoaders, extensions.cost),
     * and {@code interest} collects what it depended on.
     */
    CompletableFuture<Map<String, Object>> executeLive(GraphQLRequest query, LiveInterest interest) {
        return execute(live, query, OperationDefinition.Operation.QUERY, TraceMode.OFF, interest);
    }

    /** The schema requests are validated against. */
    graphql.schema.GraphQLSchema schema() {
        return graphQL.getGraphQLSchema();
    }

    /** A request's document and its parse or validation errors against the schema. */
    record Validated(Document document, List<graphql.GraphQLError> errors) {
    }

    /** Parses (within the parser limits) and validates a request against the schema, without running it. */
    Validated validate(GraphQLRequest request) {
        ExecutionInput input = ExecutionInput.newExecutionInput().query(request.query())
                .operationName(request.operationName()).variables(request.variables())
                .graphQLContext(context -> context.put(ParserOptions.class, limits.parserOptions()))
                .build();
        graphql.ParseAndValidateResult result = graphql.ParseAndValidate.parseAndValidate(schema(), input);
        return new Validated(result.getDocument(), result.getErrors());
    }

    boolean hasSubscriptions() {
        return live != null;
    }

    private CompletableFuture<Map<String, Object>> execute(GraphQL engine, GraphQLRequest request,
                                                           OperationDefinition.Operation kind, TraceMode mode,
                                                           LiveInterest interest) {
        if (mode == TraceMode.PLAN && kind == OperationDefinition.Operation.MUTATION) {
            return CompletableFuture.completedFuture(Map.of("errors", List.of(Map.of(
                    "message", "Moviegraph-Trace: plan is for queries; a mutation is never planned, only executed",
                    "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))));
        }
        long start = System.nanoTime();
        if (mode == TraceMode.PLAN) {
            PlanningCatalog planning = new PlanningCatalog(catalog, limits.maxReadUnits());
            ExecutionInput input = input(request, new RequestScope(planning, null, CallObserver.NONE), true, false, null);
            return engine.executeAsync(input).thenApply(result -> {
                Map<String, Object> response = new LinkedHashMap<>(ErrorCodes.toSpecification(result, false));
                // Not executed: the stand-in data means nothing, only the plan (and any error) is kept.
                response.remove("data");
                response.put("extensions", Map.of("plan", planning.describe()));
                return finish(response, input, request, Outcome.PLANNED, start);
            });
        }
        if (kind != OperationDefinition.Operation.QUERY || limits.maxReadUnits() <= 0) {
            return run(engine, request, kind, mode, start, false, interest);
        }
        // Estimate first: the same fetchers over the planning catalog, which calls nothing.
        PlanningCatalog estimate = new PlanningCatalog(catalog, limits.maxReadUnits());
        ExecutionInput planInput = input(request, new RequestScope(estimate, null, CallObserver.NONE), true, false, null);
        return engine.executeAsync(planInput).thenCompose(planned -> {
            if (!estimate.stopped()) {
                return run(engine, request, kind, mode, start, true, interest);
            }
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("errors", List.of(overBudget(estimate.readUnits())));
            response.put("extensions", Map.of("plan", estimate.describe()));
            return CompletableFuture.completedFuture(finish(response, planInput, request, Outcome.REJECTED, start));
        });
    }

    private Map<String, Object> overBudget(double estimate) {
        return Map.of("message", "This query could read at least " + RequestGuard.format(estimate)
                        + " read units (estimated from its plan before any DynamoDB call), more than the budget of "
                        + RequestGuard.format(limits.maxReadUnits()) + " per request (MAX_READ_UNITS). Ask for fewer"
                        + " items (ids, first, limit) or less nesting; extensions.plan shows what each field costs",
                "extensions", Map.of("code", ErrorType.LIMIT_EXCEEDED.name(),
                        "estimatedReadUnits", estimate, "readBudget", limits.maxReadUnits()));
    }

    /** Executes the request for real, under its read budget and, for a query, its time limit. */
    private CompletableFuture<Map<String, Object>> run(GraphQL engine, GraphQLRequest request,
                                                       OperationDefinition.Operation kind, TraceMode mode, long start,
                                                       boolean estimated, LiveInterest interest) {
        RequestReceipt receipt = new RequestReceipt(start, metrics);
        boolean query = kind != OperationDefinition.Operation.MUTATION;
        // A write once started runs to its end (bounded by the SDK's timeouts), so its outcome is known.
        RequestGuard guard = new RequestGuard(receipt, query ? limits.maxReadUnits() : 0);
        ExecutionInput input = input(request, new RequestScope(catalog, writer, guard), false, estimated, interest);
        ScheduledFuture<?> timer = query && limits.timeout() != null ? deadlines.schedule(() -> {
            guard.stop(new RequestStoppedException(Reason.TIME_LIMIT, "The query ran longer than its time limit of "
                    + limits.timeout().toMillis() + " ms (REQUEST_TIMEOUT_MS) and was stopped; this field was not read"));
            input.cancel();
        }, limits.timeout().toMillis(), TimeUnit.MILLISECONDS) : null;
        return engine.executeAsync(input).thenApply(result -> {
            if (timer != null) {
                timer.cancel(false);
            }
            Map<String, Object> response = new LinkedHashMap<>(ErrorCodes.toSpecification(result, guard.isStopped()));
            Map<String, Object> extensions = new LinkedHashMap<>();
            extensions.put("cost", receipt.cost());
            if (mode == TraceMode.ON) {
                extensions.put("trace", receipt.trace(System.nanoTime()));
            }
            response.put("extensions", extensions);
            Outcome outcome = !response.containsKey("data") ? Outcome.REJECTED
                    : response.containsKey("errors") ? Outcome.PARTIAL : Outcome.OK;
            return finish(response, input, request, outcome, start);
        });
    }

    /**
     * @param planning     a planning run (its DataLoader batches are not measured)
     * @param secondLookup the request's document was already looked up (by its estimate)
     */
    private ExecutionInput input(GraphQLRequest request, RequestScope scope, boolean planning, boolean secondLookup,
                                 LiveInterest interest) {
        return ExecutionInput.newExecutionInput()
                .query(request.query())
                .operationName(request.operationName())
                .variables(request.variables())
                .dataLoaderRegistry(loaders.newRegistry(scope.catalog(), scope.observer(), planning))
                .graphQLContext(context -> context
                        .put(CachedDocuments.SECOND_LOOKUP, secondLookup)
                        .put(DataLoaderDispatchingContextKeys.ENABLE_DATA_LOADER_CHAINING, true)
                        .put(ParserOptions.class, limits.parserOptions())
                        .put(Introspection.INTROSPECTION_DISABLED, !limits.introspection())
                        .put(ResultNodesInfo.MAX_RESULT_NODES, limits.maxResultNodes())
                        .put(RequestScope.class, scope)
                        .putAll(interest == null ? Map.of() : Map.of(LiveInterest.class, interest)))
                .build();
    }

    private Map<String, Object> finish(Map<String, Object> response, ExecutionInput input, GraphQLRequest request,
                                       Outcome outcome, long start) {
        ResultNodesInfo nodes = input.getGraphQLContext().get(ResultNodesInfo.RESULT_NODES_INFO);
        if (nodes != null && nodes.isMaxResultNodesExceeded()) {
            // graphql-java leaves the fields past the limit null without a word, and null in a non-null
            // field spreads up; what is left would be misleading, so the answer is the limit alone.
            response.put("data", null);
            response.put("errors", List.of(Map.of("message", "The result would have more than "
                    + limits.maxResultNodes() + " fields and list elements (MAX_RESULT_NODES)."
                    + " Ask for fewer items (ids, first, limit) or fewer fields",
                    "extensions", Map.of("code", ErrorType.LIMIT_EXCEEDED.name()))));
            outcome = Outcome.REJECTED;
        }
        metrics.request(input.getGraphQLContext().getOrDefault(OperationNames.KEY, request.operationName()),
                outcome, System.nanoTime() - start);
        return response;
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
        try {
            // asMap().get: not a lookup the cache's statistics should count
            PreparsedDocumentEntry cached = documents.asMap().get(request.query());
            Document document = cached != null ? cached.getDocument()
                    : Parser.parse(new ParserEnvironment.Builder()
                            .document(request.query())
                            .parserOptions(limits.parserOptions())
                            .build());
            List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
            return operations.stream()
                    .filter(op -> request.operationName() == null ? operations.size() == 1
                            : request.operationName().equals(op.getName()))
                    .findFirst()
                    .map(OperationDefinition::getOperation);
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }
}
