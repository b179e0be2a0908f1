package dev.moviegraph.engine.store;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine on a data folder keeps its rows in the folder's file, not the heap, and serves the same items,
 * indexes included, after a restart (which rebuilds the file from the journal).
 */
class RowsOnDiskTest {
    private static final int ITEMS = 3000;

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty("DYNAMODB_WRITE_BUFFER_MB");
        System.clearProperty("DYNAMODB_ROWS");
    }

    @Test
    void rowsLiveInTheFileAndComeBackAfterARestart() {
        Assumptions.assumeTrue(DiskRows.available(), "SQLite's native library does not load here");
        System.setProperty("DYNAMODB_WRITE_BUFFER_MB", "1"); // layers of 1 MB: most rows reach the file
        String filler = "x".repeat(1000);
        try (Engine engine = Engine.start(EngineOptions.inMemory().withDataDir(dir));
             DynamoDbClient dynamo = client(engine.endpoint())) {
            assertTrue(engine.rowsDescription().startsWith("rows on disk"), engine.rowsDescription());
            createTable(dynamo);
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = 0; i < ITEMS; i++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(Map.of(
                        "pk", s("movie"), "sk", s(String.format("%05d", i)),
                        "gpk", s("year#" + (i % 3)), "gsk", s(String.format("%05d", i)),
                        "f", s(filler))).build()).build());
                if (batch.size() == 25) {
                    dynamo.batchWriteItem(b -> b.requestItems(Map.of("movies", List.copyOf(batch))));
                    batch.clear();
                }
            }
            long onDisk = Files.size(dir.resolve("rows.db")) + Files.size(dir.resolve("rows.db-wal"));
            assertTrue(onDisk > ITEMS * 1000L, "the items are in the file and its write-ahead log: " + onDisk);
            assertRowsServed(dynamo);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try (Engine engine = Engine.start(EngineOptions.inMemory().withDataDir(dir));
             DynamoDbClient dynamo = client(engine.endpoint())) {
            assertRowsServed(dynamo);
        }
    }

    @Test
    void rowsStayInMemoryWhenAsked() {
        System.setProperty("DYNAMODB_ROWS", "memory");
        try (Engine engine = Engine.start(EngineOptions.inMemory().withDataDir(dir))) {
            assertEquals("rows in memory", engine.rowsDescription());
            assertFalse(Files.exists(dir.resolve("rows.db")));
        }
        System.setProperty("DYNAMODB_ROWS", "disc");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Engine.start(EngineOptions.inMemory().withDataDir(dir)));
        assertEquals("DYNAMODB_ROWS must be disk or memory, not 'disc'", refused.getMessage());
    }

    private static void assertRowsServed(DynamoDbClient dynamo) {
        int count = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamo.query(q -> q.tableName("movies").keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("movie"))).exclusiveStartKey(from));
            for (Map<String, AttributeValue> item : page.items()) {
                assertEquals(String.format("%05d", count), item.get("sk").s());
                count++;
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(ITEMS, count);
        QueryResponse index = dynamo.query(q -> q.tableName("movies").indexName("g").keyConditionExpression("gpk = :g")
                .expressionAttributeValues(Map.of(":g", s("year#1"))).scanIndexForward(false).limit(3));
        assertEquals(List.of("02998", "02995", "02992"), index.items().stream().map(i -> i.get("sk").s()).toList());
        assertEquals(1000, index.items().get(0).get("f").s().length(), "an ALL index gives the whole item");
        assertEquals("01234", dynamo.getItem(g -> g.tableName("movies").key(Map.of("pk", s("movie"), "sk", s("01234"))))
                .item().get("sk").s());
    }

    private static void createTable(DynamoDbClient dynamo) {
        dynamo.createTable(c -> c.tableName("movies").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(def("pk"), def("sk"), def("gpk"), def("gsk"))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("g")
                        .keySchema(key("gpk", KeyType.HASH), key("gsk", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()));
    }

    private static AttributeDefinition def(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none()))
                .build();
    }
}
