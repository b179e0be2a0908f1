package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Award;
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
 * Awards end to end over the sample's real Academy Awards: read with their movie or person at no extra
 * request, winners from a sparse index (no nomination in it), and the two mutations.
 */
class AwardsTest {
    private static final String GODFATHER = "tt0068646";
    private static final String FREEMAN = "nm0000151";
    private static final String FIELDS = "award category year won person { id } movie { id }";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    /** An award as the API shows it: category, year, won, person id, movie id. */
    private static String line(Award award) {
        return award.category() + "|" + award.year() + "|" + award.won() + "|"
                + (award.personId() == null ? "" : award.personId().value()) + "|"
                + (award.movieId() == null ? "" : award.movieId().value());
    }

    private static String line(JsonNode award) {
        return award.path("category").asText() + "|" + award.path("year").asInt() + "|" + award.path("won").asBoolean()
                + "|" + award.path("person").path("id").asText("") + "|" + award.path("movie").path("id").asText("");
    }

    private static List<String> lines(JsonNode awards) {
        List<String> lines = new ArrayList<>();
        awards.forEach(award -> lines.add(line(award.has("node") ? award.path("node") : award)));
        return lines;
    }

    private List<String> expected(Predicate<Award> in, Comparator<Award> order) {
        return sample.awards().stream().filter(in).sorted(order).map(AwardsTest::line).toList();
    }

    private static final Comparator<Award> NEWEST = Comparator.comparingInt((Award a) -> -a.year())
            .thenComparing(Award::award).thenComparing(Award::category);

    @Test
    void aMoviesAwardsComeWithItsCrewInOneQuery() {
        Counted run = server.counted("{ movie(id: \"" + GODFATHER + "\") { directors { person { id } } awards { " + FIELDS + " } } }");
        assertEquals(List.of("Query"), run.operations());
        List<String> expected = expected(a -> a.movieId() != null && a.movieId().value().equals(GODFATHER),
                NEWEST.thenComparing(a -> a.personId() == null ? "" : a.personId().value()));
        assertEquals(7, expected.size(), "the sample's Godfather nominations");
        assertEquals(expected, lines(run.data().path("movie").path("awards")));
        assertEquals(List.of("Query"), server.counted("{ movie(id: \"" + GODFATHER + "\") { awards { year } } }").operations());
    }

    @Test
    void aPersonsAwardsComeWithThePersonAndTheirFirstMoviesInOneQuery() {
        List<String> expected = expected(a -> a.personId() != null && a.personId().value().equals(FREEMAN),
                NEWEST.thenComparing(a -> a.movieId() == null ? "" : a.movieId().value()));
        assertEquals(List.of("Best Supporting Actor|2005|true|" + FREEMAN + "|", "Best Actor|1995|false|" + FREEMAN + "|tt0111161"),
                expected, "won for a film the sample does not have; nominated for Shawshank");
        Counted withMovies = server.counted("{ person(id: \"" + FREEMAN + "\") { name movies(first: 2) { edges { node { movie { id } } } }"
                + " awards { " + FIELDS + " } } }");
        assertEquals(List.of("Query"), withMovies.operations());
        assertEquals(expected, lines(withMovies.data().path("person").path("awards")));
        assertEquals(2, withMovies.data().path("person").path("movies").path("edges").size(), "the awards take no room in the page");
        Counted alone = server.counted("{ person(id: \"" + FREEMAN + "\") { name awards { " + FIELDS + " } } }");
        assertEquals(List.of("Query"), alone.operations());
        assertEquals(expected, lines(alone.data().path("person").path("awards")));
        assertEquals("Morgan Freeman", alone.data().path("person").path("name").asText());
    }

    @Test
    void winnersAreWinnersOnlyNewestFirstOnePageAQuery() {
        Comparator<Award> order = Comparator.comparingInt((Award a) -> -a.year()).thenComparing(Award::category, (x, y) ->
                (x + "#").compareTo(y + "#")).thenComparing(a -> a.movieId() == null ? "" : a.movieId().value())
                .thenComparing(a -> a.personId() == null ? "" : a.personId().value());
        assertEquals(expected(Award::won, order), winners("", 4));
        assertEquals(expected(a -> a.won() && a.category().equals("Best Actor"), order), winners(", category: \"Best Actor\"", 2));
        assertEquals(List.of(), winners(", category: \"Best Cinematography\"", 5), "a nomination is not a winner");
        assertEquals(List.of(), winners(", category: \"best actor\"", 5), "categories are matched exactly");
    }

    private List<String> winners(String arguments, int first) {
        List<String> all = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 50; page++) {
            Counted run = server.counted("{ awardWinners(award: \"Academy Award\"" + arguments + ", first: " + first
                    + (after == null ? "" : ", after: \"" + after + "\"") + ") { edges { cursor node { " + FIELDS + " } }"
                    + " pageInfo { hasNextPage endCursor } } }");
            JsonNode connection = run.data().path("awardWinners");
            all.addAll(lines(connection.path("edges")));
            boolean more = connection.path("pageInfo").path("hasNextPage").asBoolean();
            assertEquals(List.of("Query"), run.operations(), "one Query a page");
            if (!more) {
                return all;
            }
            after = connection.path("pageInfo").path("endCursor").asText();
        }
        throw new AssertionError("more than 50 pages");
    }

    @Test
    void aNominationThatWinsIsOneAwardChangedAndRemovingItTwiceSaysSo() {
        ok("mutation { putMovie(input: {id: \"tt9630001\", title: \"Award Probe One\"}) { id } }");
        ok("mutation { putMovie(input: {id: \"tt9630002\", title: \"Award Probe Two\"}) { id } }");
        ok("mutation { putPerson(input: {id: \"nm9630001\", name: \"Probe Nominee\"}) { id } }");
        String nomination = "{award: \"Probe Prize\", category: \"Best Probe\", year: 2020, won: false, personId: \"nm9630001\","
                + " movieId: \"tt9630001\"}";
        ok("mutation { recordAward(input: " + nomination + ") { year } }");
        ok("mutation { recordAward(input: {award: \"Probe Prize\", category: \"Best Probe\", year: 2020, won: false,"
                + " movieId: \"tt9630002\"}) { year } }");
        assertEquals(List.of(), winners("", 5).stream().filter(l -> l.contains("Best Probe")).toList());
        List<String> probe = lines(server.counted("{ person(id: \"nm9630001\") { awards { " + FIELDS + " } } }")
                .data().path("person").path("awards"));
        assertEquals(List.of("Best Probe|2020|false|nm9630001|tt9630001"), probe);

        ok("mutation { recordAward(input: " + nomination.replace("won: false", "won: true") + ") { won } }");
        assertEquals(List.of("Best Probe|2020|true|nm9630001|tt9630001"),
                lines(server.counted("{ movie(id: \"tt9630001\") { awards { " + FIELDS + " } } }").data().path("movie").path("awards")),
                "the nomination won: one award, changed");
        assertEquals(List.of("Best Probe|2020|true|nm9630001|tt9630001"), lines(server.counted(
                "{ awardWinners(award: \"Probe Prize\", category: \"Best Probe\") { edges { node { " + FIELDS + " } } } }")
                .data().path("awardWinners").path("edges")));
        assertEquals(1, lines(server.counted("{ movie(id: \"tt9630002\") { awards { " + FIELDS + " } } }")
                .data().path("movie").path("awards")).size(), "another movie's nomination is its own award");

        assertTrue(server.counted("mutation { removeAward(input: " + nomination + ") }").data().path("removeAward").asBoolean());
        assertFalse(server.counted("mutation { removeAward(input: " + nomination + ") }").data().path("removeAward").asBoolean());
        assertEquals(List.of(), winners("", 5).stream().filter(l -> l.contains("Best Probe")).toList());
    }

    @Test
    void anAwardOfNobodyOrOfAMissingMovieIsAClearError() {
        Response nobody = server.client().query("mutation { recordAward(input: {award: \"X\", category: \"Y\", year: 2020, won: true}) { year } }");
        assertEquals("BAD_USER_INPUT", nobody.firstErrorCode(), nobody.raw().body());
        Response missing = server.client().query("mutation { recordAward(input: {award: \"X\", category: \"Y\", year: 2020,"
                + " won: true, movieId: \"tt9639999\"}) { year } }");
        assertEquals("NOT_FOUND", missing.firstErrorCode(), missing.raw().body());
        Response hash = server.client().query("mutation { recordAward(input: {award: \"X#\", category: \"Y\", year: 2020,"
                + " won: true, movieId: \"" + GODFATHER + "\"}) { year } }");
        assertEquals("BAD_USER_INPUT", hash.firstErrorCode(), hash.raw().body());
        Response year = server.client().query("mutation { recordAward(input: {award: \"X\", category: \"Y\", year: 1800,"
                + " won: true, movieId: \"" + GODFATHER + "\"}) { year } }");
        assertEquals("BAD_USER_INPUT", year.firstErrorCode(), year.raw().body());
    }

    private void ok(String mutation) {
        Response response = server.client().query(mutation);
        assertTrue(response.errors().isMissingNode(), response.raw().body());
    }
}
