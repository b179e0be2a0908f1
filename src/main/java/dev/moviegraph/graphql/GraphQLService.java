package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.graphql.budget.PlanningCatalog;
import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.budget.RequestGuard;
import dev.moviegraph.graphql.budget.RequestReceipt;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.caching.CacheSettings;
import dev.moviegraph.graphql.caching.CachedDocuments;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorHandler;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.wiring.GatewaySchema;
import dev.moviegraph.graphql.wiring.LiveInterest;
import dev.moviegraph.graphql.wiring.Loaders;
import dev.moviegraph.graphql.wiring.RequestScope;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.telemetry.OperationSpan;
import dev.moviegraph.telemetry.Telemetry;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.ParseAndValidate;
import graphql.ParseAndValidateResult;
import graphql.execution.ResultNodesInfo;
import graphql.execution.instrumentation.dataloader.DataLoaderDispatchingContextKeys;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.introspection.Introspection;
import graphql.language.Document;
import graphql.language.OperationDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;

/**
 * The execution of one request over the {@link GatewaySchema}: each request gets a fresh DataLoader
 * registry, so batching and caching never leak between requests, and a receipt of every DynamoDB call it
 * made ({@code extensions.cost}, and {@code extensions.trace} on demand). A query is first estimated
 * (the same fetchers over {@link PlanningCatalog}, which calls nothing) and refused when over its read
 * budget; it then runs under its time limit. A planned request answers {@code extensions.plan} instead of
 * data. Every error it answers has a code ({@link ErrorCodes}); every answer says how long HTTP caches
 * may keep it ({@link CacheControl}). Operations sent together (a batch) share the request's read budget
 * and time limit. Transport is the http layer's.
 */
public final class GraphQLService implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GraphQLService.class);
    /** Total characters of the cached documents' query text: a bound on the cache's memory. */
    static final long DOCUMENT_CACHE_CHARS = 4_000_000;

    private final GraphQL graphQL;
    private final CatalogReader catalog;
    private final CatalogWriter writer;
    private final Loaders loaders;
    private final GatewayMetrics metrics;
    private final QueryLimits limits;
    private final CacheSettings cache;
    private final Cache<String, PreparsedDocumentEntry> documents;
    private final CachedDocuments cachedDocuments;
    private final GatewaySchema schema;
    /** Subscriptions, read as queries of the live schema (see {@link GatewaySchema#liveSchema}); null without one. */
    private final GraphQL live;
    private final KnownEstimates knownEstimates = new KnownEstimates();
    private final Telemetry telemetry;
    /** Fires each query's time limit; one daemon thread, cancelled timers are removed at once. */
    private final ScheduledThreadPoolExecutor deadlines;

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
        private Clock clock = Clock.systemUTC();

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

        /** Another schema text than the shipped one (tests use it). */
        public Builder schema(String schemaText) {
            this.schemaText = schemaText;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The service; a schema whose fields the catalog cannot serve is refused here, at start-up. */
        public GraphQLService build() {
            GatewaySchema schema = schemaText == null ? GatewaySchema.load(catalog, clock)
                    : GatewaySchema.of(schemaText, catalog, clock);
            return new GraphQLService(catalog, writer, batching, metrics, schema, limits, cache, telemetry);
        }
    }

    private GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                           GatewaySchema schema, QueryLimits limits, CacheSettings cache, Telemetry telemetry) {
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
        this.catalog = catalog;
        this.writer = writer;
        this.loaders = new Loaders(batching, metrics);
        this.metrics = metrics;
        this.limits = limits;
        this.cache = cache;
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
                .instrumentation(new GatewayInstrumentation(limits.maxDepth()))
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
        List<GraphQLRequest> runnable = requests.stream().filter(request ->
                operationKind(request).orElse(null) != OperationDefinition.Operation.SUBSCRIPTION).toList();
        if (runnable.size() == requests.size()) {
            return answerAll(graphQL, requests, mode, null);
        }
        // A subscription over HTTP: refused on its own; the others of a batch run as they would.
        return answerAll(graphQL, runnable, mode, null).thenApply(answered -> {
            List<GraphQLAnswer> answers = new ArrayList<>();
            int next = 0;
            for (GraphQLRequest request : requests) {
                answers.add(runnable.contains(request) && next < answered.size() ? answered.get(next++)
                        : new GraphQLAnswer(Map.of("errors", List.of(Map.of("message", "Subscriptions are served over"
                                + " WebSocket at this same path, with the graphql-transport-ws protocol (graphql-ws, Apollo"
                                + " Client's GraphQLWsLink), not over HTTP",
                        "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))), CachePolicy.NO_STORE));
            }
            return answers;
        });
    }

    private CompletableFuture<List<GraphQLAnswer>> answerAll(GraphQL engine, List<GraphQLRequest> requests, TraceMode mode,
                                                             LiveInterest interest) {
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        long start = System.nanoTime();
        List<OperationDefinition.Operation> kinds = requests.stream()
                .map(request -> operationKind(request).orElse(null)).toList();
        if (mode == TraceMode.PLAN) {
            List<CompletableFuture<GraphQLAnswer>> plans = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                plans.add(plan(engine, requests.get(i), kinds.get(i), start));
            }
            return all(plans);
        }
        if (limits.maxReadUnits() <= 0 || !kinds.contains(OperationDefinition.Operation.QUERY)) {
            return run(engine, requests, kinds, mode, start, new PlanningCatalog[requests.size()], interest);
        }
        // A query of a shape estimated within the last minute is not planned again.
        KnownEstimates.Shape[] shapes = new KnownEstimates.Shape[requests.size()];
        double known = 0;
        for (int i = 0; i < requests.size(); i++) {
            if (kinds.get(i) == OperationDefinition.Operation.QUERY) {
                GraphQLRequest request = requests.get(i);
                shapes[i] = operation(request).map(op -> KnownEstimates.shape(engine == live, request, op)).orElse(null);
                Double estimate = knownEstimates.get(shapes[i]);
                known = estimate == null || known < 0 ? -1 : known + estimate;
            }
        }
        if (known >= 0 && known <= limits.maxReadUnits()) {
            return run(engine, requests, kinds, mode, start, new PlanningCatalog[requests.size()], interest);
        }
        // Estimate first: the same fetchers over the planning catalog, which calls nothing.
        PlanningCatalog[] estimates = new PlanningCatalog[requests.size()];
        ExecutionInput[] planInputs = new ExecutionInput[requests.size()];
        List<CompletableFuture<ExecutionResult>> planned = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            CompletableFuture<ExecutionResult> plan = null;
            if (kinds.get(i) == OperationDefinition.Operation.QUERY) {
                estimates[i] = new PlanningCatalog(catalog, limits.maxReadUnits());
                planInputs[i] = input(requests.get(i), new RequestScope(estimates[i], null, CallObserver.NONE),
                        true, false, null, null);
                plan = engine.executeAsync(planInputs[i]).thenApply(result -> {
                    noticeFailures(result);
                    return result;
                });
            }
            planned.add(plan == null ? CompletableFuture.completedFuture(null) : plan);
        }
        return CompletableFuture.allOf(planned.toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
            double total = 0;
            boolean stopped = false;
            for (PlanningCatalog estimate : estimates) {
                if (estimate != null) {
                    total += estimate.readUnits();
                    stopped |= estimate.stopped();
                }
            }
            if (!stopped && total <= limits.maxReadUnits()) {
                for (int i = 0; i < requests.size(); i++) {
                    // A plan with an error (a malformed id, a bad cursor, a planning failure) left fields
                    // unplanned: it is a lower bound for this request only, never for the next one of its shape.
                    if (estimates[i] != null && planned.get(i).join().getErrors().isEmpty()) {
                        knownEstimates.put(shapes[i], estimates[i].readUnits());
                    }
                }
                return run(engine, requests, kinds, mode, start, estimates, interest);
            }
            List<GraphQLAnswer> refused = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                Map<String, Object> response = new LinkedHashMap<>();
                response.put("errors", List.of(overBudget(total, requests.size() > 1)));
                if (estimates[i] != null) {
                    response.put("extensions", Map.of("plan", estimates[i].describe()));
                }
                refused.add(new GraphQLAnswer(finish(response, planInputs[i], requests.get(i), Outcome.REJECTED, start),
                        CachePolicy.NO_STORE));
            }
            return CompletableFuture.completedFuture(refused);
        });
    }

    /** Plans one request without executing it: {@code extensions.plan}, never data. */
    private CompletableFuture<GraphQLAnswer> plan(GraphQL engine, GraphQLRequest request,
                                                  OperationDefinition.Operation kind, long start) {
        if (kind == OperationDefinition.Operation.MUTATION) {
            return CompletableFuture.completedFuture(new GraphQLAnswer(Map.of("errors", List.of(Map.of(
                    "message", "Moviegraph-Trace: plan is for queries; a mutation is never planned, only executed",
                    "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))), CachePolicy.NO_STORE));
        }
        PlanningCatalog planning = new PlanningCatalog(catalog, limits.maxReadUnits());
        ExecutionInput input = input(request, new RequestScope(planning, null, CallObserver.NONE), true, false, null,
                null);
        return engine.executeAsync(input).thenApply(result -> {
            noticeFailures(result);
            Map<String, Object> response = new LinkedHashMap<>(ErrorCodes.toSpecification(result, false));
            // Not executed: the stand-in data means nothing, only the plan (and any error) is kept.
            response.remove("data");
            response.put("extensions", Map.of("plan", planning.describe()));
            return new GraphQLAnswer(finish(response, input, request, Outcome.PLANNED, start), CachePolicy.NO_STORE);
        });
    }

    /**
     * A planning run's errors are seen by nobody when it estimates a query that then runs: those stand-ins
     * should never cause (see {@link PlanningCatalog#failures}) are counted in /metrics
     * ({@code moviegraph_planning_failures_total}, which tests check stays 0) and logged as the planning's,
     * since fields went unplanned and the estimate may be low (the running count still stops the query).
     */
    private void noticeFailures(graphql.ExecutionResult result) {
        int failures = PlanningCatalog.failures(result);
        if (failures > 0) {
            metrics.planningFailures(failures);
            LOG.error("A planning run failed at {} field(s), so its read estimate may be low: {}", failures,
                    result.getErrors().stream().map(graphql.GraphQLError::getMessage).toList());
        }
    }

    private Map<String, Object> overBudget(double estimate, boolean batch) {
        return Map.of("message", (batch ? "The operations of this batch could read at least " : "This query could read at least ")
                        + RequestGuard.format(estimate)
                        + " read units (estimated from its plan before any DynamoDB call), more than the budget of "
                        + RequestGuard.format(limits.maxReadUnits()) + " per request (MAX_READ_UNITS"
                        + (batch ? ", shared by the operations of a batch" : "") + "). Ask for fewer"
                        + " items (ids, first, limit) or less nesting; extensions.plan shows what each field costs",
                "extensions", Map.of("code", ErrorType.LIMIT_EXCEEDED.name(),
                        "estimatedReadUnits", estimate, "readBudget", limits.maxReadUnits()));
    }

    /**
     * Executes the requests for real: the queries under one read budget and one time limit, each
     * mutation on its own (a write once started runs to its end, bounded by the SDK's timeouts, so its
     * outcome is known).
     */
    private CompletableFuture<List<GraphQLAnswer>> run(GraphQL engine, List<GraphQLRequest> requests,
                                                       List<OperationDefinition.Operation> kinds, TraceMode mode,
                                                       long start, PlanningCatalog[] estimates, LiveInterest interest) {
        RequestGuard shared = new RequestGuard(CallObserver.NONE, limits.maxReadUnits());
        List<Execution> executions = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            boolean query = kinds.get(i) != OperationDefinition.Operation.MUTATION;
            GraphQLRequest request = requests.get(i);
            OperationSpan span = !telemetry.isOn() ? OperationSpan.NONE : telemetry.operation(request.traceParent(),
                    kinds.get(i) == null ? "query" : kinds.get(i).name().toLowerCase(java.util.Locale.ROOT),
                    request.operationName() != null ? request.operationName()
                            : operation(request).map(OperationDefinition::getName).orElse(null));
            RequestReceipt receipt = new RequestReceipt(start, span.observing(metrics));
            RequestGuard guard = query ? shared : new RequestGuard(CallObserver.NONE, 0);
            CacheControl.Tally tally = new CacheControl.Tally(cache);
            ExecutionInput input = input(request, new RequestScope(catalog, writer, guard.observing(receipt)), false,
                    estimates[i] != null, tally, interest);
            if (span.traceId() != null) {
                input.getGraphQLContext().put(ErrorHandler.TRACE_ID, span.traceId());
            }
            executions.add(new Execution(request, kinds.get(i), receipt, guard, tally, input, span));
        }
        List<ExecutionInput> queries = executions.stream().filter(e -> e.guard() == shared).map(Execution::input).toList();
        String what = requests.size() > 1 ? "The batch" : "The query";
        ScheduledFuture<?> timer = !queries.isEmpty() && limits.timeout() != null ? deadlines.schedule(() -> {
            shared.stop(new RequestStoppedException(Reason.TIME_LIMIT, what + " ran longer than its time limit of "
                    + limits.timeout().toMillis() + " ms (REQUEST_TIMEOUT_MS) and was stopped; this field was not read"));
            queries.forEach(ExecutionInput::cancel);
        }, limits.timeout().toMillis(), TimeUnit.MILLISECONDS) : null;
        return all(executions.stream().map(execution -> execute(engine, execution, mode, start)).toList())
                .whenComplete((value, failure) -> {
                    if (timer != null) {
                        timer.cancel(false);
                    }
                });
    }

    /** One operation of a request, ready to run: its receipt, the guard it reads under, its cache tally. */
    private record Execution(GraphQLRequest request, OperationDefinition.Operation kind, RequestReceipt receipt,
                             RequestGuard guard, CacheControl.Tally tally, ExecutionInput input, OperationSpan span) {
    }

    private CompletableFuture<GraphQLAnswer> execute(GraphQL engine, Execution execution, TraceMode mode, long start) {
        return engine.executeAsync(execution.input()).whenComplete((result, failure) -> execution.span().end(
                failure != null ? failure.toString() : result.getErrors().isEmpty() ? null
                        : result.getErrors().get(0).getMessage())).thenApply(result -> {
            Map<String, Object> response = new LinkedHashMap<>(
                    ErrorCodes.toSpecification(result, execution.guard().isStopped()));
            Map<String, Object> extensions = new LinkedHashMap<>();
            extensions.put("cost", execution.receipt().cost());
            if (mode == TraceMode.ON) {
                extensions.put("trace", execution.receipt().trace(System.nanoTime()));
            }
            response.put("extensions", extensions);
            Outcome outcome = !response.containsKey("data") ? Outcome.REJECTED
                    : response.containsKey("errors") ? Outcome.PARTIAL : Outcome.OK;
            finish(response, execution.input(), execution.request(), outcome, start);
            // Errors, a trace and writes are never kept; anything else as long as its fields allow.
            boolean keepable = execution.kind() == OperationDefinition.Operation.QUERY && mode == TraceMode.OFF
                    && response.get("data") != null && !response.containsKey("errors");
            return new GraphQLAnswer(response, keepable ? execution.tally().policy() : CachePolicy.NO_STORE);
        });
    }

    private static <T> CompletableFuture<List<T>> all(List<CompletableFuture<T>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> futures.stream().map(CompletableFuture::join).toList());
    }

    /**
     * @param planning     a planning run (its DataLoader batches are not measured)
     * @param secondLookup the request's document was already looked up (by its estimate)
     */
    private ExecutionInput input(GraphQLRequest request, RequestScope scope, boolean planning, boolean secondLookup,
                                 CacheControl.Tally tally, LiveInterest interest) {
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
                        .putAll(tally == null ? Map.of() : Map.of(CacheControl.Tally.class, tally))
                        .putAll(interest == null ? Map.of() : Map.of(LiveInterest.class, interest)))
                .build();
    }

    private Map<String, Object> finish(Map<String, Object> response, ExecutionInput input, GraphQLRequest request,
                                       Outcome outcome, long start) {
        ResultNodesInfo nodes = input == null ? null : input.getGraphQLContext().get(ResultNodesInfo.RESULT_NODES_INFO);
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
        metrics.request(input == null ? request.operationName()
                        : input.getGraphQLContext().getOrDefault(OperationNames.KEY, request.operationName()),
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
        return operation(request).map(OperationDefinition::getOperation);
    }

    /** The operation a request runs, from the document cache when it has the document. */
    private Optional<OperationDefinition> operation(GraphQLRequest request) {
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
                    .findFirst();
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }
}
