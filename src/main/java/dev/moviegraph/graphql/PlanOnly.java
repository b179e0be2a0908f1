package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.graphql.budget.PlanningCatalog;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.wiring.RequestScope;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import graphql.ExecutionInput;
import graphql.language.OperationDefinition;

/**
 * {@code Moviegraph-Trace: plan}: each operation is planned and never executed, its answer
 * {@code extensions.plan} (and any error), never data. The rest of the chain is not reached.
 */
final class PlanOnly implements RequestStep {
    private final CatalogReader catalog;
    private final RequestInputs inputs;

    PlanOnly(CatalogReader catalog, RequestInputs inputs) {
        this.catalog = catalog;
        this.inputs = inputs;
    }

    @Override
    public CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next) {
        if (batch.mode() != TraceMode.PLAN) {
            return next.answer(batch);
        }
        List<CompletableFuture<GraphQLAnswer>> plans = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            plans.add(plan(batch, batch.requests().get(i), batch.kinds().get(i)));
        }
        return Execution.all(plans);
    }

    private CompletableFuture<GraphQLAnswer> plan(Batch batch, GraphQLRequest request, OperationDefinition.Operation kind) {
        if (kind == OperationDefinition.Operation.MUTATION) {
            return CompletableFuture.completedFuture(new GraphQLAnswer(Map.of("errors", List.of(Map.of(
                    "message", "Moviegraph-Trace: plan is for queries; a mutation is never planned, only executed",
                    "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))), CachePolicy.NO_STORE));
        }
        PlanningCatalog planning = new PlanningCatalog(catalog, inputs.limits().maxReadUnits());
        ExecutionInput input = inputs.input(request, new RequestScope(planning, null, CallObserver.NONE), true, false,
                null, null);
        return batch.execute(input).thenApply(result -> {
            inputs.noticeFailures(result);
            Map<String, Object> response = new LinkedHashMap<>(ErrorCodes.toSpecification(result, false));
            // Not executed: the stand-in data means nothing, only the plan (and any error) is kept.
            response.remove("data");
            response.put("extensions", Map.of("plan", planning.describe()));
            return new GraphQLAnswer(inputs.finish(response, input, request, Outcome.PLANNED, batch.start()),
                    CachePolicy.NO_STORE);
        });
    }
}
