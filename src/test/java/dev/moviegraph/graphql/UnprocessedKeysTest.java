package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.moviegraph.metrics.GatewayMetrics;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * A key DynamoDB still leaves unprocessed after the retry budget fails exactly the fields that needed
 * it, with UNAVAILABLE; every other field of the same batch keeps its data.
 */
class UnprocessedKeysTest {
    private static final String BUSY = "tt0000002";

    private final StubCatalog catalog = StubCatalog.complete(Set.of(BUSY));
    private final GraphQLService service = GraphQLService.builder(catalog, new GatewayMetrics()).build();

    private Map<String, Object> run(String query) {
        return service.execute(new GraphQLRequest(query, null, Map.of()), TraceMode.OFF).join();
    }

    @Test
    @SuppressWarnings("unchecked")
    void onlyTheMovieWhoseKeyStayedUnprocessedFailsInAListReadInOneBatch() {
        Map<String, Object> result = run("{ movies(ids: [\"tt0000001\", \"" + BUSY + "\", \"tt0000003\"]) { id title } }");

        List<Map<String, Object>> movies = (List<Map<String, Object>>) ((Map<String, Object>) result.get("data")).get("movies");
        assertEquals("Title of tt0000001", movies.get(0).get("title"));
        assertNull(movies.get(1));
        assertEquals("Title of tt0000003", movies.get(2).get("title"));
        List<Map<String, Object>> errors = (List<Map<String, Object>>) result.get("errors");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(List.of("movies", 1), errors.get(0).get("path"));
        assertEquals("UNAVAILABLE", ((Map<String, Object>) errors.get(0).get("extensions")).get("code"));
        assertEquals(1, catalog.fetches.size(), "one batch for the whole level");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aliasesThatDoNotNeedTheKeyKeepTheirData() {
        Map<String, Object> result = run("{ ok: movie(id: \"tt0000001\") { title } busy: movie(id: \"" + BUSY
                + "\") { title } person: person(id: \"nm0000001\") { name } }");

        Map<String, Object> data = (Map<String, Object>) result.get("data");
        assertEquals(Map.of("title", "Title of tt0000001"), data.get("ok"));
        assertNull(data.get("busy"));
        assertEquals(Map.of("name", "Name of nm0000001"), data.get("person"));
        List<Map<String, Object>> errors = (List<Map<String, Object>>) result.get("errors");
        assertEquals(List.of(List.of("busy")), errors.stream().map(error -> error.get("path")).toList());
    }
}
