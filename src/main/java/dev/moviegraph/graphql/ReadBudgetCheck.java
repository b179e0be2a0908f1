package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.graphql.budget.PlanningCatalog;
import dev.moviegraph.graphql.budget.RequestGuard;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.wiring.RequestScope;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.language.OperationDefinition;

/**
 * The read budget: the queries of a batch are estimated first (the same fetchers over the
 * {@link PlanningCatalog}, which calls nothing), and refused together, before any DynamoDB call, when
 * their estimates pass {@code MAX_READ_UNITS}. A shape estimated within the last minute is not planned
 * again ({@link KnownEstimates}). Within the budget, the batch goes on with its estimated queries marked.
 */
final class ReadBudgetCheck implements RequestStep {
    private final CatalogReader catalog;
    private final RequestInputs inputs;
    private final KnownEstimates knownEstimates;
    private final Function<GraphQLRequest, Optional<OperationDefinition>> operations;

    ReadBudgetCheck(CatalogReader catalog, RequestInputs inputs, KnownEstimates knownEstimates,
                    Function<GraphQLRequest, Optional<OperationDefinition>> operations) {
        this.catalog = catalog;
        this.inputs = inputs;
        this.knownEstimates = knownEstimates;
        this.operations = operations;
    }

    @Override
    public CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next) {
        double budget = inputs.limits().maxReadUnits();
        if (budget <= 0 || !batch.kinds().contains(OperationDefinition.Operation.QUERY)) {
            return next.answer(batch);
        }
        KnownEstimates.Shape[] shapes = new KnownEstimates.Shape[batch.size()];
        double known = 0;
        for (int i = 0; i < batch.size(); i++) {
            if (batch.isQuery(i)) {
                GraphQLRequest request = batch.requests().get(i);
                shapes[i] = operations.apply(request).map(op -> KnownEstimates.shape(batch.live(), request, op)).orElse(null);
                Double estimate = knownEstimates.get(shapes[i]);
                known = estimate == null || known < 0 ? -1 : known + estimate;
            }
        }
        if (known >= 0 && known <= budget) {
            return next.answer(batch);
        }
        PlanningCatalog[] estimates = new PlanningCatalog[batch.size()];
        ExecutionInput[] planInputs = new ExecutionInput[batch.size()];
        List<CompletableFuture<ExecutionResult>> planned = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<ExecutionResult> plan = CompletableFuture.completedFuture(null);
            if (batch.isQuery(i)) {
                estimates[i] = new PlanningCatalog(catalog, budget);
                planInputs[i] = inputs.input(batch.requests().get(i), new RequestScope(estimates[i], null, CallObserver.NONE),
                        true, false, null, null);
                plan = batch.execute(planInputs[i]).thenApply(result -> {
                    inputs.noticeFailures(result);
                    return result;
                });
            }
            planned.add(plan);
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
            if (!stopped && total <= budget) {
                List<Boolean> estimated = new ArrayList<>(Collections.nCopies(batch.size(), false));
                for (int i = 0; i < batch.size(); i++) {
                    estimated.set(i, estimates[i] != null);
                    // A plan with an error (a malformed id, a bad cursor, a planning failure) left fields
                    // unplanned: it is a lower bound for this request only, never for the next one of its shape.
                    if (estimates[i] != null && planned.get(i).join().getErrors().isEmpty()) {
                        knownEstimates.put(shapes[i], estimates[i].readUnits());
                    }
                }
                return next.answer(batch.estimated(estimated));
            }
            List<GraphQLAnswer> refused = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                Map<String, Object> response = new LinkedHashMap<>();
                response.put("errors", List.of(overBudget(total, batch.size() > 1)));
                if (estimates[i] != null) {
                    response.put("extensions", Map.of("plan", estimates[i].describe()));
                }
                refused.add(new GraphQLAnswer(inputs.finish(response, planInputs[i], batch.requests().get(i),
                        Outcome.REJECTED, batch.start()), CachePolicy.NO_STORE));
            }
            return CompletableFuture.completedFuture(refused);
        });
    }

    private Map<String, Object> overBudget(double estimate, boolean batch) {
        double budget = inputs.limits().maxReadUnits();
        return Map.of("message", (batch ? "The operations of this batch could read at least " : "This query could read at least ")
                        + RequestGuard.format(estimate)
                        + " read units (estimated from its plan before any DynamoDB call), more than the budget of "
                        + RequestGuard.format(budget) + " per request (MAX_READ_UNITS"
                        + (batch ? ", shared by the operations of a batch" : "") + "). Ask for fewer"
                        + " items (ids, first, limit) or less nesting; extensions.plan shows what each field costs",
                "extensions", Map.of("code", ErrorType.LIMIT_EXCEEDED.name(),
                        "estimatedReadUnits", estimate, "readBudget", budget));
    }
}
