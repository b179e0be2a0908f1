package dev.moviegraph.graphql;

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
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.StoreStatus;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The {@link StubCatalog}, every read handed to it: a test overrides the reads it changes. */
abstract class StubCatalogWrapper implements CatalogReader {
    final StubCatalog stub = StubCatalog.complete(Set.of());

    @Override
    public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        return stub.fetch(refs, context);
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        return stub.read(read, context);
    }

    @Override
    public CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context) {
        return stub.search(read, context);
    }

    @Override
    public CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context) {
        return stub.list(read, context);
    }

    @Override
    public CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context) {
        return stub.awardWinners(read, context);
    }

    @Override
    public CompletableFuture<StoreStatus> ping() {
        return stub.ping();
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return stub.accessPatterns();
    }
}
