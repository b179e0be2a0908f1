package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.lambda.PublishChangesHandler;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.EngineProcess;
import dev.moviegraph.support.GatewayProcess;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.LambdaEvents;
import dev.moviegraph.support.WsClient;

import java.nio.file.Path;
import java.time.YearMonth;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The change feed at scale: two gateway processes with CHANGE_FEED=published read no stream (no lease is
 * taken, a write is not heard on its own); the Lambda function, handed the stream's records as Lambda
 * hands them, publishes them, and a subscriber on the other replica hears the new total.
 */
class SubscriptionsPublishedByLambdaTest {
    private static final String TOKEN = "published-test-token-0123456789";

    @Test
    void gatewaysReadNoStreamAndASubscriberHearsWhatTheFunctionPublishes() throws Exception {
        Path dir = EmbeddedDynamo.scratchDirectory("moviegraph-published");
        SampleCatalog sample = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
        YearMonth month = sample.months().get(sample.months().size() - 1);
        MonthlyStreams top = sample.totals().stream().filter(total -> total.month().equals(month))
                .max(Comparator.comparingLong(MonthlyStreams::streams)).orElseThrow();
        try (EngineProcess dynamo = new EngineProcess(dir.resolve("data"), dir.resolve("dynamo.log")).start()) {
            Map<String, String> env = Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "WRITE_TOKEN", TOKEN,
                    "CREATE_TABLE", "true", "CHANGE_FEED", "published", "AWS_REGION", "us-east-1",
                    "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local");
            try (GatewayProcess first = GatewayProcess.launch(dir.resolve("first.log"), env);
                 GatewayProcess second = GatewayProcess.launch(dir.resolve("second.log"), env);
                 DynamoDbAsyncClient sdk = DynamoClients.create(dynamo.endpoint(), List.of());
                 DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(dynamo.endpoint())) {
                first.awaitReady();
                second.awaitReady();
                // The table's stream is the function's (operations.md creates the table with it).
                String arn = new TableAdmin(sdk, "moviegraph").ensureStream(true);
                try (WsClient ws = WsClient.connected(first.port())) {
                    ws.subscribe("top", "subscription($month: YearMonth!) { topMoviesChanged(month: $month, limit: 1)"
                            + " { movie { id } streams } }", Map.of("month", month.toString()));
                    JsonNode initial = ws.next(15);
                    assertNotNull(initial, "no first answer\n" + first.log());
                    long streamsBefore = total(initial);

                    GraphQLClient.Response recorded = new GraphQLClient(second.port()).post(GraphQLClient.body(
                            "mutation($input: StreamInput!) { recordStream(input: $input) { counted } }",
                            Map.of("input", Map.of("movieId", top.movieId().value(), "streamId", UUID.randomUUID().toString(),
                                    "at", month.atDay(2).atTime(8, 0) + ":00Z"))),
                            "application/json", "application/json", Map.of("Authorization", "Bearer " + TOKEN));
                    assertTrue(recorded.data().path("recordStream").path("counted").asBoolean(), recorded.body().toString());
                    assertNull(ws.next(1.5), "a gateway read the stream: with CHANGE_FEED=published only the function does");
                    assertTrue(sdk.getItem(get -> get.tableName("moviegraph").consistentRead(true).key(Map.of(
                            "pk", AttributeValue.fromS("lease#change-log"), "sk", AttributeValue.fromS("lease#change-log"))))
                            .join().item().isEmpty(), "a gateway took the stream reader lease");

                    PublishChangesHandler function = new PublishChangesHandler(sdk, "moviegraph");
                    LambdaEvents.read(streams, arn, record -> true).forEach((shard, records) -> {
                        DynamodbEvent event = new DynamodbEvent();
                        event.setRecords(records);
                        assertTrue(function.handleRequest(event, null).getBatchItemFailures().isEmpty());
                    });
                    JsonNode published = ws.next(3);
                    assertNotNull(published, "what the function published did not reach the subscriber\n" + first.log());
                    assertEquals(top.movieId().value(), published.path("payload").path("data").path("topMoviesChanged")
                            .get(0).path("movie").path("id").asText(), published.toString());
                    assertEquals(streamsBefore + 1, total(published), published.toString());
                }
            }
        }
    }

    private static long total(JsonNode message) {
        return message.path("payload").path("data").path("topMoviesChanged").get(0).path("streams").asLong();
    }
}
