package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.ListBounds;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.dynamo.read.DynamoCatalog;

import java.time.YearMonth;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The Queries a read of a declared collection makes, derived from the declaration and the entities' key
 * templates: which index, which lists in one Query, and the key condition each one sends.
 */
class ItemCollectionTest {
    private static final MovieId MOVIE = MovieId.of("tt0111161");
    private static final PersonId PERSON = PersonId.of("nm0000151");
    private static final Slice FIRST_PAGE = Slice.page(PageRequest.of(5, null));

    private static List<ItemCollection.Run> plan(CollectionRead read) {
        return DynamoCatalog.steps(read, ListBounds.SLICES);
    }

    private static String condition(ItemCollection.Run run, CollectionRead read) {
        QueryRequest query = run.query("t", read).build();
        return run.render(query.expressionAttributeValues());
    }

    @Test
    void aMovieWithItsFirstCastPageIsOneQueryOfLsi1FromTheMovieItem() {
        CollectionRead read = CollectionRead.movie(MOVIE, true, Map.of(Part.CAST, FIRST_PAGE));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(1, runs.size());
        assertEquals("MOVIE+CAST", runs.get(0).name());
        assertEquals("pk = mov#tt0111161 AND lsi1sk BETWEEN movie AND movie#cast#~", condition(runs.get(0), read));
    }

    @Test
    void theCrewAndTheFirstCastPageReadThroughTheMovieItemInOneQuery() {
        CollectionRead read = CollectionRead.movie(MOVIE, false, Map.of(Part.DIRECTORS, Slice.all(),
                Part.CAST, FIRST_PAGE));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(1, runs.size(), runs.toString());
        assertEquals("DIRECTORS+WRITERS+MOVIE+CAST", runs.get(0).name(), "writers and the movie are read through");
        assertEquals(List.of("DIRECTORS", "CAST"), runs.get(0).wanted().stream().map(s -> s.part().name()).toList());
    }

    @Test
    void aLaterCastPageIsAQueryOfItsOwnBesideTheMoviesGetItem() {
        CollectionRead read = CollectionRead.movie(MOVIE, true,
                Map.of(Part.CAST, Slice.page(PageRequest.of(5, "cursor"))));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(List.of("MOVIE", "CAST"), runs.stream().map(ItemCollection.Run::name).toList());
        assertTrue(runs.get(0).ownerOnly());
        assertEquals("Query", runs.get(1).operation());
        assertEquals("lsi1", runs.get(1).indexLabel());
    }

    @Test
    void aRangeOfMonthsIsBoundedByItsTypedValuesAsALeadingPartOfTheSortKey() {
        CollectionRead read = CollectionRead.movie(MOVIE, false, Map.of(Part.TOTALS,
                Slice.months(new MonthRange(YearMonth.of(2024, 1), YearMonth.of(2024, 6)))));
        ItemCollection.Run run = plan(read).get(0);

        assertEquals("table", run.indexLabel());
        assertEquals("pk = mov#tt0111161 AND sk BETWEEN tot#2024-01 AND tot#2024-06", condition(run, read));

        CollectionRead open = CollectionRead.movie(MOVIE, false, Map.of(Part.TOTALS, Slice.months(MonthRange.ALL)));
        assertEquals("pk = mov#tt0111161 AND begins_with(sk, tot#)", condition(plan(open).get(0), open));
    }

    @Test
    void castAndTotalsTogetherAreOneQueryOfTheBaseTableWhereBothLive() {
        CollectionRead read = CollectionRead.movie(MOVIE, true, Map.of(Part.CAST, FIRST_PAGE,
                Part.TOTALS, Slice.months(new MonthRange(null, YearMonth.of(2024, 6)))));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(1, runs.size(), runs.toString());
        assertEquals("pk = mov#tt0111161 AND sk BETWEEN act# AND tot#2024-06", condition(runs.get(0), read));
    }

    @Test
    void aPersonsAwardsThePersonAndTheirFirstActingPageAreOneQueryOfGsi3() {
        CollectionRead read = CollectionRead.person(PERSON, true, Map.of(Part.PERSON_AWARDS, Slice.all(),
                Part.ACTED, FIRST_PAGE));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(1, runs.size());
        assertEquals("PERSON_AWARDS+PERSON+ACTED", runs.get(0).name());
        assertEquals("gsi3pk = per#nm0000151 AND gsi3sk BETWEEN #award# AND act#~", condition(runs.get(0), read));
    }

    @Test
    void aListOfUnboundedLengthIsNeverReadThroughSoOtherRolesAreQueriesOfTheirOwn() {
        CollectionRead read = CollectionRead.person(PERSON, true, Map.of(Part.DIRECTED, FIRST_PAGE,
                Part.WROTE, FIRST_PAGE));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(List.of("PERSON", "DIRECTED", "WROTE"), runs.stream().map(ItemCollection.Run::name).toList());
        CollectionRead directed = CollectionRead.person(PERSON, false, Map.of(Part.DIRECTED, FIRST_PAGE));
        assertEquals("gsi3pk = per#nm0000151 AND begins_with(gsi3sk, dir#)", condition(plan(directed).get(0), directed));
    }

    @Test
    void everyCollectionIsDescribedInEachIndexThatHoldsItWithItsListsInKeyOrder() {
        List<String> described = TableModel.accessPatterns().stream()
                .filter(pattern -> pattern.name().endsWith("_LSI1") || pattern.name().startsWith("PERSON_COLLECTION"))
                .map(pattern -> pattern.name() + ": " + pattern.keyTemplate()).toList();
        assertTrue(described.contains("MOVIE_COLLECTION_LSI1: pk = mov#{movieId} AND lsi1sk BETWEEN #title# AND movie#cast#~"
                + " (TITLES, MOVIE_AWARDS, DIRECTORS, WRITERS, MOVIE, CAST)"), described.toString());
        assertTrue(described.contains("PERSON_COLLECTION_GSI3: gsi3pk = per#{personId} AND gsi3sk BETWEEN #award# AND wri#~"
                + " (PERSON_AWARDS, PERSON, ACTED, DIRECTED, WROTE)"), described.toString());
    }

    @Test
    void aViewersFirstPageWithItsCountIsOneStronglyConsistentQueryOfLsi1AndACatalogReadIsNotConsistent() {
        CollectionRead read = new CollectionRead(Part.Collection.VIEWER, "auth0|ann", true, Map.of(Part.WATCHLIST, FIRST_PAGE));
        List<ItemCollection.Run> runs = plan(read);

        assertEquals(1, runs.size());
        assertEquals("VIEWER+WATCHLIST", runs.get(0).name());
        assertEquals("pk = vwr#auth0|ann AND lsi1sk BETWEEN viewer AND wl#~", condition(runs.get(0), read));
        assertEquals(Boolean.TRUE, runs.get(0).query("t", read).build().consistentRead(), "a viewer reads their own writes");
        CollectionRead movie = CollectionRead.movie(MOVIE, true, Map.of(Part.CAST, FIRST_PAGE));
        assertEquals(null, plan(movie).get(0).query("t", movie).build().consistentRead());
    }

    @Test
    void theFirstEntryMakesTheViewerItemWithItsTypeIdAndIndexKey() {
        ItemCollection viewer = ItemCollection.of(Part.Collection.VIEWER);
        assertTrue(viewer.isPrivate());
        assertTrue(!ItemCollection.of(Part.Collection.MOVIE).isPrivate());
        Expression made = Expression.of(viewer.ownerCreation("ann"), null);
        assertTrue(made.values().values().containsAll(List.of(
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("viewer"),
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("ann"))), made.toString());
        assertTrue(made.names().values().containsAll(List.of("type", "viewerId", "lsi1sk")), made.toString());
        assertEquals(TableModel.VIEWER.key(Map.of("viewerId", "ann")), viewer.ownerKey("ann"));
    }

    @Test
    void onlyAPrivateCollectionsPartitionNamesAnOwner() {
        assertEquals(java.util.Optional.of(new dev.moviegraph.catalog.CatalogChanges.Owner(Part.Collection.VIEWER, "a#b")),
                ItemCollection.privateOwnerOf("vwr#a#b"));
        assertEquals(java.util.Optional.empty(), ItemCollection.privateOwnerOf("vwr#"));
        assertEquals(java.util.Optional.empty(), ItemCollection.privateOwnerOf("mov#tt0111161"));
        assertEquals(java.util.Optional.empty(), ItemCollection.privateOwnerOf("per#nm0000151"));
    }
}
