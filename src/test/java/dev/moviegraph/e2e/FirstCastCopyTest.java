package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.dynamo.admin.FirstCastFill;
import dev.moviegraph.support.EmptyTableServer;
import dev.moviegraph.support.RequestCounter;
import dev.moviegraph.support.TestServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A movie item copies its first five billed cast, so a first cast page of up to five is read with the movie,
 * by key: the movies of one level of a query with their casts are one BatchGetItem, not a Query each. The
 * copy answers exactly what the credits' Query answers (the same cursors, counts and pages), and every write
 * keeps it so: a credit added, removed or rebilled, an uncredited one, a rename, a retitle, writes racing,
 * and a movie written before copies were kept, which reads its credits until {@code migrate} fills it.
 */
class FirstCastCopyTest {
    private static final String TOKEN = "first-cast-token";
    /** Past the copy: a page the credits' Query answers, the truth the copy is held to. */
    private static final String TRUTH = "cast(first: 10) { totalCount edges { cursor node { billing characters person { id name } } } }";
    private static final String COPY = "cast(first: 5) { totalCount pageInfo { hasNextPage endCursor } "
            + "edges { cursor node { billing characters person { id name } } } }";

    private final TestServer server = TestServer.get();

    @Test
    void aFilmographyWithEachMoviesFirstCastIsOneRequestPerLevel() {
        String person = "person(id: \"nm5161932\") { name movies(first: 10) { edges { node { movie { title %s } } } } }";
        String people = "edges { node { person { name birthYear } } }";
        TestServer.Counted twelve = server.counted("{ " + person.formatted("cast(first: 3) { " + people + " }") + " }");
        TestServer.Counted eleven = server.counted("{ " + person.formatted(
                "cast(first: 3) { edges { node { person { name } } } }") + " }");
        TestServer.Counted truth = server.counted("{ " + person.formatted("cast(first: 10) { " + people + " }") + " }");

        // The person with their films (one Query), the films' items with their casts (one BatchGetItem), the
        // casts' people (one BatchGetItem): 3 requests where the casts' Queries made 12.
        assertEquals(List.of("Query", "BatchGetItem", "BatchGetItem"), twelve.operations());
        assertEquals(List.of("Query", "BatchGetItem"), eleven.operations());
        JsonNode films = twelve.data().path("person").path("movies").path("edges");
        assertEquals(10, films.size(), "the sample's person has ten films or more");
        JsonNode expected = truth.data().path("person").path("movies").path("edges");
        for (int i = 0; i < films.size(); i++) {
            JsonNode cast = films.get(i).path("node").path("movie").path("cast").path("edges");
            JsonNode all = expected.get(i).path("node").path("movie").path("cast").path("edges");
            assertEquals(firstOf(all, 3), cast, "film " + i);
            JsonNode names = eleven.data().path("person").path("movies").path("edges").get(i)
                    .path("node").path("movie").path("cast").path("edges");
            assertEquals(cast.size(), names.size(), "film " + i);
            for (int j = 0; j < names.size(); j++) {
                assertEquals(cast.get(j).path("node").path("person").path("name"), names.get(j).path("node").path("person").path("name"));
            }
        }
    }

    @Test
    void moviesByIdWithTheirFirstCastAreOneBatchGetItemAndPageOnFromItsCursor() {
        List<String> ids = server.sample().movies().stream().limit(5).map(movie -> movie.id().value()).toList();
        String list = String.join("\", \"", ids);
        TestServer.Counted copied = server.counted("{ movies(ids: [\"" + list + "\"]) { id " + COPY + " } }");
        TestServer.Counted truth = server.counted("{ movies(ids: [\"" + list + "\"]) { id " + TRUTH + " } }");

        assertEquals(List.of("BatchGetItem"), copied.operations());
        for (int i = 0; i < ids.size(); i++) {
            JsonNode page = copied.data().path("movies").get(i).path("cast");
            assertMatches(truth.data().path("movies").get(i).path("cast"), page, ids.get(i));
            if (page.path("pageInfo").path("hasNextPage").asBoolean()) {
                // The copy's cursor is the credits' own: the next page starts right after it.
                JsonNode next = server.counted("{ movie(id: \"" + ids.get(i) + "\") { cast(first: 1, after: \""
                        + page.path("pageInfo").path("endCursor").asText() + "\") { edges { node { person { id } } } } } }")
                        .data().path("movie").path("cast").path("edges");
                assertEquals(truth.data().path("movies").get(i).path("cast").path("edges").get(5).path("node")
                        .path("person").path("id"), next.get(0).path("node").path("person").path("id"));
            }
        }
    }

    @Test
    void everyCastWriteKeepsTheCopyTrue() {
        RequestCounter counter = new RequestCounter();
        try (EmptyTableServer table = new EmptyTableServer(TOKEN, List.of(counter))) {
            table.ok("mutation { putMovie(input: {id: \"tt9700001\", title: \"Copy Cat\", year: 2001}) { id } }");
            for (int i = 1; i <= 8; i++) {
                table.ok("mutation { putPerson(input: {id: \"nm970000" + i + "\", name: \"Player " + i + "\"}) { id } }");
            }
            assertCopied(table, counter, "tt9700001", 0);
            int[] billings = {3, 1, 2, 7, 5, 6, 4};
            for (int i = 0; i < billings.length; i++) {
                cast(table, "tt9700001", "nm970000" + (i + 1), String.valueOf(billings[i]));
                assertCopied(table, counter, "tt9700001", i + 1);
            }
            cast(table, "tt9700001", "nm9700008", "null"); // uncredited: listed last
            assertCopied(table, counter, "tt9700001", 8);
            table.ok("mutation { uncastActor(movieId: \"tt9700001\", actorId: \"nm9700002\") }"); // billed first
            assertCopied(table, counter, "tt9700001", 7);
            cast(table, "tt9700001", "nm9700003", "50"); // billed second, now after all the others
            assertCopied(table, counter, "tt9700001", 7);
            cast(table, "tt9700001", "nm9700006", "1"); // from sixth to first
            assertCopied(table, counter, "tt9700001", 7);
            for (String billing : List.of("2", "8", "5", "9")) { // within the copy, just past it, back, past again
                cast(table, "tt9700001", "nm9700007", billing);
                assertCopied(table, counter, "tt9700001", 7);
            }
            table.ok("mutation { putPerson(input: {id: \"nm9700006\", name: \"Renamed Player\"}) { id } }");
            assertEquals("Renamed Player", assertCopied(table, counter, "tt9700001", 7)
                    .path("edges").get(0).path("node").path("person").path("name").asText());
            table.ok("mutation { putMovie(input: {id: \"tt9700001\", title: \"Copy Cat II\", year: 2002}) { id } }");
            assertCopied(table, counter, "tt9700001", 7);
        }
    }

    @Test
    void castWritesAndMoviePutsRacingOnOneMovieLeaveItsCountAndCopyTrue() throws Exception {
        RequestCounter counter = new RequestCounter();
        ExecutorService writers = Executors.newFixedThreadPool(8);
        try (EmptyTableServer table = new EmptyTableServer(TOKEN, List.of(counter))) {
            table.ok("mutation { putMovie(input: {id: \"tt9700002\", title: \"Crowded Set\", year: 2003}) { id } }");
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 10; i < 26; i++) {
                String person = "nm97000" + i;
                int billing = 26 - i;
                table.ok("mutation { putPerson(input: {id: \"" + person + "\", name: \"Extra " + i + "\"}) { id } }");
                writes.add(CompletableFuture.runAsync(() -> cast(table, "tt9700002", person, String.valueOf(billing)), writers));
                if (i % 4 != 0) {
                    continue;
                }
                // A put of the movie between: it carries the count and copy it read over, only if no cast write came since.
                writes.add(CompletableFuture.runAsync(() -> table.ok(
                        "mutation { putMovie(input: {id: \"tt9700002\", title: \"Crowded Set\", year: 2003}) { id } }"), writers));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            assertCopied(table, counter, "tt9700002", 16);
            List<CompletableFuture<Void>> removals = new ArrayList<>();
            for (int i = 21; i < 26; i++) { // the five billed first
                String person = "nm97000" + i;
                removals.add(CompletableFuture.runAsync(() -> table.ok(
                        "mutation { uncastActor(movieId: \"tt9700002\", actorId: \"" + person + "\") }"), writers));
            }
            CompletableFuture.allOf(removals.toArray(CompletableFuture[]::new)).join();
            assertCopied(table, counter, "tt9700002", 11);
        } finally {
            writers.shutdownNow();
        }
    }

    @Test
    void aMovieWithoutACopyReadsItsCreditsUntilMigrateFillsIt() {
        RequestCounter counter = new RequestCounter();
        try (EmptyTableServer table = new EmptyTableServer(TOKEN, List.of(counter))) {
            table.ok("mutation { putMovie(input: {id: \"tt9700003\", title: \"Old Print\", year: 1950}) { id } }");
            for (int i = 1; i <= 6; i++) {
                table.ok("mutation { putPerson(input: {id: \"nm970010" + i + "\", name: \"Star " + i + "\"}) { id } }");
                cast(table, "tt9700003", "nm970010" + i, String.valueOf(i));
            }
            Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("mov#tt9700003"),
                    "sk", AttributeValue.fromS("mov#tt9700003"));
            // As a movie item written before copies were kept: no copy.
            table.sdk().updateItem(UpdateItemRequest.builder().tableName("moviegraph").key(key)
                    .updateExpression("REMOVE firstCast").build()).join();
            counter.reset();
            JsonNode page = table.ok("{ movie(id: \"tt9700003\") { " + COPY + " } }").path("movie").path("cast");
            assertEquals(List.of("GetItem", "Query"), counter.operations(), "the item, then its credits");
            assertMatches(table.ok("{ movie(id: \"tt9700003\") { " + TRUTH + " } }").path("movie").path("cast"),
                    page, "tt9700003");

            FirstCastFill.Summary filled = new FirstCastFill(table.sdk(), "moviegraph", line -> { }).run();
            assertEquals(new FirstCastFill.Summary(1, 1), filled);
            assertCopied(table, counter, "tt9700003", 6);
            assertEquals(new FirstCastFill.Summary(1, 0), new FirstCastFill(table.sdk(), "moviegraph", line -> { }).run(),
                    "a second run has nothing to fill");
            assertFalse(table.sdk().getItem(GetItemRequest.builder().tableName("moviegraph").key(key).build()).join()
                    .item().get("firstCast").l().isEmpty());
        }
    }

    private static void cast(EmptyTableServer table, String movie, String person, String billing) {
        table.ok("mutation { castActor(movieId: \"" + movie + "\", actorId: \"" + person + "\", characters: [\"Role of "
                + person + "\"], billing: " + billing + ") { billing } }");
    }

    /**
     * The movie's first cast page answered from its item alone (one GetItem: the copy is there and whole),
     * equal to the credits' Query; the page.
     */
    private static JsonNode assertCopied(EmptyTableServer table, RequestCounter counter, String movie, int castCount) {
        counter.reset();
        JsonNode page = table.ok("{ movie(id: \"" + movie + "\") { " + COPY + " } }").path("movie").path("cast");
        assertEquals(List.of("GetItem"), counter.operations(), "the first cast from the movie item alone");
        JsonNode truth = table.ok("{ movie(id: \"" + movie + "\") { " + TRUTH + " } }").path("movie").path("cast");
        assertEquals(castCount, truth.path("totalCount").asInt());
        assertMatches(truth, page, movie);
        return page;
    }

    /** A first page of five from the copy is the credits' page cut to five: entries, cursors and counts. */
    private static void assertMatches(JsonNode truth, JsonNode copied, String movie) {
        int count = truth.path("totalCount").asInt();
        assertEquals(count, copied.path("totalCount").asInt(), movie);
        assertEquals(firstOf(truth.path("edges"), 5), copied.path("edges"), movie);
        assertEquals(count > 5, copied.path("pageInfo").path("hasNextPage").asBoolean(), movie);
        assertTrue(count == 0 || copied.path("pageInfo").path("endCursor").asText()
                .equals(copied.path("edges").get(copied.path("edges").size() - 1).path("cursor").asText()), movie);
    }

    private static ArrayNode firstOf(JsonNode edges, int n) {
        ArrayNode first = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < Math.min(n, edges.size()); i++) {
            first.add(edges.get(i));
        }
        return first;
    }
}
