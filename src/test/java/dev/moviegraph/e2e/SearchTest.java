package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.TestServer.Counted;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Search end to end on the real server over the sample: what it finds, in which order (derived here from
 * the sample and the documented rule, not from the store's code), what a page costs in DynamoDB requests,
 * and that every write keeps it true.
 */
class SearchTest {
    private static final String RESULT = "edges { cursor node { __typename ... on Movie { id title year } "
            + "... on Person { id name } } knownFor { id title } } pageInfo { hasNextPage endCursor }";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    /** A result as the test expects it: kind, id, and the rank the documented rule gives. */
    private record Expected(String id, String name, long votes) {
        int band() {
            return votes == 0 ? 0 : 64 - Long.numberOfLeadingZeros(votes);
        }
    }

    /** Popularity band (factor of two) first, then shorter folded names, then votes, then id. */
    private static final Comparator<Expected> RULE = Comparator.comparingInt(Expected::band).reversed()
            .thenComparingInt((Expected e) -> SearchText.fold(e.name()).length())
            .thenComparing(Comparator.comparingLong(Expected::votes).reversed())
            .thenComparing(Expected::id);

    private Counted run(String query) {
        return server.counted(query);
    }

    private static JsonNode found(Counted run) {
        return run.data().path("search");
    }

    private static String search(String query, String arguments, String selection) {
        return "{ search(query: \"" + query + "\"" + arguments + ") { " + selection + " } }";
    }

    private static List<String> ids(JsonNode search) {
        List<String> ids = new ArrayList<>();
        search.path("edges").forEach(edge -> ids.add(edge.path("node").path("id").asText()));
        return ids;
    }

    /** Whether every query word starts a word of the name, as the schema promises. */
    private static boolean matches(String name, String query) {
        List<String> words = SearchText.words(name);
        return SearchText.words(query).stream().allMatch(q -> words.stream().anyMatch(w -> w.startsWith(q)));
    }

    private Map<String, Long> personVotes() {
        Map<String, Long> votesOf = new HashMap<>();
        Map<String, Movie> movies = new HashMap<>();
        sample.movies().forEach(movie -> movies.put(movie.id().value(), movie));
        for (Credit credit : sample.credits()) {
            Integer votes = movies.get(credit.movieId().value()).numVotes();
            votesOf.merge(credit.personId().value(), votes == null ? 0L : votes, Math::max);
        }
        return votesOf;
    }

    private List<String> expected(String query, boolean movies, boolean people) {
        List<Expected> found = new ArrayList<>();
        if (movies) {
            for (Movie movie : sample.movies()) {
                if (matches(movie.title(), query)) {
                    found.add(new Expected(movie.id().value(), movie.title(), movie.numVotes()));
                }
            }
        }
        if (people) {
            Map<String, Long> votes = personVotes();
            for (Person person : sample.people()) {
                if (matches(person.name(), query)) {
                    found.add(new Expected(person.id().value(), person.name(), votes.getOrDefault(person.id().value(), 0L)));
                }
            }
        }
        found.sort(RULE);
        return found.stream().map(Expected::id).toList();
    }

    /** Every result of a search, page after page, each page checked to be one request. */
    private List<String> allPages(String query, String types, int first) {
        List<String> all = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 100; page++) {
            Counted run = run(search(query, types + ", first: " + first + (after == null ? "" : ", after: \"" + after + "\""),
                    RESULT));
            assertEquals(List.of("Query"), run.operations(), "a page is one index Query");
            all.addAll(ids(found(run)));
            if (!found(run).path("pageInfo").path("hasNextPage").asBoolean()) {
                return all;
            }
            after = found(run).path("pageInfo").path("endCursor").asText();
        }
        throw new AssertionError("more than 100 pages");
    }

    @Test
    void aOneWordSearchFindsTheMostVotedTitleFirstInOneRequest() {
        Counted run = run(search("godfather", "", RESULT));
        assertEquals(List.of("Query"), run.operations());
        JsonNode first = found(run).path("edges").get(0).path("node");
        assertEquals("tt0068646", first.path("id").asText());
        assertEquals("The Godfather", first.path("title").asText());
        assertEquals(1972, first.path("year").asInt(), "the year comes with the result");
        assertEquals("Movie", first.path("__typename").asText());
    }

    @Test
    void resultsFollowTheRankingRuleAcrossEveryPageWithoutRepeats() {
        // A prefix with many movies and people in the sample, ranked together.
        String query = "ma";
        List<String> expected = expected(query, true, true);
        assertTrue(expected.size() > 30, "the sample has many matches of 'ma': " + expected.size());
        List<String> found = allPages(query, "", 7);
        assertEquals(expected, found);
        assertEquals(found.size(), new HashSet<>(found).size(), "no result twice");
    }

    @Test
    void typesSearchOneKindInItsOwnIndex() {
        assertEquals(expected("ja", false, true), allPages("ja", ", types: [PERSON]", 20));
        assertEquals(expected("ja", true, false), allPages("ja", ", types: [MOVIE]", 20));
    }

    @Test
    void everyWordMustStartAWordInAnyOrder() {
        for (String query : List.of("shawshank redemption", "redemption shawshank", "red shaw", "THE shawshank R")) {
            Counted run = run(search(query, "", RESULT));
            assertEquals(expected(query, true, true), ids(found(run)), query);
            assertEquals("tt0111161", ids(found(run)).get(0), query);
            assertEquals(List.of("Query"), run.operations(), query);
        }
        assertEquals(List.of(), ids(found(run(search("shawshank godfather", "", RESULT)))), "both words must match");
    }

    @Test
    void aPersonComesWithTheirBestKnownTitle() {
        Counted run = run(search("morgan freeman", "", RESULT));
        JsonNode edge = found(run).path("edges").get(0);
        assertEquals("nm0000151", edge.path("node").path("id").asText());
        assertEquals("Morgan Freeman", edge.path("node").path("name").asText());
        assertEquals("tt0111161", edge.path("knownFor").path("id").asText(), "his most voted movie");
        assertEquals("The Shawshank Redemption", edge.path("knownFor").path("title").asText());
        assertEquals(List.of("Query"), run.operations(), "the best-known title comes with the result");
    }

    @Test
    void askingEachResultsCastAndDirectorsAddsOneRoundOfCollectionQueries() {
        Counted run = run(search("the", ", types: [MOVIE], first: 5", "edges { node { ... on Movie { id title "
                + "cast(first: 2) { edges { node { person { name } } } } directors { person { name } } } } }"));
        assertEquals(List.of("Query", "Query", "Query", "Query", "Query", "Query"), run.operations(),
                "the search, then one collection Query per result");
        found(run).path("edges").forEach(edge -> assertTrue(edge.path("node").path("cast").path("edges").size() > 0));
        Counted fields = run(search("the", ", types: [MOVIE], first: 5", "edges { node { ... on Movie { genres runtimeMinutes } } }"));
        assertEquals(List.of("Query", "BatchGetItem"), fields.operations(), "other fields: one BatchGetItem");
    }

    @Test
    void foldingFindsTitlesWithAccentsApostrophesAndDots() {
        Map<String, String> titles = Map.of(
                "tt9610001", "Amélie", "tt9610002", "Léon: The Professional", "tt9610003", "E.T. the Extra-Terrestrial",
                "tt9610004", "Schindler's List", "tt9610005", "Ōkami", "tt9610006", "Mødrenes Hus");
        titles.forEach((id, title) -> put(id, title));
        Map<String, String> queries = Map.of("amelie", "tt9610001", "LEON professional", "tt9610002",
                "e.t.", "tt9610003", "extraterrestrial", "tt9610003", "schindlers list", "tt9610004",
                "Schindler’s", "tt9610004", "okami", "tt9610005", "modrenes", "tt9610006");
        queries.forEach((query, id) -> assertTrue(ids(found(run(search(query, "", RESULT)))).contains(id), query));
    }

    @Test
    void renamesReachResultsAndADeletedMovieIsGone() {
        put("tt9610101", "Zanzibar Quintessence");
        assertEquals(List.of("tt9610101"), ids(found(run(search("quintessence", "", RESULT)))));
        put("tt9610101", "Xylophone Quartermaster");
        assertEquals(List.of(), ids(found(run(search("quintessence", "", RESULT)))), "the old title is gone");
        assertEquals(List.of("tt9610101"), ids(found(run(search("xylophone quarter", "", RESULT)))));

        server.client().query("mutation { putPerson(input: {id: \"nm9610101\", name: \"Quillon Vandersnoot\"}) { id } }");
        assertEquals(List.of("nm9610101"), ids(found(run(search("vandersnoot", "", RESULT)))));
        server.client().query("mutation { putPerson(input: {id: \"nm9610101\", name: \"Quillon Abernathy-Zed\"}) { id } }");
        assertEquals(List.of(), ids(found(run(search("vandersnoot", "", RESULT)))));
        assertEquals(List.of("nm9610101"), ids(found(run(search("abernathyzed", "", RESULT)))));

        Response deleted = server.client().query("mutation { deleteMovie(id: \"tt9610101\") }");
        assertTrue(deleted.data().path("deleteMovie").asBoolean(), deleted.raw().body());
        assertEquals(List.of(), ids(found(run(search("xylophone", "", RESULT)))));
    }

    @Test
    void aRenamedPersonKeepsTheirRankAndBestKnownTitle() {
        JsonNode before = found(run(search("freeman", ", types: [PERSON]", RESULT))).path("edges").get(0);
        assertEquals("nm0000151", before.path("node").path("id").asText());
        try {
            server.client().query("mutation { putPerson(input: {id: \"nm0000151\", name: \"Morgan Freemann\", birthYear: 1937}) { id } }");
            JsonNode after = found(run(search("freemann", ", types: [PERSON]", RESULT))).path("edges").get(0);
            assertEquals("nm0000151", after.path("node").path("id").asText());
            assertEquals("tt0111161", after.path("knownFor").path("id").asText());
        } finally {
            server.client().query("mutation { putPerson(input: {id: \"nm0000151\", name: \"Morgan Freeman\", birthYear: 1937}) { id } }");
        }
        assertEquals("Morgan Freeman", found(run(search("freeman", ", types: [PERSON]", RESULT)))
                .path("edges").get(0).path("node").path("name").asText());
    }

    @Test
    void badSearchesAreClearUserErrors() {
        for (String query : List.of(search("a", "", RESULT), search("x".repeat(101), "", RESULT), search("a b", "", RESULT),
                search("godfather", ", types: []", RESULT), search("godfather", ", first: 0", RESULT),
                search("godfather", ", after: \"nonsense\"", RESULT))) {
            Response response = server.client().query(query);
            assertEquals("BAD_USER_INPUT", response.firstErrorCode(), response.raw().body());
            assertFalse(response.raw().body().contains("Exception"), response.raw().body());
        }
        String cursor = found(run(search("ma", ", types: [MOVIE], first: 1", RESULT))).path("pageInfo").path("endCursor").asText();
        Response otherList = server.client().query(search("ja", ", types: [MOVIE], after: \"" + cursor + "\"", RESULT));
        assertEquals("BAD_USER_INPUT", otherList.firstErrorCode(), "a cursor of another search is refused");
        assertNotEquals("", cursor);
    }

    private void put(String id, String title) {
        Response response = server.client().query("mutation($id: ID!, $t: String!) { putMovie(input: {id: $id, title: $t}) { id } }",
                Map.of("id", id, "t", title));
        assertTrue(response.errors().isMissingNode(), response.raw().body());
    }
}
