package dev.moviegraph.graphql;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.ItemRef.MovieRef;
import dev.moviegraph.catalog.ItemRef.PersonRef;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.StoreStatus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A catalog in memory for the GraphQL layer's own tests: every movie and person exists (named after its
 * id) except the keys marked unavailable, which it reports as never processed, as DynamoDB's
 * UnprocessedKeys do after the retry budget. Records each fetch's keys. Collections other than a month's
 * (empty) top list are not in this stub. A planning run plans no calls and answers with stand-ins.
 */
final class StubCatalog implements CatalogReader {
    private final Set<String> unavailableIds;
    private final List<AccessPattern> patterns;
    final List<Set<ItemRef<?>>> fetches = new ArrayList<>();

    StubCatalog(Set<String> unavailableIds, CatalogAccess... served) {
        this.unavailableIds = unavailableIds;
        this.patterns = Arrays.stream(served)
                .map(read -> new AccessPattern("STUB_" + read, read, "Stub", "table", "pk = stub"))
                .toList();
    }

    static StubCatalog complete(Set<String> unavailableIds) {
        return new StubCatalog(unavailableIds, CatalogAccess.values());
    }

    @Override
    public synchronized CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        if (context.planning()) {
            context.planner().record(List.of(), context);
            Map<ItemRef<?>, Record> found = new HashMap<>();
            refs.forEach(ref -> found.put(ref, context.planner().standIns().item(ref)));
            return CompletableFuture.completedFuture(new Fetched(found, Set.of()));
        }
        fetches.add(new HashSet<>(refs));
        Map<ItemRef<?>, Record> found = new HashMap<>();
        Set<ItemRef<?>> unavailable = new HashSet<>();
        for (ItemRef<?> ref : refs) {
            if (ref instanceof MovieRef movie) {
                if (unavailableIds.contains(movie.id().value())) {
                    unavailable.add(ref);
                } else {
                    found.put(ref, new Movie(movie.id(), "Title of " + movie.id().value(), 2000, null, List.of(), null));
                }
            } else if (ref instanceof PersonRef person) {
                if (unavailableIds.contains(person.id().value())) {
                    unavailable.add(ref);
                } else {
                    found.put(ref, new Person(person.id(), "Name of " + person.id().value(), 1970, null));
                }
            }
        }
        return CompletableFuture.completedFuture(new Fetched(found, unavailable));
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        if (context.planning()) {
            context.planner().record(List.of(), context);
            return CompletableFuture.completedFuture(context.planner().standIns().page(read));
        }
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<dev.moviegraph.catalog.Page<dev.moviegraph.catalog.SearchHit>> search(
            dev.moviegraph.catalog.SearchRead read, CallContext context) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<dev.moviegraph.catalog.Page<dev.moviegraph.catalog.SearchHit>> list(
            dev.moviegraph.catalog.ListRead read, CallContext context) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<dev.moviegraph.catalog.Page<dev.moviegraph.catalog.Award>> awardWinners(
            dev.moviegraph.catalog.AwardWinnersRead read, CallContext context) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<StoreStatus> ping() {
        return CompletableFuture.completedFuture(StoreStatus.SERVING);
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return patterns;
    }
}
