package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.graphql.budget.RequestGuard;
import dev.moviegraph.graphql.budget.RequestReceipt;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.caching.CacheSettings;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorHandler;
import dev.moviegraph.graphql.errors.FieldErrors;
import dev.moviegraph.graphql.wiring.RequestScope;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;
import dev.moviegraph.telemetry.OperationSpan;
import dev.moviegraph.telemetry.Telemetry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.moviegraph.graphql.wiring.BatchHold;

import graphql.ExecutionInput;
import graphql.incremental.IncrementalExecutionResult;
import graphql.language.OperationDefinition;

/**
 * The last step: executes the operations for real, the queries under one read budget and one time limit,
 * each mutation on its own (a write once started runs to its end, bounded by the SDK's timeouts, so its
 * outcome is known). Each answer carries its receipt ({@code extensions.cost}, and {@code extensions.trace}
 * on demand) and how long HTTP caches may keep it.
 */
final class Execution implements RequestStep {
    private final CatalogReader catalog;
    private final CatalogWriter writer;
    private final RequestInputs inputs;
    private final CacheSettings cache;
    private final Telemetry telemetry;
    private final ScheduledExecutorService deadlines;
    private final Function<GraphQLRequest, Optional<OperationDefinition>> operations;

    Execution(CatalogReader catalog, CatalogWriter writer, RequestInputs inputs, CacheSettings cache, Telemetry telemetry,
              ScheduledExecutorService deadlines, Function<GraphQLRequest, Optional<OperationDefinition>> operations) {
        this.catalog = catalog;
        this.writer = writer;
        this.inputs = inputs;
        this.cache = cache;
        this.telemetry = telemetry;
        this.deadlines = deadlines;
        this.operations = operations;
    }

    /**
     * One operation, ready to run: its receipt, the guard it reads under, its cache tally; {@code ended} once
     * its answer is whole (for an answer in parts, once its last part is out).
     */
    private record Run(GraphQLRequest request, OperationDefinition.Operation kind, RequestReceipt receipt,
                       RequestGuard guard, CacheControl.Tally tally, ExecutionInput input, OperationSpan span,
                       CompletableFuture<Void> ended) {
    }

    @Override
    public CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next) {
        RequestGuard shared = new RequestGuard(CallObserver.NONE, inputs.limits().maxReadUnits());
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            OperationDefinition.Operation kind = batch.kinds().get(i);
            GraphQLRequest request = batch.requests().get(i);
            OperationSpan span = !telemetry.isOn() ? OperationSpan.NONE : telemetry.operation(request.traceParent(),
                    kind == null ? "query" : kind.name().toLowerCase(java.util.Locale.ROOT),
                    request.operationName() != null ? request.operationName()
                            : operations.apply(request).map(OperationDefinition::getName).orElse(null));
            RequestReceipt receipt = new RequestReceipt(batch.start(), span.observing(inputs.metrics()));
            RequestGuard guard = kind != OperationDefinition.Operation.MUTATION ? shared : new RequestGuard(CallObserver.NONE, 0);
            CacheControl.Tally tally = new CacheControl.Tally(cache);
            ExecutionInput input = inputs.input(request, new RequestScope(catalog, writer, guard.observing(receipt)), false,
                    batch.estimated().get(i), tally, batch.interest());
            if (span.traceId() != null) {
                input.getGraphQLContext().put(ErrorHandler.TRACE_ID, span.traceId());
            }
            runs.add(new Run(request, kind, receipt, guard, tally, input, span, new CompletableFuture<>()));
        }
        List<ExecutionInput> queries = runs.stream().filter(run -> run.guard() == shared).map(Run::input).toList();
        String what = batch.size() > 1 ? "The batch" : "The query";
        var timeout = inputs.limits().timeout();
        ScheduledFuture<?> timer = !queries.isEmpty() && timeout != null ? deadlines.schedule(() -> {
            shared.stop(new RequestStoppedException(Reason.TIME_LIMIT, what + " ran longer than its time limit of "
                    + timeout.toMillis() + " ms (REQUEST_TIMEOUT_MS) and was stopped; this field was not read"));
            queries.forEach(ExecutionInput::cancel);
        }, timeout.toMillis(), TimeUnit.MILLISECONDS) : null;
        if (timer != null) {
            // The time limit holds until the last deferred part is out.
            CompletableFuture.allOf(runs.stream().map(Run::ended).toArray(CompletableFuture[]::new))
                    .whenComplete((value, failure) -> timer.cancel(false));
        }
        return all(runs.stream().map(run -> execute(batch, run)).toList());
    }

    private CompletableFuture<GraphQLAnswer> execute(Batch batch, Run run) {
        return batch.execute(run.input()).whenComplete((result, failure) -> {
            if (failure != null) {
                run.span().end(failure.toString());
                run.ended().complete(null);
            }
        }).thenApply(result -> {
            Map<String, Object> response = new LinkedHashMap<>(ErrorCodes.toSpecification(result, run.guard().isStopped()));
            boolean inParts = result instanceof IncrementalExecutionResult incremental && incremental.hasNext();
            response.remove("hasNext");
            response.put("extensions", extensions(batch, run));
            Outcome outcome = !response.containsKey("data") ? Outcome.REJECTED
                    : response.containsKey("errors") ? Outcome.PARTIAL : Outcome.OK;
            inputs.finish(response, run.input(), run.request(), outcome, batch.start());
            if (inParts && response.get("data") != null) {
                // The first payload: what was not deferred. A cache never keeps a part.
                Map<String, Object> first = new LinkedHashMap<>(response);
                first.remove("extensions");
                first.put("hasNext", true);
                first.put("extensions", response.get("extensions"));
                LaterParts later = new DeferredParts(((IncrementalExecutionResult) result).getIncrementalItemPublisher(),
                        run.input().getGraphQLContext().get(BatchHold.class), run.guard()::isStopped,
                        () -> extensions(batch, run), () -> inputs.overLimit(run.input()),
                        () -> ended(run, null), run.input().getGraphQLContext().get(FieldErrors.class));
                return new GraphQLAnswer(first, CachePolicy.NO_STORE, null, later);
            }
            ended(run, result.getErrors().isEmpty() ? null : result.getErrors().get(0).getMessage());
            // Errors, a trace and writes are never kept; anything else as long as its fields allow.
            boolean keepable = run.kind() == OperationDefinition.Operation.QUERY && batch.mode() == TraceMode.OFF
                    && response.get("data") != null && !response.containsKey("errors");
            return new GraphQLAnswer(response, keepable ? run.tally().policy() : CachePolicy.NO_STORE);
        });
    }

    /** The receipt so far ({@code extensions.cost}), and the trace when asked for. */
    private static Map<String, Object> extensions(Batch batch, Run run) {
        Map<String, Object> extensions = new LinkedHashMap<>();
        extensions.put("cost", run.receipt().cost());
        if (batch.mode() == TraceMode.ON) {
            extensions.put("trace", run.receipt().trace(System.nanoTime()));
        }
        return extensions;
    }

    private static void ended(Run run, String error) {
        run.span().end(error);
        run.ended().complete(null);
    }

    static <T> CompletableFuture<List<T>> all(List<CompletableFuture<T>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> futures.stream().map(CompletableFuture::join).toList());
    }
}
