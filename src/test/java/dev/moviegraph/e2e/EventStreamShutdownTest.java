package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.StreamedResponse;

import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stopping server ends its subscriptions' event streams with {@code complete} at once, as it closes its
 * sockets with 1001, instead of holding its stop for the whole grace while they stay open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EventStreamShutdownTest {
    @Test
    void stoppingEndsEverySubscriptionsStreamAndDoesNotWaitForTheGrace() throws Exception {
        List<YearMonth> months = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).months();
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(true)) {
            Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT",
                    dynamo.endpoint().toString(), "PORT", "0", "CREATE_TABLE", "false", "LOAD_SAMPLE", "false",
                    "SHUTDOWN_GRACE_SECONDS", "30")), List.of());
            try (StreamedResponse stream = StreamedResponse.post(server.port(), GraphQLClient.body(
                    "subscription { topMoviesChanged(month: \"" + months.get(months.size() - 1) + "\", limit: 1) { streams } }",
                    Map.of()), "text/event-stream", Map.of())) {
                assertNotNull(stream.next(Duration.ofSeconds(30)), stream.raw());

                long started = System.nanoTime();
                server.close();
                long stopping = System.nanoTime() - started;

                stream.rest(Duration.ofSeconds(10));
                assertTrue(stream.closedProperly(), "the stream ended with complete: " + stream.raw());
                assertTrue(stopping < Duration.ofSeconds(15).toNanos(), "the stop waited " + stopping / 1_000_000
                        + " ms, as if the open stream were a request still running");
            }
        }
    }
}
