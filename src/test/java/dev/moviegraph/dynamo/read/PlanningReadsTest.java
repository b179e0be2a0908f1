package dev.moviegraph.dynamo.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieList;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.SearchQuery;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.graphql.budget.PlanningCatalog;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * A planning run never reaches the code that sends: the store's planning reads work without any DynamoDB
 * client at all, and its reads that send refuse a planning context rather than plan (or call) anything.
 */
class PlanningReadsTest {
    private static final PageRequest TEN = PageRequest.of(10, null);
    /** No client: a planning read that tried to send would fail with a NullPointerException. */
    private final DynamoCatalog store = new DynamoCatalog(null, "moviegraph", new CursorCodec("secret"));

    @Test
    void everyKindOfReadIsPlannedWithoutAClient() {
        PlanningCatalog planning = new PlanningCatalog(store, 0);
        CallContext context = new CallContext(CallObserver.NONE, List.of("test"));

        planning.fetch(List.of(new ItemRef.MovieRef(MovieId.of("tt0111161"))), context).join();
        planning.read(CollectionRead.movie(MovieId.of("tt0111161"), true, Map.of(Part.CAST, Slice.page(TEN))), context).join();
        planning.search(new SearchRead(SearchQuery.parse("shawshank redemption"), Set.of(SearchKind.MOVIE), TEN), context).join();
        planning.list(new ListRead(MovieList.browse("Drama", null), TEN), context).join();
        planning.awardWinners(new AwardWinnersRead("Academy Award", null, TEN), context).join();

        List<?> fields = (List<?>) planning.describe().get("fields");
        assertEquals(List.of("GET_ITEM", "MOVIE+CAST", "SEARCH_KIND", "MOVIE_LIST_PAGE", "AWARD_WINNERS"),
                fields.stream().map(field -> ((Map<?, ?>) field).get("pattern")).toList());
        assertTrue(planning.readUnits() > 0);
    }

    @Test
    void theReadsThatSendRefuseAPlanningContext() {
        PlanningCatalog planner = new PlanningCatalog(store, 0);
        CallContext planningContext = new CallContext(CallObserver.NONE, List.of("test"), planner);

        IllegalStateException refused = assertThrows(IllegalStateException.class, () ->
                store.fetch(List.of(new ItemRef.MovieRef(MovieId.of("tt0111161"))), planningContext));
        assertTrue(refused.getMessage().contains("planning"), refused.getMessage());
        assertThrows(IllegalStateException.class, () -> store.list(new ListRead(MovieList.browse("Drama", null), TEN),
                planningContext));
    }
}
