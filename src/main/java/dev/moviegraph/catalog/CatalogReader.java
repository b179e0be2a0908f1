package dev.moviegraph.catalog;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The read port the GraphQL layer calls: two generic reads, items by key and one collection or index
 * partition, that a store answers with its access patterns; none of them scans. Implementations must
 * answer a whole batch with the fewest requests the pattern allows, and report every call to the
 * context's observer.
 *
 * <p>A planning run (the context carries a {@link ReadPlanner}) reads through {@link #planning()}: the store
 * takes the very same decisions there, tells the planner the calls it would make, and answers with
 * stand-ins instead of calling anything.
 */
public interface CatalogReader {

    /** Fetches items by key, any types mixed. */
    CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context);

    /** Reads parts of one item collection or index partition. */
    CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context);

    /** A page of search results, best ranked first: one index Query. */
    CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context);

    /** A page of a list of movies (browse, top rated), in the list's order: one index Query. */
    CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context);

    /** A page of an award's winners, newest first (nominations are not in the index): one index Query. */
    CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context);

    /**
     * The cursor of {@code entry}, an item of the paged list {@code part}, as a page read would give it: what
     * a write answers an entry it added with, so a client can page on from it.
     */
    default String cursor(Part part, Record entry) {
        throw new UnsupportedOperationException("This store gives no cursor of a written entry");
    }

    /** Whether the store answers, and the gateway sends it queries (a probe that may close an outage breaker). */
    CompletableFuture<StoreStatus> ping();

    /**
     * The reads a planning run goes through: the same decisions, each call told to the context's planner and
     * never sent. A store whose reads send requests answers with a reader that cannot (DynamoDB's holds no
     * client); this default, for a store in memory, is the store itself, which answers a planning context.
     */
    default CatalogReader planning() {
        return this;
    }

    /** Every access pattern the store has; each serves one {@link CatalogAccess}. */
    List<AccessPattern> accessPatterns();
}
