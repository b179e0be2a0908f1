package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.TopShards;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.TestServer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * A month's top list is spread over {@link TopShards#COUNT} index partitions and read as one Query per
 * shard, merged: it is exact when the best totals all sit in one shard, and equal totals come in one
 * order (the lower movie id first), whichever shards they are in.
 */
class TopListShardsTest {
    private static final String MONTH = "2001-03";

    private static GraphQLClient.Response mutate(GraphQLClient client, String mutation, Map<String, Object> variables) {
        return client.post(GraphQLClient.body(mutation, variables), "application/json", "application/json");
    }

    @Test
    void theTopListIsExactAcrossShardsAndTiesAreOrderedByMovieId() {
        GraphQLClient client = TestServer.get().client();
        // Six movies of one shard take the six best totals; six of other shards tie with them and each other.
        List<String> sameShard = new ArrayList<>();
        List<String> others = new ArrayList<>();
        int shard = TopShards.of(MovieId.of("tt9900000"));
        for (int n = 1; sameShard.size() < 6 || others.size() < 6; n++) {
            String id = String.format("tt99%05d", n);
            boolean same = TopShards.of(MovieId.of(id)) == shard;
            if (same && sameShard.size() < 6) {
                sameShard.add(id);
            } else if (!same && others.size() < 6 && others.stream().noneMatch(o -> TopShards.of(MovieId.of(o)) == TopShards.of(MovieId.of(id)))) {
                others.add(id);
            }
        }
        Map<String, Integer> streams = new LinkedHashMap<>();
        int[] best = {9, 8, 8, 7, 6, 6};
        for (int i = 0; i < 6; i++) {
            streams.put(sameShard.get(i), best[i]);
        }
        int[] tied = {8, 6, 6, 5, 5, 5};
        for (int i = 0; i < 6; i++) {
            streams.put(others.get(i), tied[i]);
        }
        assertTrue(streams.keySet().stream().map(id -> TopShards.of(MovieId.of(id))).collect(Collectors.toSet()).size() >= 6,
                "the movies are spread over several shards");
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
        List<String> expected = streams.keySet().stream()
                .sorted(Comparator.comparing((String id) -> -streams.get(id)).thenComparing(id -> id)).toList();

        for (int limit : new int[] {1, 3, 6, 12, 100}) {
            List<String> top = new ArrayList<>();
            List<Long> counts = new ArrayList<>();
            client.query("query($month: YearMonth!, $limit: Int) { topMovies(month: $month, limit: $limit) "
                    + "{ streams movie { id } } }", Map.of("month", MONTH, "limit", limit)).data().path("topMovies")
                    .forEach(entry -> {
                        top.add(entry.path("movie").path("id").asText());
                        counts.add(entry.path("streams").asLong());
                    });
            assertEquals(expected.subList(0, Math.min(limit, expected.size())), top, "top " + limit);
            assertEquals(top.stream().map(id -> (long) streams.get(id)).toList(), counts);
        }
        assertTrue(expected.subList(0, 6).stream().filter(sameShard::contains).count() >= 4,
                "most of the top six come from one shard's Query");
    }
}
