package dev.moviegraph.graphql.budget;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.PlannedCall;
import dev.moviegraph.catalog.ReadPlanner;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.StandIns;
import dev.moviegraph.catalog.StoreStatus;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The catalog a planned request (Moviegraph-Trace: plan, and the read budget's estimate) reads through.
 * The real fetchers and DataLoaders run unchanged and call the store's planning reads
 * ({@link CatalogReader#planning()}, which send nothing), with this planner in their context: the store
 * takes its usual decision, tells the planner the calls it would make with its
 * estimate of the read units each consumes at most, and answers with {@link StandIns} (the worst case the
 * arguments allow) instead of calling DynamoDB. Once the sum passes {@code stopAbove} the planning stops
 * expanding (the reads below fail), so a query that would fan out without bound is never expanded
 * without bound either.
 */
public final class PlanningCatalog implements CatalogReader, ReadPlanner {
    private final CatalogReader store;
    private final StandIns standIns = new StandIns();
    private final Map<List<Object>, Integer> planned = new LinkedHashMap<>();
    private final Map<List<Object>, AccessPattern> patterns = new HashMap<>();
    private final Map<List<Object>, Double> readUnits = new HashMap<>();
    private final double stopAbove;
    private double totalReadUnits;

    /** @param stopAbove the estimate past which planning stops expanding; 0 for never */
    public PlanningCatalog(CatalogReader store, double stopAbove) {
        this.store = store.planning();
        this.stopAbove = stopAbove;
    }

    /** The read units every call planned so far consumes at most, together. */
    public synchronized double readUnits() {
        return totalReadUnits;
    }

    /** Whether planning stopped because its estimate passed the bound (it is then a lower bound). */
    public synchronized boolean stopped() {
        return stopAbove > 0 && totalReadUnits > stopAbove;
    }

    /**
     * The failures of a planning run's result, whose data nobody sees: an error stand-ins should never cause (an
     * {@link ErrorType#INTERNAL} one: a fetcher or a store's planning that throws, a null in a non-null
     * field) means fields went unplanned, so the estimate is incomplete. The query's own errors (bad
     * input, an unknown id, the budget) are not failures: the real run reports them too.
     *
     * @return how many of its errors are failures
     */
    public static int failures(graphql.ExecutionResult result) {
        return (int) result.getErrors().stream()
                .filter(error -> ErrorType.INTERNAL.name().equals(ErrorCodes.withCode(error, false).getExtensions().get("code")))
                .count();
    }

    /** The plan: each access pattern with the paths it serves and at most how many calls of it. */
    public synchronized Map<String, Object> describe() {
        List<Map<String, Object>> fields = new ArrayList<>();
        int total = 0;
        for (Map.Entry<List<Object>, Integer> entry : planned.entrySet()) {
            AccessPattern pattern = patterns.get(entry.getKey());
            Map<String, Object> field = new LinkedHashMap<>();
            field.put("paths", entry.getKey().get(1));
            field.put("pattern", pattern.name());
            field.put("operation", pattern.operation());
            field.put("index", pattern.index());
            field.put("keyTemplate", pattern.keyTemplate());
            field.put("calls", entry.getValue());
            field.put("readUnits", readUnits.get(entry.getKey()));
            fields.add(field);
            total += entry.getValue();
        }
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("calls", total);
        plan.put("readUnits", totalReadUnits);
        if (stopped()) {
            plan.put("complete", false);
        }
        plan.put("fields", fields);
        return plan;
    }

    @Override
    public synchronized void record(List<PlannedCall> calls, CallContext context) {
        if (stopped()) {
            throw new RequestStoppedException(Reason.READ_BUDGET,
                    "Not planned: the reads planned before this one are already estimated at more than "
                            + RequestGuard.format(stopAbove) + " read units (MAX_READ_UNITS)");
        }
        for (PlannedCall call : calls) {
            List<Object> key = List.of(call.pattern().name(), context.paths());
            patterns.put(key, call.pattern());
            planned.merge(key, call.calls(), Integer::sum);
            readUnits.merge(key, call.readUnits(), Double::sum);
            totalReadUnits += call.readUnits();
        }
    }

    @Override
    public StandIns standIns() {
        return standIns;
    }

    @Override
    public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        return store.fetch(refs, planning(context));
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        return store.read(read, planning(context));
    }

    @Override
    public CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context) {
        return store.search(read, planning(context));
    }

    @Override
    public CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context) {
        return store.list(read, planning(context));
    }

    @Override
    public CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context) {
        return store.awardWinners(read, planning(context));
    }

    /** A page made from a copy in a planning run has the store's planned cursors, as its planned pages do. */
    @Override
    public String cursor(dev.moviegraph.catalog.Part part, Record entry) {
        return store.cursor(part, entry);
    }

    private CallContext planning(CallContext context) {
        return new CallContext(context.observer(), context.paths(), this);
    }

    @Override
    public CompletableFuture<StoreStatus> ping() {
        return CompletableFuture.completedFuture(StoreStatus.SERVING);
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return store.accessPatterns();
    }
}
