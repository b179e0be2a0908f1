package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.TestServer.Counted;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The titles a movie is known by elsewhere (the sample's, from IMDb's title.akas): read with the movie in
 * its one collection Query, kept by region on demand, the original among them, and found by search.
 */
class AlternateTitlesTest {
    private static final String SHAWSHANK = "tt0111161";

    private final TestServer server = TestServer.get();

    private static List<String> texts(JsonNode nodes, String field) {
        List<String> texts = new ArrayList<>();
        nodes.forEach(node -> texts.add(node.path(field).asText()));
        return texts;
    }

    @Test
    void aMoviesTitlesComeWithItInItsOneCollectionQuery() {
        Counted run = server.counted("{ movie(id: \"" + SHAWSHANK + "\") { title titles { title region original types } } }");

        assertEquals(List.of("Query"), run.operations(), "the movie and its titles: one Query of its collection");
        JsonNode titles = run.data().path("movie").path("titles");
        assertEquals(List.of("The Shawshank Redemption", "Die Verurteilten", "Les évadés", "Cadena perpetua",
                "Le ali della libertà", "Um Sonho de Liberdade", "Sueño de fuga"), texts(titles, "title"), "in IMDb's order");
        assertTrue(titles.get(0).path("original").asBoolean(), "the original title is kept, marked");
        assertTrue(titles.get(0).path("region").isNull());
        assertEquals("imdbDisplay", titles.get(1).path("types").get(0).asText());
    }

    @Test
    void aRegionKeepsOnlyItsTitlesFromTheSameRead() {
        Counted german = server.counted("{ movie(id: \"" + SHAWSHANK + "\") { titles(region: \"DE\") { title region } } }");

        assertEquals(List.of("Query"), german.operations());
        assertEquals(List.of("Die Verurteilten"), texts(german.data().path("movie").path("titles"), "title"));
        assertEquals(List.of("Les évadés"), texts(server.counted("{ movie(id: \"" + SHAWSHANK + "\") { titles(region: \"fr\") { title } } }")
                .data().path("movie").path("titles"), "title"), "a region in any case");
        assertEquals(0, server.counted("{ movie(id: \"" + SHAWSHANK + "\") { titles(region: \"JP\") { title } } }")
                .data().path("movie").path("titles").size());
    }

    @Test
    void searchFindsAMovieByALocalTitleInOneQuery() {
        Counted run = server.counted("{ search(query: \"Die Verurteilten\", first: 5) { edges { node { ... on Movie { id title } } } } }");

        assertEquals(List.of("Query"), run.operations());
        JsonNode edges = run.data().path("search").path("edges");
        assertEquals(SHAWSHANK, edges.get(0).path("node").path("id").asText(), edges.toString());
        assertEquals(1, edges.size(), "the movie once, whichever of its titles matched: " + edges);
        JsonNode godfather = server.counted("{ search(query: \"der pate\", types: [MOVIE]) { edges { node { ... on Movie { id } } } } }")
                .data().path("search").path("edges");
        assertEquals("tt0068646", godfather.get(0).path("node").path("id").asText(), godfather.toString());
    }

    @Test
    void theMoviesOwnWordsAreNotIndexedTwice() {
        JsonNode edges = server.counted("{ search(query: \"shawshank\", first: 10) { edges { node { ... on Movie { id } } } } }")
                .data().path("search").path("edges");
        assertEquals(1, texts(edges, "node").size(), "one entry per movie for a word its own title has: " + edges);
    }
}
