package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import graphql.ErrorClassification;
import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
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
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The schema, built once from schema.graphqls and checked against the store's access patterns, and the
 * execution of one request: each request gets a fresh DataLoader registry, so batching and caching never
 * leak between requests, and a receipt of every DynamoDB call it made ({@code extensions.cost}, and
 * {@code extensions.trace} on demand). A planned request runs the same fetchers over
 * {@link PlanningCatalog} and answers {@code extensions.plan} instead of data.
 */
public final class GraphQLService {
    /** Total characters of the cached documents' query text: a bound on the cache's memory. */
    static final long DOCUMENT_CACHE_CHARS = 4_000_000;

    private final GraphQL graphQL;
    private final CatalogReader catalog;
    private final CatalogWriter writer;
    private final Loaders loaders;
    private final GatewayMetrics metrics;
    private final QueryLimits limits;

    public GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics) {
        this(catalog, writer, batching, metrics, QueryLimits.DEFAULTS);
    }

    public GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                          QueryLimits limits) {
        this(catalog, writer, batching, metrics, readSchema(), Clock.systemUTC(), limits);
    }

    /** With another schema text or clock: tests use them. */
    GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                   String schemaText, Clock clock) {
        this(catalog, writer, batching, metrics, schemaText, clock, QueryLimits.DEFAULTS);
    }

    private GraphQLService(CatalogReader catalog, CatalogWriter writer, boolean batching, GatewayMetrics metrics,
                           String schemaText, Clock clock, QueryLimits limits) {
        CatalogWiring wiring = new CatalogWiring(clock);
        GraphQLSchema schema = new SchemaGenerator()
                .makeExecutableSchema(new SchemaParser().parse(schemaText), wiring.runtimeWiring());
        wiring.bindings().verify(schema, catalog.accessPatterns());
        Cache<String, PreparsedDocumentEntry> documents = Caffeine.newBuilder()
                .maximumWeight(DOCUMENT_CACHE_CHARS)
                .weigher((String query, PreparsedDocumentEntry entry) -> query.length())
                .recordStats()
                .build();
        metrics.monitor(documents, "graphql.documents");
        this.graphQL = GraphQL.newGraphQL(schema)
                .defaultDataFetcherExceptionHandler(new ErrorHandler())
                .preparsedDocumentProvider(new CachedDocuments(documents, limits.maxAliases()))
                .instrumentation(new ChainedInstrumentation(new OperationNames(),
                        new MaxQueryDepthInstrumentation(limits.maxDepth())))
                .build();
        this.catalog = catalog;
        this.writer = writer;
        this.loaders = new Loaders(batching, metrics);
        this.metrics = metrics;
        this.limits = limits;
    }

    public CompletableFuture<Map<String, Object>> execute(GraphQLRequest request, TraceMode mode) {
        if (mode == TraceMode.PLAN && operationKind(request).orElse(null) == OperationDefinition.Operation.MUTATION) {
            return CompletableFuture.completedFuture(Map.of("errors", List.of(Map.of(
                    "message", "Moviegraph-Trace: plan is for queries; a mutation is never planned, only executed",
                    "extensions", Map.of("code", "BAD_REQUEST")))));
        }
        long start = System.nanoTime();
        RequestReceipt receipt = new RequestReceipt(start, metrics);
        PlanningCatalog planning = mode == TraceMode.PLAN ? new PlanningCatalog(catalog) : null;
        RequestScope scope = planning != null ? new RequestScope(planning, null, CallObserver.NONE)
                : new RequestScope(catalog, writer, receipt);
        ExecutionInput input = ExecutionInput.newExecutionInput()
                .query(request.query())
                .operationName(request.operationName())
                .variables(request.variables())
                .dataLoaderRegistry(loaders.newRegistry(scope.catalog(), scope.observer()))
                .graphQLContext(context -> context
                        .put(DataLoaderDispatchingContextKeys.ENABLE_DATA_LOADER_CHAINING, true)
                        .put(ParserOptions.class, limits.parserOptions())
                        .put(Introspection.INTROSPECTION_DISABLED, !limits.introspection())
                        .put(RequestScope.class, scope))
                .build();
        return graphQL.executeAsync(input).thenApply(result -> {
            Map<String, Object> response = new LinkedHashMap<>(toSpecification(result));
            Map<String, Object> extensions = new LinkedHashMap<>();
            Outcome outcome;
            if (planning != null) {
                // Not executed: the stand-in data means nothing, only the plan (and any error) is kept.
                response.remove("data");
                extensions.put("plan", planning.describe());
                outcome = Outcome.PLANNED;
            } else {
                extensions.put("cost", receipt.cost());
                if (mode == TraceMode.ON) {
                    extensions.put("trace", receipt.trace(System.nanoTime()));
                }
                outcome = !response.containsKey("data") ? Outcome.REJECTED
                        : response.containsKey("errors") ? Outcome.PARTIAL : Outcome.OK;
            }
            response.put("extensions", extensions);
            metrics.request(input.getGraphQLContext().getOrDefault(OperationNames.KEY, request.operationName()),
                    outcome, System.nanoTime() - start);
            return response;
        });
    }

    /**
     * The kind of operation a request would run (query, mutation...), or empty when the document does
     * not parse or does not name one operation unambiguously; execution then reports the exact error.
     */
    public Optional<OperationDefinition.Operation> operationKind(GraphQLRequest request) {
        try {
            Document document = Parser.parse(request.query());
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

    /** The spec-shaped result, where every error has an {@code extensions.code}. */
    private static Map<String, Object> toSpecification(ExecutionResult result) {
        if (result.getErrors().isEmpty()) {
            return result.toSpecification();
        }
        List<GraphQLError> coded = result.getErrors().stream().map(GraphQLService::withCode).toList();
        return result.transform(builder -> builder.errors(coded)).toSpecification();
    }

    private static GraphQLError withCode(GraphQLError error) {
        if (error.getExtensions() != null && error.getExtensions().containsKey("code")) {
            return error;
        }
        ErrorClassification type = error.getErrorType();
        ErrorType code = type == graphql.ErrorType.InvalidSyntax
                ? (error.getMessage() != null && error.getMessage().contains("parsing has been cancelled")
                        ? ErrorType.LIMIT_EXCEEDED : ErrorType.GRAPHQL_PARSE_FAILED)
                : type == graphql.ErrorType.ValidationError ? ErrorType.GRAPHQL_VALIDATION_FAILED
                // the depth limit aborts before execution; nothing else aborts here
                : type == graphql.ErrorType.ExecutionAborted ? ErrorType.LIMIT_EXCEEDED
                : ErrorType.INTERNAL;
        Map<String, Object> extensions = new HashMap<>();
        if (error.getExtensions() != null) {
            extensions.putAll(error.getExtensions());
        }
        extensions.put("code", code.name());
        return GraphqlErrorBuilder.newError()
                .message(error.getMessage())
                .locations(error.getLocations())
                .path(error.getPath())
                .errorType(code)
                .extensions(extensions)
                .build();
    }

    private static String readSchema() {
        try (InputStream in = GraphQLService.class.getResourceAsStream("/schema.graphqls")) {
            if (in == null) {
                throw new IllegalStateException("schema.graphqls is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
