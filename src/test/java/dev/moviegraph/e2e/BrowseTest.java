package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.TestServer.Counted;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

/**
 * browseMovies and topRated end to end over the sample: each list's movies and order derived here from
 * the sample, every page one index Query, and writes that move a movie between lists.
 */
class BrowseTest {
    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    private static final Comparator<Movie> POPULAR = Comparator.comparing((Movie m) -> m.numVotes() == null ? 0 : m.numVotes())
            .reversed().thenComparing(m -> m.id().value());
    private static final Comparator<Movie> TOP = Comparator.comparing((Movie m) -> Math.round(m.averageRating() * 10))
            .reversed().thenComparing(POPULAR);

    private List<String> expected(Predicate<Movie> in, Comparator<Movie> order) {
        return sample.movies().stream().filter(in).sorted(order).map(m -> m.id().value()).toList();
    }

    private static boolean hasGenre(Movie movie, String genre) {
        return movie.genres().stream().anyMatch(g -> g.equalsIgnoreCase(genre));
    }

    /** Every movie of a list, page after page, each page checked to be one request. */
    private List<String> allPages(String field, String arguments, int first) {
        List<String> all = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 200; page++) {
            Counted run = server.counted("{ " + field + "(" + arguments + (arguments.isEmpty() ? "" : ", ") + "first: " + first
                    + (after == null ? "" : ", after: \"" + after + "\"") + ") { edges { cursor node { id title year } }"
                    + " pageInfo { hasNextPage endCursor } } }");
            assertEquals(List.of("Query"), run.operations(), "a page is one index Query");
            JsonNode connection = run.data().path(field);
            connection.path("edges").forEach(edge -> all.add(edge.path("node").path("id").asText()));
            if (!connection.path("pageInfo").path("hasNextPage").asBoolean()) {
                return all;
            }
            after = connection.path("pageInfo").path("endCursor").asText();
        }
        throw new AssertionError("more than 200 pages");
    }

    @Test
    void aGenreIsItsMoviesMostVotedFirstInAnyCase() {
        List<String> drama = expected(m -> hasGenre(m, "Drama"), POPULAR);
        assertTrue(drama.size() > 50, "the sample has many dramas");
        assertEquals(drama, allPages("browseMovies", "genre: \"Drama\"", 25));
        assertEquals(drama.subList(0, 10), allPages("browseMovies", "genre: \"drama\"", 10).subList(0, 10));
    }

    @Test
    void aYearAndAGenreWithAYearAreListsToo() {
        assertEquals(expected(m -> Integer.valueOf(2019).equals(m.year()), POPULAR), allPages("browseMovies", "year: 2019", 20));
        assertEquals(expected(m -> Integer.valueOf(1994).equals(m.year()) && hasGenre(m, "Drama"), POPULAR),
                allPages("browseMovies", "genre: \"Drama\", year: 1994", 5));
    }

    @Test
    void topRatedHoldsOnlyMoviesWith25000VotesRatingFirst() {
        List<String> top = expected(m -> m.numVotes() != null && m.numVotes() >= 25_000, TOP);
        assertTrue(top.size() > 20 && top.size() < sample.movies().size(), "some but not all: " + top.size());
        assertEquals(top, allPages("topRated", "", 30));
        assertEquals("tt0111161", top.get(0), "9.3 is the sample's best rating");
        assertEquals(expected(m -> m.numVotes() != null && m.numVotes() >= 25_000 && hasGenre(m, "Crime"), TOP),
                allPages("topRated", "genre: \"Crime\"", 30));
    }

    @Test
    void aListPageWithRatingsIsOneQuery() {
        for (String list : List.of("browseMovies(genre: \"Drama\", first: 20)", "browseMovies(year: 1994, first: 20)",
                "browseMovies(genre: \"Drama\", year: 1994, first: 20)", "topRated(first: 20)",
                "topRated(genre: \"Crime\", first: 20)")) {
            String field = list.substring(0, list.indexOf('('));
            Counted run = server.counted("{ " + list + " { edges { node { id title year averageRating numVotes } } } }");
            assertEquals(List.of("Query"), run.operations(), list + ": the entries carry the rating");
            JsonNode edges = run.data().path(field).path("edges");
            assertTrue(edges.size() > 1, list);
            List<String> ids = new ArrayList<>();
            edges.forEach(edge -> ids.add(edge.path("node").path("id").asText()));
            JsonNode movies = server.counted("{ movies(ids: [\"" + String.join("\", \"", ids) + "\"]) { id title year "
                    + "averageRating numVotes } }").data().path("movies");
            for (int i = 0; i < ids.size(); i++) {
                assertEquals(movies.get(i), edges.get(i).path("node"), list + ": the movie's own values");
            }
        }
    }

    @Test
    void aListWithItsMoviesCastIsOneRoundMore() {
        Counted run = server.counted("{ topRated(first: 4) { edges { node { title cast(first: 2) { edges { node { person { name } } } }"
                + " directors { person { name } } } } } }");
        assertEquals(List.of("Query", "Query", "Query", "Query", "Query"), run.operations(), "the list, then one Query per movie");
        assertEquals("The Shawshank Redemption", run.data().path("topRated").path("edges").get(0).path("node").path("title").asText());
        assertEquals("Frank Darabont", run.data().path("topRated").path("edges").get(0).path("node").path("directors").get(0)
                .path("person").path("name").asText());
    }

    @Test
    void writesMoveAMovieBetweenLists() {
        String id = "tt9620001";
        ok("mutation { putMovie(input: {id: \"" + id + "\", title: \"Browse Probe\", year: 1901, genres: [\"Western\"]}) { id } }");
        assertEquals(List.of(id), allPages("browseMovies", "genre: \"western\", year: 1901", 10));
        ok("mutation { putMovie(input: {id: \"" + id + "\", title: \"Browse Probe\", year: 1902, genres: [\"Noir\"]}) { id } }");
        assertEquals(List.of(), allPages("browseMovies", "genre: \"western\", year: 1901", 10), "left its old lists");
        assertEquals(List.of(), allPages("browseMovies", "year: 1901", 10));
        assertEquals(List.of(id), allPages("browseMovies", "genre: \"noir\"", 10));
        ok("mutation { deleteMovie(id: \"" + id + "\") }");
        assertEquals(List.of(), allPages("browseMovies", "year: 1902", 10));
    }

    @Test
    void aListNeedsAGenreOrAYearAndSaneValues() {
        for (String query : List.of("{ browseMovies { edges { cursor } } }", "{ browseMovies(year: 1000) { edges { cursor } } }",
                "{ browseMovies(genre: \"\") { edges { cursor } } }", "{ topRated(first: 101) { edges { cursor } } }",
                "{ topRated(after: \"x\") { edges { cursor } } }")) {
            Response response = server.client().query(query);
            assertEquals("BAD_USER_INPUT", response.firstErrorCode(), query + ": " + response.raw().body());
            assertFalse(response.raw().body().contains("Exception"));
        }
    }

    private void ok(String mutation) {
        Response response = server.client().query(mutation);
        assertTrue(response.errors().isMissingNode(), response.raw().body());
    }
}
