package dev.moviegraph.dynamo.read;

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
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.StoreStatus;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@link DynamoCatalog}'s reads planned, never made: each read takes the very decision the real one takes
 * (the keys of a batch, the Queries its {@link ItemCollection} plans, the {@link IndexRead} of a list),
 * tells the context's planner the calls with the read units each consumes at most, and answers with the
 * planner's stand-ins. It holds no DynamoDB client, so a planning run cannot send a request
 * ({@code ArchitectureTest} keeps it so); and the reads that send refuse a planning context.
 */
final class DynamoReadPlans implements CatalogReader {
    private final ItemWeights weights;

    DynamoReadPlans(ItemWeights weights) {
        this.weights = weights;
    }

    @Override
    public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        Set<ItemRef<?>> distinct = new HashSet<>(refs);
        Access access = Access.byKeys(distinct.size());
        return planned(context, distinct.isEmpty() ? List.of() : List.of(new PlannedCall(access.describe(),
                Access.callsByKeys(distinct.size()), access.estimatedReadUnits(distinct.size(), weights.largest(
                        distinct.stream().map(ref -> TableModel.entityFor(ref.type())).distinct().toList())))), () -> {
            Map<ItemRef<?>, Record> found = new HashMap<>();
            distinct.forEach(ref -> found.put(ref, context.planner().standIns().item(ref)));
            return new Fetched(found, Set.of());
        });
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        List<ItemCollection.Run> runs = ItemCollection.of(read.collection()).plan(read, weights::mostItems);
        return planned(context, runs.stream().map(run -> run.ownerOnly()
                        ? new PlannedCall(Access.GET_ITEM.describe(), 1, Access.GET_ITEM.estimatedReadUnits(1, weights.largest(run)))
                        : new PlannedCall(new AccessPattern(run.name(), null, run.operation(), run.indexLabel(), run.describe()),
                        1, Access.queryReadUnits(weights.mostBytes(run, run.mostItems(read, weights::mostItems))))).toList(),
                () -> context.planner().standIns().page(read, weights::mostItems));
    }

    @Override
    public CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context) {
        return page(IndexRead.of(read), context, () -> context.planner().standIns().search(read));
    }

    @Override
    public CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context) {
        return page(IndexRead.of(read), context, () -> context.planner().standIns().list(read));
    }

    @Override
    public CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context) {
        return page(IndexRead.of(read), context, () -> context.planner().standIns().winners(read));
    }

    private <T> CompletableFuture<Page<T>> page(IndexRead<T> read, CallContext context, Supplier<Page<T>> standIn) {
        Access access = read.list().access();
        return planned(context, List.of(new PlannedCall(access.describe(), 1,
                access.estimatedReadUnits(read.mostEntries(), weights.largest(access)))), standIn);
    }

    private static <T> CompletableFuture<T> planned(CallContext context, List<PlannedCall> calls, Supplier<T> standIn) {
        try {
            context.planner().record(calls, context);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.completedFuture(standIn.get());
    }

    /** A planned page's cursor is a stand-in, as its entries are: a planning run never pages on. */
    @Override
    public String cursor(dev.moviegraph.catalog.Part part, Record entry) {
        return "Planned";
    }

    @Override
    public CompletableFuture<StoreStatus> ping() {
        return CompletableFuture.completedFuture(StoreStatus.SERVING);
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return TableModel.accessPatterns();
    }
}
