package dev.moviegraph.engine.store;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A restart on a data folder whose rows are on disk takes the rows up where their last checkpoint left them and
 * replays only the journal after it: the same items, index entries, counts, time to live and stream as a replay of
 * everything gives; and without a checkpoint it can trust, everything is replayed into a new file.
 */
class CheckpointRestartTest {
    @TempDir
    Path dir;

    /** What a client can see of the table: items, an index's answer, counts, stream records. */
    private record Seen(Map<String, String> items, List<String> byGroup, long itemCount, long indexCount,
                        List<String> shards, List<String> records, String ttl) {
    }

    @BeforeEach
    void rowsOnDisk() {
        Assumptions.assumeTrue(DiskRows.available(), "SQLite's native library does not load here");
    }

    @Test
    void aCleanRestartReplaysNothingAndServesTheSame() {
        EngineOptions options = EngineOptions.inMemory().withDataDir(dir);
        Seen before;
        try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            assertNull(engine.restoredAt(), "a new folder replays from its beginning");
            createTable(dynamo);
            write(dynamo, 0, 400);
            before = seen(dynamo, streams);
        }
        try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            assertNotNull(engine.restoredAt(), "the restart took the rows' checkpoint up");
            assertEquals(0, engine.lastReplay().records(), "a clean stop leaves nothing after its checkpoint");
            assertEquals(before, seen(dynamo, streams));
            write(dynamo, 400, 100); // and goes on: numbers, counts and indexes from where they were
            before = seen(dynamo, streams);
        }
        try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            assertNotNull(engine.restoredAt());
            assertEquals(before, seen(dynamo, streams));
        }
        // the same folder without its rows file: everything is replayed, to the same
        deleteRowsFile();
        try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            assertNull(engine.restoredAt(), "no rows file: a replay of everything");
            assertTrue(engine.lastReplay().records() >= before.items().size(),
                    "replayed " + engine.lastReplay().records());
            assertEquals(before, seen(dynamo, streams));
        }
    }

    @Test
    void checkpointsAsTheWritesGoKeepUpWithCompactionsDeletingSegments() {
        // 1 MB layers: checkpoints as the writes go; compactions (16 KB floor) delete segments behind them, each
        // after a checkpoint past what it deletes
        System.setProperty("DYNAMODB_WRITE_BUFFER_MB", "1");
        try {
            EngineOptions options = EngineOptions.inMemory().withDataDir(dir).withCompactAfterBytes(16 << 10);
            Seen before;
            try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
                 DynamoDbStreamsClient streams = streams(engine.endpoint())) {
                createTable(dynamo);
                write(dynamo, 0, 1500);
                before = seen(dynamo, streams);
            }
            try (Engine engine = Engine.start(options); DynamoDbClient dynamo = client(engine.endpoint());
                 DynamoDbStreamsClient streams = streams(engine.endpoint())) {
                assertNotNull(engine.restoredAt());
                assertEquals(before, seen(dynamo, streams));
            }
        } finally {
            System.clearProperty("DYNAMODB_WRITE_BUFFER_MB");
        }
    }

    /** Puts, updates of the index key, deletes and transactions, {@code count} steps from {@code from}. */
    private static void write(DynamoDbClient dynamo, int from, int count) {
        String pad = "p".repeat(300);
        for (int i = from; i < from + count; i++) {
            String key = "k" + (i % 350);
            int step = i;
            switch (i % 7) {
                case 3 -> dynamo.deleteItem(d -> d.tableName("things").key(Map.of("pk", s(key))));
                case 5 -> dynamo.transactWriteItems(t -> t.transactItems(
                        put(key, step, pad), put("t" + (step % 40), step, pad)));
                default -> dynamo.putItem(p -> p.tableName("things").item(item(key, step, pad)));
            }
        }
    }

    private static TransactWriteItem put(String key, int version, String pad) {
        return TransactWriteItem.builder().put(p -> p.tableName("things").item(item(key, version, pad))).build();
    }

    private static Map<String, AttributeValue> item(String key, int version, String pad) {
        Map<String, AttributeValue> item = new TreeMap<>();
        item.put("pk", s(key));
        item.put("v", AttributeValue.fromN(Integer.toString(version)));
        item.put("pad", s(pad));
        if (version % 3 != 0) { // a sparse index: some items leave it when rewritten
            item.put("g", s("g" + version % 5));
        }
        if (version % 4 == 0) {
            item.put("expires", AttributeValue.fromN(Long.toString(4_000_000_000L + version)));
        }
        return item;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static void createTable(DynamoDbClient dynamo) {
        dynamo.createTable(c -> c.tableName("things").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("pk").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("g").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("v").attributeType(ScalarAttributeType.N).build())
                .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byGroup")
                        .keySchema(KeySchemaElement.builder().attributeName("g").keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName("v").keyType(KeyType.RANGE).build())
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build())
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));
        dynamo.updateTimeToLive(u -> u.tableName("things")
                .timeToLiveSpecification(t -> t.attributeName("expires").enabled(true)));
    }

    private static Seen seen(DynamoDbClient dynamo, DynamoDbStreamsClient streams) {
        Map<String, String> items = new TreeMap<>();
        dynamo.scanPaginator(s -> s.tableName("things")).items()
                .forEach(item -> items.put(item.get("pk").s(), item.get("v").n() + "/" + item.get("g")));
        List<String> byGroup = new ArrayList<>();
        for (int g = 0; g < 5; g++) {
            String group = "g" + g;
            dynamo.queryPaginator(q -> q.tableName("things").indexName("byGroup")
                            .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s(group))))
                    .items().forEach(item -> byGroup.add(group + ":" + item.get("pk").s() + "@" + item.get("v").n()));
        }
        TableDescription table = dynamo.describeTable(d -> d.tableName("things")).table();
        String arn = table.latestStreamArn();
        List<String> shards = new ArrayList<>();
        List<String> records = new ArrayList<>();
        for (var shard : streams.describeStream(d -> d.streamArn(arn)).streamDescription().shards()) {
            shards.add(shard.shardId() + "<" + shard.parentShardId() + " " + shard.sequenceNumberRange());
            String iterator = streams.getShardIterator(g -> g.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType("TRIM_HORIZON")).shardIterator();
            while (iterator != null) {
                String at = iterator;
                var page = streams.getRecords(g -> g.shardIterator(at));
                for (Record record : page.records()) {
                    records.add(record.eventID() + " " + record.eventName() + " " + record.dynamodb().sequenceNumber()
                            + " " + record.dynamodb().keys() + " " + record.dynamodb().newImage().get("v")
                            + " " + record.dynamodb().oldImage().get("v"));
                }
                iterator = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        String ttl = dynamo.describeTimeToLive(d -> d.tableName("things")).timeToLiveDescription().toString();
        return new Seen(items, byGroup, table.itemCount(), table.globalSecondaryIndexes().get(0).itemCount(), shards,
                records, ttl);
    }

    private void deleteRowsFile() {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            try {
                Files.deleteIfExists(dir.resolve("rows.db" + suffix));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
                .build();
    }

    private static DynamoDbStreamsClient streams(URI endpoint) {
        return DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
                .build();
    }
}
