package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A read estimate weighs each call by the items it can return, not by the largest item of any kind: a
 * movie of about 5 KB (fifty long genres) makes the calls that read movie items dearer, and leaves a
 * search, a person's awards and an award's winners where they were. Every estimate stays at least
 * what the query then consumes. On a server of its own: the big movie grows its weights.
 */
class EstimateWeightsTest {
    private static final String BIG_MOVIE = "tt9700001";
    private static final String SEARCH = "{ search(query: \"the\", first: 10) { edges { node { ... on Movie { title } } } } }";
    private static final String NARROWED = "{ search(query: \"the godfather\", first: 10) { edges { node { ... on Person { name } } } } }";
    private static final String PERSON_AWARDS = "{ person(id: \"nm0000338\") { name awards { category year } } }";
    private static final String FILMOGRAPHY = "{ person(id: \"nm0000151\") { movies(first: 20) { edges { node { characters } } } } }";
    private static final String WINNERS = "{ awardWinners(award: \"Academy Award\", first: 20) { edges { node { category } } } }";
    private static final String THE_BIG_MOVIE = "{ movie(id: \"" + BIG_MOVIE + "\") { title genres cast(first: 5) { totalCount } } }";

    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() {
        server = Moviegraph.start(AppConfig.defaults().withPort(0), List.of());
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static double estimate(String query) {
        Response plan = client.traced("plan", query, Map.of());
        assertTrue(plan.errors().isMissingNode(), plan.raw().body());
        return plan.body().path("extensions").path("plan").path("readUnits").asDouble();
    }

    private static double consumed(String query) {
        Response run = client.query(query);
        assertTrue(run.errors().isMissingNode(), run.raw().body());
        return run.body().path("extensions").path("cost").path("readUnits").asDouble();
    }

    @Test
    void aLargeKindOfItemWeighsOnlyTheCallsThatCanReturnIt() {
        List<String> untouched = List.of(SEARCH, NARROWED, PERSON_AWARDS, WINNERS);
        List<Double> before = untouched.stream().map(EstimateWeightsTest::estimate).toList();

        List<String> genres = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            genres.add(("Genre " + i + " with a long and descriptive name, as a festival keeps it").substring(0, 50));
        }
        Response put = client.query("mutation($id: ID!, $genres: [String!]) { putMovie(input: {id: $id, title: \"Zqxv\","
                + " year: 2001, genres: $genres}) { id } }", Map.of("id", BIG_MOVIE, "genres", genres));
        assertTrue(put.errors().isMissingNode(), put.raw().body());

        for (int i = 0; i < untouched.size(); i++) {
            assertEquals(before.get(i), estimate(untouched.get(i)), "no movie item in the reads of " + untouched.get(i));
        }
        double bigMovie = estimate(THE_BIG_MOVIE);
        double bigConsumed = consumed(THE_BIG_MOVIE);
        assertTrue(bigMovie >= bigConsumed, "estimate " + bigMovie + " >= consumed " + bigConsumed);
        // A credit carries copies of its movie's attributes, so it weighs at least its movie: a filmography's estimate grows.
        for (String query : List.of(SEARCH, NARROWED, PERSON_AWARDS, WINNERS, FILMOGRAPHY)) {
            double estimate = estimate(query);
            double consumed = consumed(query);
            assertTrue(estimate >= consumed, "estimate " + estimate + " < consumed " + consumed + " for " + query);
        }
    }
}
