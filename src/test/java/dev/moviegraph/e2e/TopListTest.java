package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.TestServer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A month's top list through the real server (TOTALS=transactional): exact for every limit right after the
 * mutations return, equal totals in one order (the lower movie id first), a deleted movie gone from it and a
 * renamed one shown with its new title, each read one GetItem.
 */
class TopListTest {
    private static final String MONTH = "2001-03";

    private static GraphQLClient.Response mutate(GraphQLClient client, String mutation, Map<String, Object> variables) {
        return client.post(GraphQLClient.body(mutation, variables), "application/json", "application/json");
    }

    private static List<String> top(GraphQLClient client, int limit, List<Long> counts, List<String> titles) {
        List<String> top = new ArrayList<>();
        client.query("query($month: YearMonth!, $limit: Int) { topMovies(month: $month, limit: $limit) "
                + "{ streams movie { id title } } }", Map.of("month", MONTH, "limit", limit)).data().path("topMovies")
                .forEach(entry -> {
                    top.add(entry.path("movie").path("id").asText());
                    counts.add(entry.path("streams").asLong());
                    titles.add(entry.path("movie").path("title").asText());
                });
        return top;
    }

    @Test
    void theTopListIsExactTiesAreOrderedByMovieIdAndDeletionsAndRenamesShowAtOnce() {
        TestServer server = TestServer.get();
        GraphQLClient client = server.client();
        Map<String, Integer> streams = new LinkedHashMap<>();
        int[] counts = {9, 8, 8, 7, 6, 6, 8, 6, 6, 5, 5, 5};
        for (int i = 0; i < counts.length; i++) {
            // ids out of order, so that ties are not in the order they were written
            streams.put(String.format("tt99%05d", (i * 7) % counts.length + 1), counts[i]);
        }
        streams.forEach((id, count) -> {
            GraphQLClient.Response created = mutate(client, "mutation($id: ID!, $title: String!) { putMovie(input: "
                    + "{id: $id, title: $title}) { id } }", Map.of("id", id, "title", "Top " + id));
            assertEquals(id, created.data().path("putMovie").path("id").asText(), created.raw().body());
            for (int s = 0; s < count; s++) {
                GraphQLClient.Response recorded = mutate(client, "mutation($m: ID!, $s: ID!) { recordStream(input: "
                        + "{movieId: $m, streamId: $s, at: \"" + MONTH + "-10T08:00:00Z\"}) { counted } }",
                        Map.of("m", id, "s", "top-" + id + "-" + s));
                assertTrue(recorded.data().path("recordStream").path("counted").asBoolean(), recorded.raw().body());
            }
        });
        List<String> expected = new ArrayList<>(streams.keySet().stream()
                .sorted(Comparator.comparing((String id) -> -streams.get(id)).thenComparing(id -> id)).toList());

        for (int limit : new int[] {1, 3, 6, 12, 100}) {
            List<Long> read = new ArrayList<>();
            List<String> top = top(client, limit, read, new ArrayList<>());
            assertEquals(expected.subList(0, Math.min(limit, expected.size())), top, "top " + limit);
            assertEquals(top.stream().map(id -> (long) streams.get(id)).toList(), read);
        }

        String best = expected.get(0);
        GraphQLClient.Response deleted = mutate(client, "mutation($id: ID!) { deleteMovie(id: $id) }", Map.of("id", best));
        assertTrue(deleted.data().path("deleteMovie").asBoolean(), deleted.raw().body());
        expected.remove(best);
        String second = expected.get(0);
        GraphQLClient.Response renamed = mutate(client, "mutation($id: ID!) { putMovie(input: {id: $id, title: \"Renamed\"}) "
                + "{ id } }", Map.of("id", second));
        assertEquals(second, renamed.data().path("putMovie").path("id").asText(), renamed.raw().body());

        List<String> titles = new ArrayList<>();
        assertEquals(expected, top(client, 100, new ArrayList<>(), titles), "the deleted movie left the list");
        assertEquals("Renamed", titles.get(0));
        TestServer.Counted read = server.counted("{ topMovies(month: \"" + MONTH + "\", limit: 100) { streams movie { id title } } }");
        assertEquals(List.of("GetItem"), read.operations(), "titles come with the list");
    }
}
