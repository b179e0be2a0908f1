package dev.moviegraph.graphql;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.budget.PlanningCatalog;
import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.caching.CachedDocuments;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.errors.FieldErrors;
import dev.moviegraph.graphql.wiring.BatchHold;
import dev.moviegraph.graphql.wiring.EngineTurns;
import dev.moviegraph.graphql.wiring.LiveInterest;
import dev.moviegraph.graphql.wiring.Loaders;
import dev.moviegraph.graphql.wiring.RequestScope;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.List;
import java.util.Map;

import graphql.ExecutionInput;
import graphql.ExperimentalApi;
import graphql.execution.ResultNodesInfo;
import graphql.execution.instrumentation.dataloader.DataLoaderDispatchingContextKeys;
import graphql.introspection.Introspection;
import graphql.parser.ParserOptions;

/**
 * What the steps share: the execution input of one operation (its fresh DataLoader registry, the limits
 * graphql-java enforces, its read scope) and the finishing of an answer (the result-node limit, the
 * request metric). One per service.
 */
final class RequestInputs {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RequestInputs.class);

    private final Loaders loaders;
    private final QueryLimits limits;
    private final GatewayMetrics metrics;

    RequestInputs(Loaders loaders, QueryLimits limits, GatewayMetrics metrics) {
        this.loaders = loaders;
        this.limits = limits;
        this.metrics = metrics;
    }

    QueryLimits limits() {
        return limits;
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    /**
     * @param planning     a planning run (its DataLoader batches are not measured)
     * @param secondLookup the request's document was already looked up (by its estimate)
     */
    ExecutionInput input(GraphQLRequest request, RequestScope scope, boolean planning, boolean secondLookup,
                         CacheControl.Tally tally, LiveInterest interest) {
        EngineTurns turns = new EngineTurns();
        BatchHold hold = new BatchHold(turns);
        return ExecutionInput.newExecutionInput()
                .query(request.query())
                .operationName(request.operationName())
                .variables(request.variables())
                .dataLoaderRegistry(loaders.newRegistry(scope.catalog(), scope.observer(), planning, hold))
                .graphQLContext(context -> context
                        .put(CachedDocuments.SECOND_LOOKUP, secondLookup)
                        .put(DataLoaderDispatchingContextKeys.ENABLE_DATA_LOADER_CHAINING, true)
                        .put(ParserOptions.class, limits.parserOptions())
                        .put(Introspection.INTROSPECTION_DISABLED, !limits.introspection())
                        .put(ResultNodesInfo.MAX_RESULT_NODES, limits.maxResultNodes())
                        .put(RequestScope.class, scope)
                        .put(BatchHold.class, hold)
                        .put(EngineTurns.class, turns)
                        // A planning run plans deferred fields with the rest; a transport without parts gets them inline.
                        .put(ExperimentalApi.ENABLE_INCREMENTAL_SUPPORT, request.incremental() && !planning)
                        .putAll(request.incremental() && !planning ? Map.of(FieldErrors.class, new FieldErrors()) : Map.of())
                        .put(Viewer.class, request.viewer())
                        .putAll(tally == null ? Map.of() : Map.of(CacheControl.Tally.class, tally))
                        .putAll(interest == null ? Map.of() : Map.of(LiveInterest.class, interest)))
                .build();
    }

    /** Applies the result-node limit to an answer and counts it in the metrics. */
    Map<String, Object> finish(Map<String, Object> response, ExecutionInput input, GraphQLRequest request,
                               Outcome outcome, long start) {
        Map<String, Object> limit = input == null ? null : overLimit(input);
        if (limit != null) {
            // graphql-java leaves the fields past the limit null without a word, and null in a non-null
            // field spreads up; what is left would be misleading, so the answer is the limit alone.
            response.put("data", null);
            response.putAll(limit);
            outcome = Outcome.REJECTED;
        }
        metrics.request(input == null ? request.operationName()
                        : input.getGraphQLContext().getOrDefault(OperationNames.KEY, request.operationName()),
                outcome, System.nanoTime() - start);
        return response;
    }

    /** The result-node limit's error ({@code errors}) once the answer has more nodes than allowed; null until then. */
    Map<String, Object> overLimit(ExecutionInput input) {
        ResultNodesInfo nodes = input.getGraphQLContext().get(ResultNodesInfo.RESULT_NODES_INFO);
        if (nodes == null || !nodes.isMaxResultNodesExceeded()) {
            return null;
        }
        return Map.of("errors", List.of(Map.of("message", "The result would have more than "
                + limits.maxResultNodes() + " fields and list elements (MAX_RESULT_NODES)."
                + " Ask for fewer items (ids, first, limit) or fewer fields",
                "extensions", Map.of("code", ErrorType.LIMIT_EXCEEDED.name()))));
    }

    /**
     * A planning run's errors are seen by nobody when it estimates a query that then runs: those stand-ins
     * should never cause (see {@link PlanningCatalog#failures}) are counted in /metrics
     * ({@code moviegraph_planning_failures_total}, which tests check stays 0) and logged as the planning's,
     * since fields went unplanned and the estimate may be low (the running count still stops the query).
     */
    void noticeFailures(graphql.ExecutionResult result) {
        int failures = PlanningCatalog.failures(result);
        if (failures > 0) {
            metrics.planningFailures(failures);
            LOG.error("A planning run failed at {} field(s), so its read estimate may be low: {}", failures,
                    result.getErrors().stream().map(graphql.GraphQLError::getMessage).toList());
        }
    }
}
