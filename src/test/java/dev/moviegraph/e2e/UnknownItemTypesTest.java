package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.EmptyTableServer;
import dev.moviegraph.support.WsClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A rolling upgrade: a newer gateway beside this one writes items of a type this version does not know,
 * into a movie's and a person's partitions, with sort keys inside the ranges the reads query, and under
 * the keys of the indexes the reads use. This gateway's reads answer as if they were not there, and its
 * writes (a rename that updates copies, a delete) go through; deleting the movie deletes them with it.
 */
class UnknownItemTypesTest {
    private static final String TOKEN = "unknown-item-types-token";
    private static final String MOVIE = "tt9610001";
    private static final String ACTOR = "nm9610001";
    private static final String READS = """
            { movie(id: "tt9610001") { title year cast { totalCount edges { cursor node { billing person { name } } } }
                directors { person { name } } writers { person { name } } }
              person(id: "nm9610001") { name movies { totalCount edges { cursor node { movie { title } } } } }
              search(query: "Zanzibar") { edges { cursor node { ... on Movie { id title } ... on Person { id name } } } }
              movies(ids: ["tt9610001"]) { id title } }""";

    private static EmptyTableServer server;

    @BeforeAll
    static void start() {
        server = new EmptyTableServer(TOKEN, List.of());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void itemsOfATypeThisVersionDoesNotKnowChangeNoReadAndBlockNoWrite() {
        ok("mutation { putMovie(input: {id: \"tt9610001\", title: \"Zanzibar Nights\", year: 2003, genres: [\"Drama\"]}) { id } }");
        ok("mutation { putPerson(input: {id: \"nm9610001\", name: \"Zanzibar Jones\"}) { id } }");
        ok("mutation { castActor(movieId: \"tt9610001\", actorId: \"nm9610001\", characters: [\"Lead\"], billing: 1) { billing } }");
        JsonNode before = ok(READS);

        // Sort keys inside the cast's, the crew's and the search entries' ranges; index keys of the
        // filmography (gsi3), search (gsi4, gsi5) and the movie's cast order (lsi1).
        put(Map.of("pk", "mov#" + MOVIE, "sk", "act#nm9619999", "lsi1sk", "movie#cast#0000#nm9619999",
                "gsi3pk", "per#" + ACTOR, "gsi3sk", "act#0000#aaa#" + MOVIE));
        put(Map.of("pk", "mov#" + MOVIE, "sk", "dir#nm9619999", "lsi1sk", "crew#dir#0000#nm9619999"));
        put(Map.of("pk", "mov#" + MOVIE, "sk", "xw#zanz", "gsi4pk", "srch#zanz", "gsi5pk", "srch#mov#zanz", "srank", "0"));
        put(Map.of("pk", "per#" + ACTOR, "sk", "xw#zanz", "gsi4pk", "srch#zanz", "gsi5pk", "srch#per#zanz", "srank", "1"));
        put(Map.of("pk", "mov#" + MOVIE, "sk", "tot#2026-05-extra"));
        assertEquals(before, ok(READS), "reads answer as if the newer version's items were not there");

        ok("mutation { putMovie(input: {id: \"tt9610001\", title: \"Zanzibar Mornings\", year: 2003, genres: [\"Drama\"]}) { id } }");
        JsonNode renamed = ok(READS);
        assertEquals("Zanzibar Mornings", renamed.path("movie").path("title").asText());
        assertEquals("Zanzibar Mornings", renamed.path("person").path("movies").path("edges").get(0)
                .path("node").path("movie").path("title").asText(), "the rename reached the credit's copy");
        assertEquals("xw#zanz", item("mov#" + MOVIE, "xw#zanz").get("sk").s(), "the newer version's entry is its own");

        assertTrue(ok("mutation { deleteMovie(id: \"tt9610001\") }").path("deleteMovie").asBoolean());
        assertTrue(item("mov#" + MOVIE, "act#nm9619999").isEmpty(), "deleting a movie deletes its whole partition");
        assertTrue(item("mov#" + MOVIE, "xw#zanz").isEmpty());
        JsonNode deleted = ok(READS);
        assertTrue(deleted.path("movie").isNull());
        assertEquals(0, deleted.path("person").path("movies").path("totalCount").asInt());
    }

    @Test
    void itemsOfATypeThisVersionDoesNotKnowStopNoSubscriptionAndChangeNoCount() {
        String movie = "tt9610002";
        String month = "2026-05";
        ok("mutation { putMovie(input: {id: \"tt9610002\", title: \"Quokka Days\", year: 2004, genres: [\"Comedy\"]}) { id } }");
        ok("mutation { putPerson(input: {id: \"nm9610002\", name: \"Quokka Smith\"}) { id } }");
        ok("mutation { castActor(movieId: \"tt9610002\", actorId: \"nm9610002\", characters: [\"Lead\"], billing: 1) { billing } }");
        stream(movie, month);

        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("one", "subscription($id: ID!, $month: YearMonth!) { streamTotalChanged(movieId: $id,"
                    + " month: $month) { streams } }", Map.of("id", movie, "month", month));
            JsonNode first = ws.next(15);
            assertNotNull(first, "no first answer");
            assertEquals(1, first.path("payload").path("data").path("streamTotalChanged").path("streams").asLong(),
                    first.toString());

            // The newer version's items reach the table's stream, which the change feed reads.
            put(Map.of("pk", "mov#" + movie, "sk", "tot#" + month + "-extra"));
            put(Map.of("pk", "per#nm9610002", "sk", "act#" + movie + "-extra"));
            stream(movie, month);

            JsonNode second = ws.next(15);
            assertNotNull(second, "the subscription stopped after the newer version's items were written");
            assertEquals("next", second.path("type").asText(), second.toString());
            assertEquals(2, second.path("payload").path("data").path("streamTotalChanged").path("streams").asLong(),
                    second.toString());
        }
        JsonNode counts = ok("{ movie(id: \"tt9610002\") { cast { totalCount } streamTotals(from: \"" + month + "\", to: \""
                + month + "\") { streams } } person(id: \"nm9610002\") { movies { totalCount } }"
                + " topMovies(month: \"" + month + "\", limit: 5) { streams movie { id } } }");
        assertEquals(1, counts.path("movie").path("cast").path("totalCount").asInt(), counts.toString());
        assertEquals(1, counts.path("person").path("movies").path("totalCount").asInt(), counts.toString());
        assertEquals(2, counts.path("movie").path("streamTotals").get(0).path("streams").asLong(), counts.toString());
        assertEquals(movie, counts.path("topMovies").get(0).path("movie").path("id").asText(), counts.toString());
        assertEquals(2, counts.path("topMovies").get(0).path("streams").asLong(), counts.toString());
    }

    private static void stream(String movie, String month) {
        JsonNode counted = ok("mutation { recordStream(input: {movieId: \"" + movie + "\", streamId: \""
                + java.util.UUID.randomUUID() + "\", at: \"" + month + "-03T12:00:00Z\"}) { counted } }");
        assertTrue(counted.path("recordStream").path("counted").asBoolean(), counted.toString());
    }

    private static void put(Map<String, String> keys) {
        Map<String, AttributeValue> item = new java.util.HashMap<>();
        keys.forEach((name, value) -> item.put(name, AttributeValue.fromS(value)));
        item.put("type", AttributeValue.fromS("trailer"));
        item.put("url", AttributeValue.fromS("https://example.com/trailer"));
        server.sdk().putItem(put -> put.tableName(AppConfig.defaults().tableName()).item(item)).join();
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return server.sdk().getItem(get -> get.tableName(AppConfig.defaults().tableName()).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk)))).join().item();
    }

    private static JsonNode ok(String query) {
        return server.ok(query);
    }
}
