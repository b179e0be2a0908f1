package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.support.EmptyTableServer;
import dev.moviegraph.support.RequestCounter;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * List entries copy their movie's rating, and tell a copy of "no rating" from no copy: an entry a version
 * before the copy wrote still answers the right rating (the movie read by key), an unrated movie's entry
 * answers null without that read, and a putMovie of the movie rewrites its entries with the copy.
 */
class ListEntryRatingTest {
    private static final String TOKEN = "list-entry-rating-token";
    private static final String PAGE = " { edges { node { id title year averageRating numVotes } } } }";

    private static final RequestCounter COUNTER = new RequestCounter();
    private static EmptyTableServer server;

    @BeforeAll
    static void start() {
        server = new EmptyTableServer(TOKEN, List.of(COUNTER));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anEntryWithoutTheCopyReadsTheMovieAndAPutMovieGivesItTheCopy() {
        Movie rated = new Movie(MovieId.of("tt9630001"), "Copyless Western", 1931, null, List.of("Western"), 90, 8.1, 30_000);
        // As an older version wrote them: the movie as it is, its list entries without the rating.
        write(TestItems.movieWithEntries(rated).stream().map(TestItems::withoutRatingCopy).toList());

        for (String list : List.of("browseMovies(genre: \"Western\")", "browseMovies(year: 1931)",
                "browseMovies(genre: \"Western\", year: 1931)", "topRated(genre: \"Western\")")) {
            JsonNode node = onlyNode(list, 2);
            assertEquals(8.1, node.path("averageRating").asDouble(), list + ": " + node);
            assertEquals(30_000, node.path("numVotes").asInt(), list + ": " + node);
            assertEquals("Copyless Western", node.path("title").asText());
        }

        // A client's write keeps the import's rating and replaces the entries, now with the copy.
        ok("mutation { putMovie(input: {id: \"tt9630001\", title: \"Copyless Western\", year: 1931,"
                + " genres: [\"Western\"]}) { id } }");
        for (String list : List.of("browseMovies(genre: \"Western\")", "topRated(genre: \"Western\")")) {
            JsonNode node = onlyNode(list, 1);
            assertEquals(8.1, node.path("averageRating").asDouble(), list + ": " + node);
            assertEquals(30_000, node.path("numVotes").asInt(), list + ": " + node);
        }
    }

    @Test
    void anUnratedMoviesEntryAnswersNullWithoutReadingTheMovie() {
        ok("mutation { putMovie(input: {id: \"tt9630002\", title: \"Unrated Noir\", year: 1947, genres: [\"Noir\"]}) { id } }");
        for (String list : List.of("browseMovies(genre: \"Noir\")", "browseMovies(year: 1947)")) {
            JsonNode node = onlyNode(list, 1);
            assertTrue(node.path("averageRating").isNull(), list + ": " + node);
            assertTrue(node.path("numVotes").isNull(), list + ": " + node);
            assertEquals(1947, node.path("year").asInt());
        }
    }

    /** The one movie of a list page, asserting the page took {@code requests} DynamoDB requests. */
    private static JsonNode onlyNode(String list, int requests) {
        COUNTER.reset();
        JsonNode data = ok("{ " + list.replace(")", ", first: 20)") + PAGE);
        List<String> operations = COUNTER.operations();
        assertEquals("Query", operations.get(0), list + ": " + operations);
        assertEquals(requests, operations.size(), list + ": " + operations);
        JsonNode edges = data.path(list.substring(0, list.indexOf('('))).path("edges");
        assertEquals(1, edges.size(), list + ": " + edges);
        return edges.get(0).path("node");
    }

    private static void write(List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> items) {
        CompletableFuture.allOf(items.stream().map(item -> server.sdk().putItem(put -> put
                .tableName(AppConfig.defaults().tableName()).item(item))).toArray(CompletableFuture[]::new)).join();
    }

    private static JsonNode ok(String query) {
        return server.ok(query);
    }
}
