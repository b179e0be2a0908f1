package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.DelayingProxy;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.RequestCounter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The limits that act while a request executes, on a server with tight ones: MAX_RESULT_NODES=100,
 * MAX_READ_UNITS=2 and REQUEST_TIMEOUT_MS=1000. Its DynamoDB (an engine with the sample) sits
 * behind a proxy that holds back every request for one movie's collection for 5 s.
 */
class ExecutionLimitsTest {
    private static final String TOKEN = "a-write-token-of-some-length";
    private static final String SLOW_MOVIE = "tt0068646";
    private static final Duration DELAY = Duration.ofSeconds(5);

    private static Path dir;
    private static EmbeddedDynamo dynamo;
    private static DelayingProxy proxy;
    private static Moviegraph server;
    private static GraphQLClient client;
    private static final RequestCounter counter = new RequestCounter();

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("moviegraph-limits");
        dynamo = EmbeddedDynamo.persistent(dir, true);
        proxy = new DelayingProxy(dynamo.endpoint(), "mov#" + SLOW_MOVIE, DELAY);
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "DYNAMODB_ENDPOINT", proxy.uri().toString(), "WRITE_TOKEN", TOKEN,
                "MAX_RESULT_NODES", "100", "MAX_READ_UNITS", "2", "REQUEST_TIMEOUT_MS", "1000")), List.of(counter));
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.close();
        proxy.close();
        dynamo.close();
    }

    private static Response write(String mutation) {
        Response response = client.post(GraphQLClient.body(mutation, Map.of()), "application/json", "application/json",
                Map.of("Authorization", "Bearer " + TOKEN));
        assertTrue(response.errors().isMissingNode(), response.raw().body());
        return response;
    }

    @Test
    void aResultPastMaxResultNodesSaysSoInsteadOfSilentlyDroppingFields() {
        // 30 movies x (edge, node, id, title, year) is past 100 result nodes, within the read budget of 2
        String query = "{ browseMovies(genre: \"Drama\", first: 30) { edges { node { id title year } } } }";

        Response response = client.query(query);

        JsonNode errors = response.errors();
        assertEquals("LIMIT_EXCEEDED", response.firstErrorCode(), response.raw().body());
        assertTrue(errors.get(0).path("message").asText().contains("MAX_RESULT_NODES"), errors.toString());
        assertEquals(1, errors.size(), "only the limit, not what cutting the result did: " + errors);
        assertTrue(response.data().isNull(), "a cut result would mislead: " + response.raw().body());
        Response small = client.query("{ browseMovies(genre: \"Drama\", first: 5) { edges { node { id title year } } } }");
        assertTrue(small.errors().isMissingNode(), "within the limit: " + small.raw().body());
    }

    @Test
    void aQueryThatConsumesMoreThanItsBudgetIsStoppedBeforeItsNextRead() {
        // A movie with 160 months of totals: its directors, the movie and its last month come in one Query
        // of its collection (from the directors to that month), which reads every month before it too (over
        // 2 read units), while the plan counts the month asked for, so only consumption can catch it.
        write("mutation { putMovie(input: {id: \"tt9610001\", title: \"Long Runner\", year: 2015}) { id } }");
        write("mutation { creditCrew(movieId: \"tt9610001\", personId: \"nm0000151\", role: DIRECTOR) { role } }");
        // The totals straight to the table, at once (160 transactions on the disk-based engine took 45 s).
        try (DynamoDbAsyncClient sdk = DynamoClients.create(dynamo.endpoint(), List.of())) {
            List<CompletableFuture<?>> totals = new ArrayList<>();
            for (int i = 0; i < 160; i++) {
                totals.add(sdk.updateItem(TestItems.addStreams("moviegraph", MovieId.of("tt9610001"),
                        java.time.YearMonth.of(2010, 1).plusMonths(i), "Long Runner", 1)));
            }
            CompletableFuture.allOf(totals.toArray(CompletableFuture[]::new)).join();
        }
        String query = "{ movie(id: \"tt9610001\") { title streamTotals(from: \"2023-04\", to: \"2023-04\") { streams } "
                + "directors { person { name birthYear } } } }";
        assertTrue(client.traced("plan", query, Map.of()).body().path("extensions").path("plan")
                .path("readUnits").asDouble() <= 2, "within the budget by estimate");
        counter.reset();

        Response response = client.query(query);

        assertEquals(1, response.data().path("movie").path("streamTotals").path(0).path("streams").asInt(),
                "the read that went past the budget had already been paid for and keeps its data: "
                        + response.raw().body());
        assertEquals("LIMIT_EXCEEDED", response.firstErrorCode(), response.raw().body());
        assertEquals("[\"movie\",\"directors\",0,\"person\",\"birthYear\"]",
                response.errors().get(0).path("path").toString(), "the director's own read was refused");
        assertTrue(response.errors().get(0).path("message").asText().contains("budget of 2"),
                response.raw().body());
        // By key: the earlier tests' calls for the held movie may still be retried by the SDK meanwhile.
        assertEquals(List.of("Query"), counter.operationsNaming("tt9610001"), "one Query of the movie's collection");
        assertEquals(List.of(), counter.operationsNaming("nm0000151"), "the director's GetItem was never sent");
        assertTrue(response.body().path("extensions").path("cost").path("readUnits").asDouble() > 2);
    }

    @Test
    void aQueryPastItsTimeLimitIsStoppedAndItsDynamoDbCallCancelled() {
        String query = "{ fast: movie(id: \"tt0111161\") { title } slow: movie(id: \"" + SLOW_MOVIE + "\") { "
                + "title cast(first: 6) { edges { node { billing } } } } }"; // six: a Query of its own, not its item
        int delayedBefore = proxy.delayed();
        long start = System.nanoTime();

        Response response = client.traced("on", query, Map.of());

        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs < DELAY.toMillis() - 1_000, "answered at the time limit, not after the slow call: " + tookMs);
        assertEquals(delayedBefore + 1, proxy.delayed(), "the slow call really was in flight");
        assertEquals("TIMEOUT", response.firstErrorCode(), response.raw().body());
        assertTrue(response.errors().get(0).path("message").asText().contains("REQUEST_TIMEOUT_MS"));
        assertEquals("The Shawshank Redemption", response.data().path("fast").path("title").asText(),
                "what was read in time is kept");
        JsonNode calls = response.body().path("extensions").path("trace").path("calls");
        JsonNode slowCall = null;
        for (JsonNode call : calls) {
            if (call.path("keyCondition").asText().contains(SLOW_MOVIE)) {
                slowCall = call;
            }
        }
        assertTrue(slowCall != null && slowCall.path("failed").asBoolean(), calls.toString());
        assertTrue(slowCall.path("durationMs").asDouble() < DELAY.toMillis() - 1_000,
                "cancelled at the limit: " + slowCall);
        Response after = client.query("{ movie(id: \"tt0111161\") { title } }");
        assertTrue(after.errors().isMissingNode(), "the server is fine afterwards: " + after.raw().body());
    }

    @Test
    void aBatchHasOneTimeLimitThatStopsItsSlowOperationAndKeepsTheOthersAnswers() {
        String batch = "[" + GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()) + ","
                + GraphQLClient.body("{ movie(id: \"" + SLOW_MOVIE + "\") { title cast(first: 2) { edges { node { "
                + "billing } } } } }", Map.of()) + "]";

        Response response = client.post(batch, "application/json", "application/json");

        JsonNode fast = response.body().path(0);
        JsonNode slow = response.body().path(1);
        assertEquals("The Shawshank Redemption", fast.path("data").path("movie").path("title").asText(),
                response.raw().body());
        assertEquals("TIMEOUT", slow.path("errors").path(0).path("extensions").path("code").asText(),
                response.raw().body());
        assertTrue(slow.path("errors").path(0).path("message").asText().startsWith("The batch ran longer than its"
                + " time limit of 1000 ms"), response.raw().body());
        assertEquals("no-store", response.raw().headers().firstValue("Cache-Control").orElse(""));
    }
}

