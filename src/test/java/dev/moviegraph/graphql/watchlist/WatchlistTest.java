package dev.moviegraph.graphql.watchlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.ChangeFeed;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.streams.ChangedKeys;
import dev.moviegraph.graphql.live.LiveQueries;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.dynamo.read.DynamoCatalog;
import dev.moviegraph.dynamo.write.DynamoCatalogWriter;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.TraceMode;
import dev.moviegraph.graphql.auth.AuthRules;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.RequestCounter;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * A signed-in viewer's own watchlist through the GraphQL service over the embedded engine: newest first,
 * paged, counted exactly, idempotent adds, removes without a read, a page in one Query and one BatchGetItem,
 * other viewers and nobody refused before any read, a deleted movie's entry kept (movie null, still counted).
 * Each test has a viewer of its own, so the tests share one table.
 */
class WatchlistTest {
    private static final String TABLE = "moviegraph";
    private static final ExecutorService WRITES = Executors.newFixedThreadPool(2);
    private static final AtomicLong NOW = new AtomicLong(Instant.parse("2026-11-29T00:00:00Z").toEpochMilli());
    /** Each call a second later: every add has its own addedAt. */
    private static final Clock CLOCK = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(NOW.addAndGet(1000));
        }
    };
    private static final RequestCounter REQUESTS = new RequestCounter();
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static DynamoCatalogWriter writer;
    private static GraphQLService service;

    static final String PAGE = """
            query Page($first: Int, $after: String) { viewer { id watchlist(first: $first, after: $after) {
              totalCount pageInfo { hasNextPage endCursor } edges { cursor addedAt movieId movie { id title } } } } }""";
    static final String ADD = "mutation Add($id: ID!) { addToWatchlist(movieId: $id) { cursor addedAt movieId movie { title } } }";
    static final String REMOVE = "mutation Remove($id: ID!) { removeFromWatchlist(movieId: $id) }";

    @BeforeAll
    static void table() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of(REQUESTS));
        new TableAdmin(client, TABLE).ensureTable();
        List<Movie> movies = new ArrayList<>();
        for (int m = 1; m <= 9; m++) {
            movies.add(new Movie(MovieId.of(id(m)), "Movie " + m, 2000 + m, null, List.of("Drama"), null));
        }
        new DynamoCatalogImport(client, TABLE, 2).write(movies);
        writer = new DynamoCatalogWriter(client, TABLE, TotalsMode.STREAM, WRITES);
        service = GraphQLService.builder(new DynamoCatalog(client, TABLE, new CursorCodec("a test secret of 16+ chars")),
                        new GatewayMetrics())
                .writer(writer).clock(CLOCK)
                .access(new AuthRules.AccessPolicy(false, true)) // sign-in on: nobody signed in is UNAUTHENTICATED
                .build();
    }

    @AfterAll
    static void close() {
        WRITES.shutdownNow();
        client.close();
        dynamo.close();
    }

    static String id(int movie) {
        return String.format("tt9%06d", movie);
    }

    static Viewer viewer(String subject) {
        return new Viewer(subject, Set.of(), null);
    }

    static Map<String, Object> run(Viewer who, String query, Map<String, Object> variables, TraceMode mode) {
        return service.execute(new GraphQLRequest(query, null, variables).by(who), mode).join();
    }

    static Map<String, Object> run(Viewer who, String query, Map<String, Object> variables) {
        return run(who, query, variables, TraceMode.OFF);
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object from, Object... path) {
        Object at = from;
        for (Object step : path) {
            at = step instanceof Integer index ? ((List<Object>) at).get(index) : ((Map<String, Object>) at).get(step);
        }
        return (T) at;
    }

    static Map<String, Object> add(Viewer who, int movie) {
        Map<String, Object> answer = run(who, ADD, Map.of("id", id(movie)));
        assertNull(answer.get("errors"), answer.toString());
        return at(answer, "data", "addToWatchlist");
    }

    static boolean remove(Viewer who, int movie) {
        Map<String, Object> answer = run(who, REMOVE, Map.of("id", id(movie)));
        assertNull(answer.get("errors"), answer.toString());
        return at(answer, "data", "removeFromWatchlist");
    }

    static Map<String, Object> page(Viewer who, Integer first, String after) {
        Map<String, Object> variables = new java.util.HashMap<>(); // left out, not null: the schema's default applies
        if (first != null) {
            variables.put("first", first);
        }
        if (after != null) {
            variables.put("after", after);
        }
        Map<String, Object> answer = run(who, PAGE, variables);
        assertNull(answer.get("errors"), answer.toString());
        return at(answer, "data", "viewer", "watchlist");
    }

    static List<String> movieIds(Map<String, Object> page) {
        List<Map<String, Object>> edges = at(page, "edges");
        return edges.stream().map(edge -> (String) edge.get("movieId")).toList();
    }

    static String code(Map<String, Object> answer) {
        return at(answer, "errors", 0, "extensions", "code");
    }

    @Test
    void aNewViewerHasAnEmptyListCountedZero() {
        Map<String, Object> page = page(viewer("nobody-yet"), null, null);
        assertEquals(0, (int) at(page, "totalCount"));
        assertEquals(List.of(), movieIds(page));
        assertEquals(false, at(page, "pageInfo", "hasNextPage"));
    }

    @Test
    void entriesComeNewestFirstAndPageOnWithAfter() {
        Viewer alice = viewer("alice-order");
        for (int m : List.of(3, 1, 4, 5, 2)) {
            add(alice, m);
        }
        Map<String, Object> first = page(alice, 2, null);
        assertEquals(List.of(id(2), id(5)), movieIds(first), "the last added first");
        assertEquals(5, (int) at(first, "totalCount"));
        assertEquals(true, at(first, "pageInfo", "hasNextPage"));
        assertEquals("Movie 2", at(first, "edges", 0, "movie", "title"));
        assertEquals("viewer:alice-order", at(run(alice, "{ viewer { id } }", Map.of()), "data", "viewer", "id"));

        Map<String, Object> second = page(alice, 2, at(first, "pageInfo", "endCursor"));
        assertEquals(List.of(id(4), id(1)), movieIds(second));
        Map<String, Object> last = page(alice, 2, at(second, "pageInfo", "endCursor"));
        assertEquals(List.of(id(3)), movieIds(last));
        assertEquals(false, at(last, "pageInfo", "hasNextPage"));

        // The cursor an add answers with pages on from that entry, as a page's would; a later page's count
        // (the viewer item read on its own, consistently) has the add at once.
        Map<String, Object> added = add(alice, 6);
        REQUESTS.reset();
        Map<String, Object> after = page(alice, 2, (String) added.get("cursor"));
        assertEquals(List.of(id(2), id(5)), movieIds(after));
        assertEquals(6, (int) at(after, "totalCount"));
        assertEquals(List.of("BatchGetItem", "GetItem", "Query"),
                REQUESTS.operations().stream().sorted().toList(),
                "a later page: its Query from the cursor, the viewer item by key, the movies in one batch");
    }

    @Test
    void theCountIsExactThroughRepeatedAddsAndRemovesAndARepeatedAddKeepsItsAddedAt() {
        Viewer bob = viewer("bob-count");
        Map<String, Object> first = add(bob, 1);
        add(bob, 2);
        Map<String, Object> again = add(bob, 1);
        assertEquals(first.get("addedAt"), again.get("addedAt"), "the entry as it is: idempotent");
        assertEquals(id(1), again.get("movieId"));
        assertEquals("Movie 1", at(again, "movie", "title"));
        assertEquals(2, (int) at(page(bob, null, null), "totalCount"));
        assertEquals(List.of(id(2), id(1)), movieIds(page(bob, null, null)), "a repeat does not move it up");

        assertTrue(remove(bob, 1));
        assertFalse(remove(bob, 1), "false the second time");
        assertFalse(remove(bob, 7), "never listed");
        Map<String, Object> page = page(bob, null, null);
        assertEquals(1, (int) at(page, "totalCount"));
        assertEquals(List.of(id(2)), movieIds(page));
    }

    @Test
    void anUnknownMovieIsNotFoundAndChangesNothing() {
        Viewer carol = viewer("carol-unknown");
        add(carol, 1);
        Map<String, Object> answer = run(carol, ADD, Map.of("id", "tt0000404"));
        assertEquals("NOT_FOUND", code(answer), answer.toString());
        assertEquals(1, (int) at(page(carol, null, null), "totalCount"));
    }

    @Test
    void aPageIsOneQueryAndOneBatchGetItem() {
        Viewer dave = viewer("dave-cost");
        for (int m = 1; m <= 4; m++) {
            add(dave, m);
        }
        REQUESTS.reset();
        Map<String, Object> answer = run(dave, PAGE, Map.of("first", 3), TraceMode.ON);
        assertNull(answer.get("errors"), answer.toString());
        assertEquals(List.of("Query", "BatchGetItem"), REQUESTS.operations());
        List<Map<String, Object>> calls = at(answer, "extensions", "trace", "calls");
        assertEquals(List.of("Query", "BatchGetItem"), calls.stream().map(call -> call.get("operation")).toList());
        assertEquals("lsi1", calls.get(0).get("index"));
        assertEquals(3, ((List<?>) at(answer, "data", "viewer", "watchlist", "edges")).size());
        assertEquals("Movie 2", at(answer, "data", "viewer", "watchlist", "edges", 2, "movie", "title"));
        assertEquals(2, (int) at(answer, "extensions", "cost", "requests"));
    }

    @Test
    void aViewersAnswerIsNeverCachedForOthers() {
        Viewer gina = viewer("gina-cache");
        add(gina, 1);
        for (String query : List.of(PAGE, "{ viewer { id } }", "{ node(id: \"viewer:gina-cache\") { id } }")) {
            dev.moviegraph.graphql.GraphQLAnswer answer = service.answer(
                    new GraphQLRequest(query, null, Map.of()).by(gina), TraceMode.OFF).join();
            assertNull(answer.body().get("errors"), answer.body().toString());
            assertFalse(answer.cache().cacheable(), query + ": " + answer.cache());
        }
    }

    @Test
    void thePlanOfAPageShowsTheQueryAndTheBatchGetItem() {
        Map<String, Object> answer = run(viewer("erin-plan"), PAGE, Map.of("first", 5), TraceMode.PLAN);
        List<Map<String, Object>> fields = at(answer, "extensions", "plan", "fields");
        assertEquals(List.of("Query", "BatchGetItem"), fields.stream().map(field -> field.get("operation")).toList(),
                fields.toString());
        assertEquals("VIEWER+WATCHLIST", fields.get(0).get("pattern"), "the viewer item and the page, one Query");
        assertEquals("lsi1", fields.get(0).get("index"));
        assertEquals(2, (int) at(answer, "extensions", "plan", "calls"));
    }

    @Test
    void anotherViewerAskingByNodeIdIsForbiddenWithoutAnyRead() {
        Viewer alice = viewer("alice-node");
        add(alice, 1);
        String query = "{ node(id: \"viewer:alice-node\") { id ... on Viewer { watchlist { totalCount } } } }";
        Map<String, Object> own = run(alice, query, Map.of());
        assertNull(own.get("errors"), own.toString());
        assertEquals(1, (int) at(own, "data", "node", "watchlist", "totalCount"));

        REQUESTS.reset();
        Map<String, Object> other = run(viewer("mallory"), query, Map.of());
        assertEquals("FORBIDDEN", code(other), other.toString());
        assertEquals(List.of(), REQUESTS.operations(), "refused before any DynamoDB call");
        assertEquals(0, (int) at(other, "extensions", "cost", "requests"));
        assertNull(at(other, "data", "node"), "a non-null field refused nulls its Viewer");
    }

    @Test
    void nobodySignedInIsUnauthenticatedForTheViewerTheListAndTheMutations() {
        REQUESTS.reset();
        for (String query : List.of("{ viewer { id } }", "{ node(id: \"viewer:alice\") { ... on Viewer { watchlist { totalCount } } } }",
                "mutation { addToWatchlist(movieId: \"" + id(1) + "\") { movieId } }",
                "mutation { removeFromWatchlist(movieId: \"" + id(1) + "\") }")) {
            Map<String, Object> answer = run(Viewer.ANONYMOUS, query, Map.of());
            assertEquals("UNAUTHENTICATED", code(answer), query + ": " + answer);
            assertNull(answer.get("data"), "refused whole, before execution");
        }
        assertEquals(List.of(), REQUESTS.operations());
    }

    @Test
    void aDeletedMoviesEntryStaysWithMovieNullAndStillCounts() {
        Viewer frank = viewer("frank-deleted");
        add(frank, 8);
        add(frank, 9);
        assertTrue(writer.deleteMovie(MovieId.of(id(8)), new CallContext(new GatewayMetrics(), List.of("test"))).join());
        Map<String, Object> page = page(frank, null, null);
        assertEquals(2, (int) at(page, "totalCount"), "the entry stays until the viewer removes it");
        assertEquals(List.of(id(9), id(8)), movieIds(page));
        assertEquals("Movie 9", at(page, "edges", 0, "movie", "title"));
        assertNull(at(page, "edges", 1, "movie"), "the movie is gone from the catalog");
        assertNotNull(at(page, "edges", 1, "addedAt"));

        // Adding it again is NOT_FOUND (the movie is checked), and removing it works as for any entry.
        assertEquals("NOT_FOUND", code(run(frank, ADD, Map.of("id", id(8)))));
        assertTrue(remove(frank, 8));
        assertEquals(1, (int) at(page(frank, null, null), "totalCount"));
    }

    /** Who a subscription told, and how many readings it made (sent or not). */
    static final class Heard implements LiveQueries.Sink {
        final List<Map<String, Object>> messages = new CopyOnWriteArrayList<>();
        final AtomicInteger readings = new AtomicInteger();

        @Override
        public void next(Map<String, Object> result) {
            messages.add(result);
        }

        @Override
        public void error(List<Map<String, Object>> errors) {
            messages.add(Map.of("errors", errors));
        }

        @Override
        public void complete() {
        }

        @Override
        public void consumed(double readUnits) {
            readings.incrementAndGet();
        }

        void awaitReadings(int count) throws InterruptedException {
            long until = System.nanoTime() + 20_000_000_000L;
            while (readings.get() < count && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertEquals(count, readings.get(), messages.toString());
        }
    }

    /** The changes the stream would carry for an item of this key, as the feed maps them (its keys alone). */
    static CatalogChanges changesOf(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> key) {
        ChangedKeys changed = new ChangedKeys();
        changed.add(name -> key.containsKey(name) ? key.get(name).s() : null);
        return changed.changes();
    }

    @Test
    void theFeedNamesTheViewerWhoseItemsChangedAndNoOneElse() {
        CatalogChanges entry = changesOf(TableModel.WATCH_ENTRY.key(Map.of("viewerId", "ann", "movieId", MovieId.of(id(1)))));
        assertEquals(Set.of(new CatalogChanges.Owner(Part.Collection.VIEWER, "ann")), entry.owners());
        assertTrue(entry.movies().isEmpty(), "a watchlist entry changes no movie");
        CatalogChanges count = changesOf(TableModel.VIEWER.key(Map.of("viewerId", "ann:with|odd#chars")));
        assertEquals(Set.of(new CatalogChanges.Owner(Part.Collection.VIEWER, "ann:with|odd#chars")), count.owners());
        assertTrue(changesOf(TableModel.movieKey(MovieId.of(id(1)))).owners().isEmpty(), "a movie names no viewer");
    }

    @Test
    void aChangeOfAlicesListReadsAlicesSubscriptionAgainAndNoOneElses() throws Exception {
        List<Consumer<CatalogChanges>> listeners = new CopyOnWriteArrayList<>();
        ChangeFeed feed = new ChangeFeed() {
            @Override
            public Registration listen(Consumer<CatalogChanges> listener) {
                listeners.add(listener);
                return () -> listeners.remove(listener);
            }

            @Override
            public void close() {
            }
        };
        Viewer alice = viewer("alice-live");
        Viewer bob = viewer("bob-live");
        add(bob, 1);
        String subscription = "subscription { watchlistChanged { id watchlist { totalCount edges { movieId } } } }";
        try (LiveQueries live = new LiveQueries(service, feed)) {
            Heard alices = new Heard();
            Heard bobs = new Heard();
            live.start(new GraphQLRequest(subscription, null, Map.of()).by(alice), alices);
            live.start(new GraphQLRequest(subscription, null, Map.of()).by(bob), bobs);
            alices.awaitReadings(1);
            bobs.awaitReadings(1);
            assertEquals(0, (int) at(alices.messages.get(0), "data", "watchlistChanged", "watchlist", "totalCount"),
                    alices.messages.toString());
            assertEquals(1, (int) at(bobs.messages.get(0), "data", "watchlistChanged", "watchlist", "totalCount"));

            add(alice, 3);
            CatalogChanges changes = changesOf(TableModel.WATCH_ENTRY.key(Map.of("viewerId", "alice-live", "movieId", MovieId.of(id(3)))));
            listeners.forEach(listener -> listener.accept(changes));
            alices.awaitReadings(2);
            assertEquals(2, alices.messages.size());
            assertEquals(1, (int) at(alices.messages.get(1), "data", "watchlistChanged", "watchlist", "totalCount"));
            assertEquals(id(3), at(alices.messages.get(1), "data", "watchlistChanged", "watchlist", "edges", 0, "movieId"));

            // A movie's change (or another viewer's) is not alice's: neither subscription reads again.
            listeners.forEach(listener -> listener.accept(changesOf(TableModel.movieKey(MovieId.of(id(3))))));
            listeners.forEach(listener -> listener.accept(changesOf(TableModel.VIEWER.key(Map.of("viewerId", "carol-live")))));
            Thread.sleep(300);
            assertEquals(2, alices.readings.get());
            assertEquals(1, bobs.readings.get(), "bob's list did not change: not read again");
        }
    }

    @Test
    void nobodySignedInCannotSubscribe() {
        Heard heard = new Heard();
        try (LiveQueries live = new LiveQueries(service, ChangeFeed.NONE)) {
            live.start(new GraphQLRequest("subscription { watchlistChanged { id } }", null, Map.of()), heard);
            long until = System.nanoTime() + 10_000_000_000L;
            while (heard.messages.isEmpty() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
        assertEquals("UNAUTHENTICATED", at(heard.messages.get(0), "errors", 0, "extensions", "code"), heard.messages.toString());
    }
}
