package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.RequestCounter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What "served" means for {@link LayoutMigrationTest}: a real server on the migrated table answers with the
 * data the table had before.
 */
final class MigratedServer {
    private MigratedServer() {
    }

    /** The environment of a server on the embedded engine with its data in {@code dataDir}. */
    static Map<String, String> embeddedEnvironment(Path dataDir) {
        return Map.of("DYNAMODB_DATA_DIR", dataDir.toString(), "PORT", "0");
    }

    /** A real server on {@code dir} answers the month's top 10 with {@code expected}, in one GetItem. */
    static void assertServedTop(Path dir, String month, List<String> expected) {
        RequestCounter counter = new RequestCounter();
        Map<String, String> environment = Map.of("DYNAMODB_DATA_DIR", dir.toString(), "PORT", "0", "LOAD_SAMPLE", "false",
                "SUBSCRIPTIONS", "off");
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(environment), List.of(counter))) {
            counter.reset();
            List<String> top = new ArrayList<>();
            new GraphQLClient(server.port()).query("query($m: YearMonth!) { topMovies(month: $m, limit: 10) { streams movie { id title } } }",
                    Map.of("m", month)).data().path("topMovies").forEach(entry -> top.add(entry.path("movie").path("id").asText()));
            assertEquals(List.of("GetItem"), counter.operations(), "the top 10 of " + month + " in one request");
            assertEquals(expected, top, "top of " + month);
        }
    }

    /** Served after layout 3: a movie found by its title's words, a person's filmography counted. */
    static void assertSearchable(Path dataDir, List<Map<String, AttributeValue>> before) {
        Map<String, AttributeValue> movie = before.stream().filter(item -> item.get("type").s().equals("movie"))
                .findFirst().orElseThrow();
        Map<String, Long> creditsByActor = before.stream().filter(item -> item.get("type").s().equals("cast"))
                .collect(Collectors.groupingBy(item -> item.get("actorId").s(), Collectors.counting()));
        Map.Entry<String, Long> busiest = creditsByActor.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            String words = String.join(" ", SearchText.words(movie.get("title").s()));
            JsonNode found = graphql.query("query($q: String!) { search(query: $q, types: [MOVIE], first: 100) { edges {"
                    + " node { ... on Movie { id } } } } }", Map.of("q", words.substring(0, Math.min(words.length(), 100)))).body();
            assertTrue(found.toString().contains(movie.get("movieId").s()), words + ": " + found);
            JsonNode person = graphql.query("query($id: ID!) { person(id: $id) { movies { totalCount } } }",
                    Map.of("id", busiest.getKey())).data().path("person");
            assertEquals(busiest.getValue().intValue(), person.path("movies").path("totalCount").asInt());
        }
    }

    /** Served after migrate: filmographies newest first and complete, every recorded stream still known. */
    static void assertServed(Path dataDir, List<Map<String, AttributeValue>> before) {
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            // Filmographies newest first, and complete: the people with the most credits.
            Map<String, Long> creditsByActor = before.stream().filter(item -> item.get("type").s().equals("cast"))
                    .collect(Collectors.groupingBy(item -> item.get("actorId").s(), Collectors.counting()));
            List<String> busiest = creditsByActor.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(5).map(Map.Entry::getKey).toList();
            for (String id : busiest) {
                JsonNode movies = graphql.query("query($id: ID!) { person(id: $id) { name movies(first: 100) { edges { node {"
                        + " movie { id year } } } } } }", Map.of("id", id)).data().path("person").path("movies").path("edges");
                assertEquals(creditsByActor.get(id).intValue(), movies.size(), "filmography of " + id);
                int previous = Integer.MAX_VALUE;
                for (JsonNode edge : movies) {
                    JsonNode year = edge.path("node").path("movie").path("year");
                    int current = year.isNull() ? Integer.MIN_VALUE : year.asInt();
                    assertTrue(current <= previous, "newest first in the filmography of " + id);
                    previous = current;
                }
            }
            // Every recorded stream is still known: a retry is not counted again.
            List<Map<String, AttributeValue>> streams = before.stream()
                    .filter(item -> item.get("type").s().equals("stream")).toList();
            assertFalse(streams.isEmpty(), "the fixture has streams");
            for (Map<String, AttributeValue> stream : streams) {
                JsonNode receipt = graphql.post(GraphQLClient.body("mutation($in: StreamInput!) { recordStream(input: $in)"
                                + " { counted } }", Map.of("in", Map.of("movieId", stream.get("movieId").s(),
                                "streamId", stream.get("streamId").s(), "at", stream.get("at").s()))),
                        "application/json", "application/json").body();
                assertFalse(receipt.path("data").path("recordStream").path("counted").asBoolean(true),
                        "retry of " + stream.get("streamId").s() + ": " + receipt);
            }
        }
    }
}
