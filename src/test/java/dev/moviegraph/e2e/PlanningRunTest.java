package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The planning run (the read budget's estimate, Moviegraph-Trace: plan) over every kind of item it stands
 * in for (movies, people, totals by key; credits, awards and totals of every list; search hits, list
 * entries, winners), every field selected: it fails at no field, as a plan and as the estimate of a query
 * that then runs. A failure there would leave fields unplanned and the estimate low while the query
 * itself still answers, so the server counts them ({@code moviegraph_planning_failures_total}).
 */
class PlanningRunTest {
    private static final String FAILURES = "moviegraph_planning_failures_total";
    private static final String MOVIE = "id title year releaseDate genres runtimeMinutes averageRating numVotes";
    private static final String PERSON = "id name birthYear deathYear professions";
    private static final String AWARD = "award category year won person { " + PERSON + " } movie { " + MOVIE + " }";
    private static final String CREDITS = "{ totalCount pageInfo { hasNextPage endCursor } edges { cursor node { "
            + "role position movie { " + MOVIE + " } person { " + PERSON + " } } } }";

    private final TestServer server = TestServer.get();

    @ParameterizedTest
    @ValueSource(strings = {
        "{ movie(id: \"tt0111161\") { " + MOVIE + " cast(first: 3) { totalCount pageInfo { hasNextPage endCursor }"
                + " edges { cursor node { characters billing movie { " + MOVIE + " } person { " + PERSON + " } } } }"
                + " directors { role position person { " + PERSON + " } } writers { role position movie { title } }"
                + " streamTotals(from: \"2024-01\", to: \"2024-03\") { month streams movie { " + MOVIE + " } }"
                + " awards { " + AWARD + " } } }",
        "{ person(id: \"nm0000151\") { " + PERSON + " movies(first: 3) { totalCount edges { node { characters billing"
                + " movie { " + MOVIE + " } } } } directed(first: 3) " + CREDITS + " wrote(first: 3) " + CREDITS
                + " awards { " + AWARD + " } } }",
        "{ topMovies(month: \"2024-05\", limit: 5) { month streams movie { " + MOVIE + " } }"
                + " streamTotal(movieId: \"tt0111161\", month: \"2024-05\") { month streams movie { title } } }",
        "{ search(query: \"the\", first: 5) { pageInfo { hasNextPage endCursor } edges { cursor node {"
                + " ... on Movie { " + MOVIE + " } ... on Person { " + PERSON + " } } } } }",
        "{ browseMovies(genre: \"Drama\", first: 5) { edges { node { " + MOVIE + " } } }"
                + " topRated(first: 5) { edges { node { " + MOVIE + " } } } }",
        "{ awardWinners(award: \"Academy Award\", first: 5) { edges { cursor node { " + AWARD + " } } } }",
        "{ nodes(ids: [\"tt0111161\", \"nm0000151\"]) { id ... on Movie { title } ... on Person { name } }"
                + " person(id: \"nm0000151\") { " + PERSON + " movies(first: 2) { edges { node { movie { title } } } } } }"
    })
    void planningFailsAtNoFieldAsAPlanOrAsTheEstimateOfAQueryThatRuns(String query) {
        double before = value(metrics());

        Response plan = server.client().traced("plan", query, Map.of());
        Response run = server.client().query(query);

        assertTrue(plan.errors().isMissingNode(), plan.raw().body());
        assertTrue(plan.body().path("extensions").path("plan").path("calls").asInt() > 0, plan.raw().body());
        assertTrue(run.errors().isMissingNode(), run.raw().body());
        assertEquals(before, value(metrics()), "planning runs failed at fields of " + query);
    }

    private String metrics() {
        return server.client().get("/metrics", Map.of(), "text/plain").raw().body();
    }

    private static double value(String scrape) {
        Matcher matcher = Pattern.compile("(?m)^" + FAILURES + " ([0-9.eE+-]+)$").matcher(scrape);
        assertTrue(matcher.find(), "/metrics shows " + FAILURES);
        return Double.parseDouble(matcher.group(1));
    }
}
