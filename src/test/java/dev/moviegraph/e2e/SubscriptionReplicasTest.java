package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.EngineProcess;
import dev.moviegraph.support.GatewayProcess;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.WsClient;

import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Two gateway processes on one engine process: a subscriber on the first hears, within 10 s, a stream
 * recorded through the second (in the month's top list and in the movie's total) and a total changed with
 * the SDK directly, past both gateways (in the movie's total: a month's top list changes only by the
 * counters' merges, so such a total enters it at its movie's next counted stream).
 */
class SubscriptionReplicasTest {
    private static final String TOKEN = "replica-test-token-0123456789";

    @Test
    void aSubscriberOnOneReplicaHearsWritesMadeThroughAnotherAndStraightToTheTable() throws Exception {
        Path dir = EmbeddedDynamo.scratchDirectory("moviegraph-replicas");
        SampleCatalog sample = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
        YearMonth month = sample.months().get(sample.months().size() - 1);
        MonthlyStreams top = sample.totals().stream().filter(total -> total.month().equals(month))
                .max(Comparator.comparingLong(MonthlyStreams::streams)).orElseThrow();
        try (EngineProcess dynamo = new EngineProcess(dir.resolve("data"), dir.resolve("dynamo.log")).start()) {
            Map<String, String> env = Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "WRITE_TOKEN", TOKEN,
                    "CREATE_TABLE", "true", "AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
                    "AWS_SECRET_ACCESS_KEY", "local");
            try (GatewayProcess first = GatewayProcess.launch(dir.resolve("first.log"), env);
                 GatewayProcess second = GatewayProcess.launch(dir.resolve("second.log"), env)) {
                first.awaitReady();
                second.awaitReady();
                try (WsClient ws = WsClient.connected(first.port())) {
                    ws.subscribe("top", "subscription($month: YearMonth!) { topMoviesChanged(month: $month, limit: 1)"
                            + " { movie { id } streams } }", Map.of("month", month.toString()));
                    JsonNode initial = next(ws, "top", 15);
                    assertNotNull(initial, "no first answer\n" + first.log());
                    JsonNode leader = initial.path("payload").path("data").path("topMoviesChanged").get(0);
                    assertEquals(top.movieId().value(), leader.path("movie").path("id").asText(), initial.toString());
                    long streams = leader.path("streams").asLong();
                    ws.subscribe("total", "subscription($movie: ID!, $month: YearMonth!) { streamTotalChanged("
                            + "movieId: $movie, month: $month) { streams } }",
                            Map.of("movie", top.movieId().value(), "month", month.toString()));
                    JsonNode initialTotal = next(ws, "total", 15);
                    assertNotNull(initialTotal, "no first total\n" + first.log());
                    assertEquals(streams, totalOf(initialTotal), initialTotal.toString());
                    // Let the first replica's change feed take the stream reader lease.
                    Thread.sleep(1_500);

                    GraphQLClient.Response recorded = new GraphQLClient(second.port()).post(GraphQLClient.body(
                            "mutation($input: StreamInput!) { recordStream(input: $input) { counted } }",
                            Map.of("input", Map.of("movieId", top.movieId().value(), "streamId", UUID.randomUUID().toString(),
                                    "at", month.atDay(2).atTime(8, 0) + ":00Z"))),
                            "application/json", "application/json", Map.of("Authorization", "Bearer " + TOKEN));
                    assertTrue(recorded.data().path("recordStream").path("counted").asBoolean(), recorded.body().toString());
                    long sent = System.nanoTime();
                    JsonNode throughSecond = next(ws, "top", 10);
                    assertNotNull(throughSecond, "a stream recorded through the other replica did not reach the top list"
                            + " within 10 s\n" + first.log());
                    assertEquals(streams + 1, total(throughSecond), throughSecond.toString());
                    JsonNode totalThroughSecond = next(ws, "total", 10);
                    assertNotNull(totalThroughSecond, "nor the movie's total\n" + first.log());
                    assertEquals(streams + 1, totalOf(totalThroughSecond), totalThroughSecond.toString());
                    System.out.printf("Through the other replica: %d ms%n", (System.nanoTime() - sent) / 1_000_000);

                    JsonNode direct;
                    long directMillis;
                    try (DynamoDbAsyncClient sdk = DynamoClients.create(dynamo.endpoint(), List.of())) {
                        sdk.updateItem(TestItems.addStreams("moviegraph", top.movieId(), month, top.movieTitle(), 5))
                                .join();
                        sent = System.nanoTime();
                        direct = next(ws, "total", 10);
                        // Measured before the client closes (its close takes a while).
                        directMillis = (System.nanoTime() - sent) / 1_000_000;
                    }
                    assertNotNull(direct, "an UpdateItem made with the SDK did not arrive within 10 s\n" + first.log());
                    assertEquals(streams + 6, totalOf(direct), direct.toString());
                    System.out.printf("Straight to the table: %d ms%n", directMillis);
                }
            }
        }
    }

    /** Messages of the other subscription, read while waiting for one of this one. */
    private final List<JsonNode> laterMessages = new ArrayList<>();

    /** The next message of subscription {@code id} within {@code seconds} (the other's kept for later); null if none. */
    private JsonNode next(WsClient ws, String id, double seconds) {
        for (JsonNode kept : laterMessages) {
            if (id.equals(kept.path("id").asText())) {
                laterMessages.remove(kept);
                return kept;
            }
        }
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            JsonNode message = ws.next(left / 1e9);
            if (message == null || id.equals(message.path("id").asText())) {
                return message;
            }
            laterMessages.add(message);
        }
        return null;
    }

    private static long totalOf(JsonNode message) {
        return message.path("payload").path("data").path("streamTotalChanged").path("streams").asLong();
    }

    private static long total(JsonNode message) {
        return message.path("payload").path("data").path("topMoviesChanged").get(0).path("streams").asLong();
    }

}
