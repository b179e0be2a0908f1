package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.streams.StreamAggregator;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.StreamLoad;
import dev.moviegraph.support.TestServer;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * Monthly totals equal the number of distinct streams under concurrent writers that retry, in both
 * modes: transactional (the shared server), and stream, where the aggregator is stopped in the middle
 * of the run and another one takes over from the checkpoints.
 */
class StreamCountingTest {
    private static final String TOKEN = "stream-counting-test-token";

    private static void createMovies(GraphQLClient client, Map<String, String> headers, List<String> ids) {
        for (String id : ids) {
            GraphQLClient.Response created = client.post(GraphQLClient.body(
                    "mutation($id: ID!) { putMovie(input: {id: $id, title: \"Counted\"}) { id } }", Map.of("id", id)),
                    "application/json", "application/json", headers);
            assertEquals(200, created.status(), created.raw().body());
            assertEquals(id, created.data().path("putMovie").path("id").asText(), created.raw().body());
        }
    }

    /** Every total equals its distinct streams, and each month's top lists the movies by those counts. */
    private static void assertTotals(GraphQLClient client, StreamLoad load) {
        for (YearMonth month : load.months()) {
            for (String movie : load.movies()) {
                JsonNode total = client.query("query($m: ID!, $month: YearMonth!) { streamTotal(movieId: $m, month: $month) "
                        + "{ streams } }", Map.of("m", movie, "month", month.toString())).data().path("streamTotal");
                assertEquals(load.expected(movie, month), total.path("streams").asInt(), movie + " " + month);
            }
            List<String> top = new ArrayList<>();
            client.query("query($month: YearMonth!) { topMovies(month: $month, limit: 100) { movie { id } } }",
                    Map.of("month", month.toString())).data().path("topMovies")
                    .forEach(entry -> top.add(entry.path("movie").path("id").asText()));
            List<String> expected = load.movies().stream()
                    .sorted(Comparator.comparing((String movie) -> load.expected(movie, month)).reversed()).toList();
            assertEquals(expected, top.stream().filter(load.movies()::contains).toList(), "top of " + month);
        }
    }

    @Test
    void transactionalTotalsCountEveryDistinctStreamOnce() throws Exception {
        GraphQLClient client = TestServer.get().client();
        StreamLoad load = new StreamLoad("tx", List.of("tt9700001", "tt9700002", "tt9700003", "tt9700004"),
                List.of(YearMonth.of(2025, 7), YearMonth.of(2025, 8)));
        createMovies(client, Map.of(), load.movies());

        load.run(client, Map.of());

        assertEquals(load.distinct(), load.counted(), "every first send counted");
        assertEquals(load.sent() - load.distinct(), load.notCounted(), "every retry answered counted: false");
        assertTotals(client, load);
    }

    @Test
    void streamModeCountsEveryDistinctStreamOnceAcrossAnAggregatorRestart() throws Exception {
        EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(true);
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(),
                "WRITE_TOKEN", TOKEN, "TOTALS", "stream", "AGGREGATOR", "off"));
        DynamoDbAsyncClient dynamoClient = DynamoClients.create(dynamo.endpoint(), List.of());
        DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(dynamo.endpoint());
        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            String arn = new TableAdmin(dynamoClient, config.tableName()).ensureStream(false);
            GraphQLClient client = new GraphQLClient(server.port());
            Map<String, String> auth = Map.of("Authorization", "Bearer " + TOKEN);
            StreamLoad load = new StreamLoad("st", List.of("tt9800001", "tt9800002", "tt9800003", "tt9800004"),
                    List.of(YearMonth.of(2025, 9), YearMonth.of(2025, 10)));
            // Started on a stream with no record yet: its first reads are empty, and it must still see
            // everything written afterwards.
            StreamAggregator first = new StreamAggregator(dynamoClient, streams, config.tableName(), arn,
                    new GatewayMetrics()).start();
            Thread.sleep(1_000);
            createMovies(client, auth, load.movies());
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread writers = new Thread(() -> {
                try {
                    load.run(client, auth);
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.start();
            while (load.sent() < StreamLoad.WRITERS * StreamLoad.STREAMS / 2 && writers.isAlive()) {
                Thread.sleep(20);
            }
            long firstDeadline = System.nanoTime() + 30_000_000_000L;
            while (counted(client, load) == 0 && System.nanoTime() < firstDeadline) {
                Thread.sleep(100);
            }
            assertTrue(counted(client, load) > 0, "the first aggregator counts while the writers run");
            first.close(); // stopped in the middle of the run: whatever it had not committed is left over
            writers.join();
            assertEquals(List.of(), failures);
            assertEquals(load.distinct(), load.counted());

            try (StreamAggregator second = new StreamAggregator(dynamoClient, streams, config.tableName(), arn,
                    new GatewayMetrics()).start()) {
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (!settled(client, load) && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                }
                assertTotals(client, load);
            }
        } finally {
            streams.close();
            dynamoClient.close();
            dynamo.close();
        }
    }

    private static boolean settled(GraphQLClient client, StreamLoad load) {
        return counted(client, load) >= load.distinct();
    }

    /** The sum of the load's totals as they stand. */
    private static int counted(GraphQLClient client, StreamLoad load) {
        int total = 0;
        for (YearMonth month : load.months()) {
            for (String movie : load.movies()) {
                total += client.query("query($m: ID!, $month: YearMonth!) { streamTotal(movieId: $m, month: $month) "
                        + "{ streams } }", Map.of("m", movie, "month", month.toString())).data()
                        .path("streamTotal").path("streams").asInt();
            }
        }
        return total;
    }
}
