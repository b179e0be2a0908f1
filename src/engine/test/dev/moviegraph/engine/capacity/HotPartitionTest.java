package dev.moviegraph.engine.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The engine with partition limits on, through the real SDK (no retries, so every answer is the engine's
 * first) in simulated seconds ({@code MoviegraphEngine.StartPartitionSecond}): a hot partition key is refused
 * past 1,000 write units in a second while the rest of the table is not; an index partition fills on its own;
 * a transaction that would pass a limit is cancelled with {@code ThrottlingError}; a batch gives the writes
 * it could not make back as {@code UnprocessedItems}; with the limits off nothing is ever refused.
 */
class HotPartitionTest {
    private static final String TABLE = "hot";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aPartitionKeyIsRefusedPastAThousandWriteUnitsInASecondAndTheNextSecondIsFree() throws Exception {
        try (Engine engine = Engine.start(EngineOptions.inMemory().withPartitionLimits(true));
             DynamoDbClient client = client(engine)) {
            createTable(client);
            call(engine, "MoviegraphEngine.StartPartitionSecond", "{\"Second\": 1}");
            fill(client, "hot#1", 1_000); // 1,000 puts of items under 1 KB: 1,000 units

            DynamoDbException refused = assertThrows(DynamoDbException.class, () -> put(client, "hot#1", "one-more"));

            assertEquals("ThrottlingException", refused.awsErrorDetails().errorCode(), "an on-demand table");
            assertTrue(refused.isThrottlingException(), "what the SDK's retry strategy backs off on");
            assertFalse(client.getItem(get -> get.tableName(TABLE).key(key("hot#1", "one-more"))).hasItem(),
                    "the refused put was not made");
            put(client, "cold#1", "a"); // another partition key of the table has its own thousand
            client.getItem(get -> get.tableName(TABLE).key(key("hot#1", "0"))); // and reads their own 3,000

            JsonNode usage = call(engine, "MoviegraphEngine.DescribePartitionUsage", "{\"Limit\": 5}");
            assertEquals(1, usage.path("Refused").asLong(), usage.toString());
            JsonNode hottest = usage.path("ThisSecond").path("BusiestWrite").path(0);
            assertEquals("hot#1", hottest.path("Partition").asText(), usage.toString());
            assertEquals(1_000, hottest.path("Units").asDouble(), usage.toString());
            assertEquals("hot#1", usage.path("RefusedAt").path(0).path("Partition").asText(), usage.toString());

            call(engine, "MoviegraphEngine.StartPartitionSecond", "{\"Second\": 2}");
            put(client, "hot#1", "one-more");
        }
    }

    @Test
    void anIndexPartitionIsThrottledOnItsOwnWhileTheTablesPartitionsAreNot() throws Exception {
        try (Engine engine = Engine.start(EngineOptions.inMemory().withPartitionLimits(true));
             DynamoDbClient client = client(engine)) {
            createTable(client);
            call(engine, "MoviegraphEngine.StartPartitionSecond", "{\"Second\": 1}");
            // 1,000 items, each its own table partition key, all in one partition of the month index
            List<WriteRequest> writes = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                writes.add(putRequest(Map.of("pk", s("mov#" + i), "sk", s("tot"), "month", s("month#2024-05"))));
            }
            for (int from = 0; from < writes.size(); from += 25) {
                List<WriteRequest> batch = writes.subList(from, from + 25);
                assertTrue(client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch))).unprocessedItems().isEmpty());
            }

            DynamoDbException refused = assertThrows(DynamoDbException.class, () -> client.putItem(put -> put
                    .tableName(TABLE).item(Map.of("pk", s("mov#new"), "sk", s("tot"), "month", s("month#2024-05")))));

            assertEquals("ThrottlingException", refused.awsErrorDetails().errorCode());
            assertTrue(refused.getMessage().contains("check if you have a hot key"), refused.getMessage());
            client.putItem(put -> put.tableName(TABLE).item(Map.of("pk", s("mov#new"), "sk", s("tot"),
                    "month", s("month#2024-06")))); // the same table partition, another index partition
            assertEquals(1_000, client.query(query -> query.tableName(TABLE).indexName("month")
                    .keyConditionExpression("#m = :m").expressionAttributeNames(Map.of("#m", "month"))
                    .expressionAttributeValues(Map.of(":m", s("month#2024-05")))).count(),
                    "a Query of the full index partition reads against its read ceiling");
            JsonNode usage = call(engine, "MoviegraphEngine.DescribePartitionUsage", "{}");
            JsonNode index = usage.path("RefusedAt").path(0);
            assertEquals("month", index.path("IndexName").asText(), usage.toString());
            assertEquals("month#2024-05", index.path("Partition").asText(), usage.toString());
            assertEquals("WRITE", index.path("Kind").asText(), usage.toString());
        }
    }

    @Test
    void aTransactionPastAPartitionsLimitIsCancelledWithThrottlingErrorAndMakesNothing() throws Exception {
        try (Engine engine = Engine.start(EngineOptions.inMemory().withPartitionLimits(true));
             DynamoDbClient client = client(engine)) {
            createTable(client);
            call(engine, "MoviegraphEngine.StartPartitionSecond", "{\"Second\": 1}");
            fill(client, "hot#1", 999); // one unit left: a transaction's put takes two

            TransactionCanceledException cancelled = assertThrows(TransactionCanceledException.class, () ->
                    client.transactWriteItems(transaction -> transaction.transactItems(
                            put -> put.put(p -> p.tableName(TABLE).item(item("cold#1", "a"))),
                            put -> put.put(p -> p.tableName(TABLE).item(item("hot#1", "in-a-transaction"))))));

            assertEquals(List.of("None", "ThrottlingError"),
                    cancelled.cancellationReasons().stream().map(reason -> reason.code()).toList());
            assertFalse(client.getItem(get -> get.tableName(TABLE).key(key("cold#1", "a"))).hasItem(),
                    "the transaction's other write was not made either");
            put(client, "hot#1", "alone"); // the unit left is a single put's
        }
    }

    @Test
    void aBatchWriteReturnsTheWritesOfAFullPartitionAsUnprocessedItems() throws Exception {
        try (Engine engine = Engine.start(EngineOptions.inMemory().withPartitionLimits(true));
             DynamoDbClient client = client(engine)) {
            createTable(client);
            call(engine, "MoviegraphEngine.StartPartitionSecond", "{\"Second\": 1}");
            fill(client, "hot#1", 995);
            List<WriteRequest> writes = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                writes.add(putRequest(item("hot#1", "batch" + i)));
            }
            for (int i = 0; i < 5; i++) {
                writes.add(putRequest(item("cold#" + i, "batch")));
            }

            BatchWriteItemResponse answer = client.batchWriteItem(batch -> batch.requestItems(Map.of(TABLE, writes)));

            List<WriteRequest> unprocessed = answer.unprocessedItems().get(TABLE);
            assertEquals(writes.subList(5, 10), unprocessed, "the hot partition took five more; the rest are given back");
            for (WriteRequest write : unprocessed) {
                assertFalse(client.getItem(get -> get.tableName(TABLE).key(key("hot#1",
                        write.putRequest().item().get("sk").s()))).hasItem());
            }
            assertTrue(client.getItem(get -> get.tableName(TABLE).key(key("cold#4", "batch"))).hasItem());
        }
    }

    @Test
    void withTheLimitsOffNothingIsEverRefusedAndTheirOperationsAreUnknown() throws Exception {
        try (Engine engine = Engine.start(EngineOptions.inMemory());
             DynamoDbClient client = client(engine)) {
            createTable(client);
            fill(client, "hot#1", 3_000);
            for (int i = 0; i < 20; i++) {
                client.transactWriteItems(transaction -> transaction.transactItems(
                        put -> put.put(p -> p.tableName(TABLE).item(Map.of("pk", s("hot#1"), "sk", s("0"),
                                "body", s("x".repeat(100_000)))))));
            }

            HttpResponse<String> unknown = post(engine, "MoviegraphEngine.DescribePartitionUsage", "{}");
            assertEquals(400, unknown.statusCode());
            assertTrue(unknown.body().contains("UnknownOperationException"), unknown.body());
        }
    }

    /** {@code count} puts of small items (1 unit each) under {@code pk}, 25 to a batch, none left unprocessed. */
    private static void fill(DynamoDbClient client, String pk, int count) {
        for (int from = 0; from < count; from += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 25); i++) {
                batch.add(putRequest(item(pk, Integer.toString(i))));
            }
            assertEquals(Map.of(), client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch))).unprocessedItems());
        }
    }

    private static WriteRequest putRequest(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    private static void put(DynamoDbClient client, String pk, String sk) {
        client.putItem(put -> put.tableName(TABLE).item(item(pk, sk)));
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return new TreeMap<>(Map.of("pk", s(pk), "sk", s(sk)));
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static void createTable(DynamoDbClient client) {
        client.createTable(create -> create.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(string("pk"), string("sk"), string("month"))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("month")
                        .keySchema(key("month", KeyType.HASH), key("pk", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build()));
    }

    private static AttributeDefinition string(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static DynamoDbClient client(Engine engine) {
        return DynamoDbClient.builder().endpointOverride(engine.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    /** One of the engine's own operations; its answer. */
    private static JsonNode call(Engine engine, String target, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = post(engine, target, body);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static HttpResponse<String> post(Engine engine, String target, String body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(engine.endpoint() + "/"))
                .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", target)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
