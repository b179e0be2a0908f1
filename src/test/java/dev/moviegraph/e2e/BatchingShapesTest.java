package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;


import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DataLoader dispatch keeps one level of a query in one batch, whatever shape the query takes: aliases,
 * fragments, lists of lists, three levels of nesting. Counted through the receipt's trace, per access
 * pattern; and against a server with BATCHING=off, which makes one request per key.
 */
class BatchingShapesTest {
    private static Moviegraph unbatched;
    private static GraphQLClient unbatchedClient;

    private final TestServer server = TestServer.get();

    @BeforeAll
    static void startUnbatchedServer() {
        unbatched = Moviegraph.start(AppConfig.defaults().withPort(0).withBatching(false), List.of());
        unbatchedClient = new GraphQLClient(unbatched.port());
    }

    @AfterAll
    static void stopUnbatchedServer() {
        unbatched.close();
    }

    /** The calls a query made, counted by access pattern. */
    private static Map<String, Integer> calls(GraphQLClient client, String query, Map<String, Object> variables) {
        Response response = client.traced("on", query, variables);
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.errors());
        Map<String, Integer> calls = new TreeMap<>();
        for (JsonNode call : response.body().path("extensions").path("trace").path("calls")) {
            calls.merge(call.path("pattern").asText(), 1, Integer::sum);
        }
        int requests = response.body().path("extensions").path("cost").path("requests").asInt();
        assertEquals(calls.values().stream().mapToInt(Integer::intValue).sum(), requests, "one request per call");
        return calls;
    }

    private Map<String, Integer> calls(String query, Map<String, Object> variables) {
        return calls(server.client(), query, variables);
    }

    private List<String> movieIds(int count) {
        return server.sample().movies().stream().limit(count).map(movie -> movie.id().value()).toList();
    }

    @Test
    void aliasesOfOneFieldAreReadInOneBatch() {
        Map<String, Integer> calls = calls("""
                { a: movie(id: "tt0111161") { title } b: movie(id: "tt0068646") { year }
                  c: movie(id: "tt0133093") { genres } d: person(id: "nm0000151") { name } }""", Map.of());

        assertEquals(Map.of("BATCH_GET_ITEM", 1), calls);
    }

    @Test
    void fragmentsAndInlineFragmentsAtOneLevelShareOneBatch() {
        Map<String, Integer> calls = calls("""
                fragment Details on Movie { genres runtimeMinutes }
                { topMovies(month: "2024-05", limit: 5) { movie { ...Details } }
                  streamTotal(movieId: "tt0068646", month: "2024-05") { movie { ... on Movie { releaseDate } } } }""",
                Map.of());

        // Level one: the month's top list and the total, two items by key in one batch; level two: all six movies.
        assertEquals(Map.of("BATCH_GET_ITEM", 2), calls);
    }

    @Test
    void listsOfListsMakeOneBatchPerLevelWhenTheirFirstCastsAreCopied() {
        List<String> ids = movieIds(5);

        Map<String, Integer> calls = calls("""
                query($ids: [ID!]!) { movies(ids: $ids) { title
                  cast(first: 3) { edges { node { person { birthYear } } } } } }""", Map.of("ids", ids));
        // Past the copy (five), each movie's cast is a Query of its collection, all of one level together.
        Map<String, Integer> longer = calls("""
                query($ids: [ID!]!) { movies(ids: $ids) { title
                  cast(first: 6) { edges { node { person { birthYear } } } } } }""", Map.of("ids", ids));

        // The movies with their first casts, then the people: a batch a level.
        assertEquals(Map.of("BATCH_GET_ITEM", 2), calls);
        assertEquals(Map.of("MOVIE+CAST", 5, "BATCH_GET_ITEM", 1), longer);
    }

    @Test
    void threeLevelsOfNestingMakeOneBatchPerLevel() {
        Map<String, Integer> calls = calls("""
                { movie(id: "tt0111161") { title cast(first: 3) { edges { node { person { birthYear
                    movies(first: 2) { edges { node { movie { genres
                      cast(first: 2) { edges { node { person { birthYear } } } } } } } } } } } } } }""", Map.of());

        // The movie with its first cast (one GetItem); its 3 actors: one read by key and 3 filmographies; their
        // movies (shared ones once) with their first casts: one read by key; those casts' actors: one read by key.
        assertEquals(3, calls.get("ACTED"));
        assertEquals(4, calls.getOrDefault("GET_ITEM", 0) + calls.getOrDefault("BATCH_GET_ITEM", 0),
                "one read by key per level that needs items (a GetItem where it has one key): " + calls);
        assertEquals(Set.of("ACTED", "GET_ITEM", "BATCH_GET_ITEM"), Set.copyOf(calls.keySet()), "no cast Query: " + calls);
    }

    @Test
    void moreThanOneHundredKeysAtOneLevelAreSplitIntoBatchesOfOneHundred() {
        List<String> ids = movieIds(100);
        Map<String, Integer> calls = calls("""
                query($ids: [ID!]!) { movies(ids: $ids) { title } people(ids: ["nm0000151", "nm0000209"]) { name } }""",
                Map.of("ids", ids));

        assertEquals(Map.of("BATCH_GET_ITEM", 2), calls, "102 keys: 100 + 2");
    }

    @Test
    void withBatchingOffEveryKeyIsItsOwnRequest() {
        List<String> ids = movieIds(20);
        String query = "query($ids: [ID!]!) { movies(ids: $ids) { title } }";

        assertEquals(Map.of("BATCH_GET_ITEM", 1), calls(query, Map.of("ids", ids)));
        assertEquals(Map.of("GET_ITEM", 20), calls(unbatchedClient, query, Map.of("ids", ids)));
    }

    @Test
    void withBatchingOffNestedKeysAreReadOneByOneAndTheDataIsTheSame() {
        String query = """
                { topMovies(month: "2024-05", limit: 10) { streams movie { title genres } } }""";

        Response batched = server.client().query(query);
        Response naive = unbatchedClient.query(query);

        assertEquals(batched.data(), naive.data());
        assertEquals(Map.of("GET_ITEM", 1, "BATCH_GET_ITEM", 1), calls(query, Map.of()));
        assertEquals(Map.of("GET_ITEM", 11), calls(unbatchedClient, query, Map.of()));
    }
}
