package dev.moviegraph.engine.store;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a stream's consumer sees across restarts of an engine on a data folder, rows on disk, the journal
 * compacting as it goes: the same stream, the same shard ids, the same records with the same numbers, the same
 * time to live setting, and an iterator taken before a restart reads on after it.
 */
class StreamsAfterRestartTest {
    @TempDir
    Path dir;

    /** What a consumer can see of the stream. */
    private record Seen(String arn, List<String> shards, List<String> records, TimeToLiveStatus ttl) {
    }

    @Test
    void aRestartServesTheSameStreamShardsAndRecords() {
        // compactions as the writes go (a 16 KB floor): restarts read a snapshot and the segments after it
        EngineOptions options = EngineOptions.inMemory().withDataDir(dir).withCompactAfterBytes(16 << 10);
        Seen before;
        String iterator;
        try (Engine engine = Engine.start(options);
             DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            createTable(dynamo);
            dynamo.updateTimeToLive(u -> u.tableName("events")
                    .timeToLiveSpecification(t -> t.attributeName("expires").enabled(true)));
            for (int i = 0; i < 300; i++) {
                put(dynamo, "e" + (i % 120), i);
            }
            before = seen(dynamo, streams);
            assertEquals(300, before.records().size());
            // a consumer's place in the first shard, after its first 100 records
            String shard = before.shards().get(0).split(" ")[0];
            String at = streams.getShardIterator(g -> g.streamArn(before.arn()).shardId(shard)
                    .shardIteratorType("TRIM_HORIZON")).shardIterator();
            GetRecordsResponse first = streams.getRecords(g -> g.shardIterator(at).limit(100));
            assertEquals(100, first.records().size());
            iterator = first.nextShardIterator();
        }
        try (var files = java.nio.file.Files.list(dir)) {
            assertTrue(files.anyMatch(file -> file.getFileName().toString().startsWith("snapshot-")),
                    "the journal compacted: the restart reads a snapshot");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (int restart = 0; restart < 2; restart++) {
            try (Engine engine = Engine.start(options);
                 DynamoDbClient dynamo = client(engine.endpoint());
                 DynamoDbStreamsClient streams = streams(engine.endpoint())) {
                assertEquals(before, seen(dynamo, streams), "after restart " + (restart + 1));
                String from = iterator;
                List<Record> rest = streams.getRecords(g -> g.shardIterator(from)).records();
                assertEquals(before.records().subList(100, 100 + rest.size()), describe(rest),
                        "the iterator taken before the restart reads on where it was");
                assertTrue(rest.size() >= 1);
            }
        }
    }

    /**
     * Shards cut while nobody wrote (a reader found the open one past its period) are cut again by the replay,
     * which sees only the records: both cut at the period's boundaries, so the ids agree.
     */
    @Test
    void shardsCutBetweenWritesHaveTheSameIdsAfterARestart() throws Exception {
        EngineOptions options = EngineOptions.inMemory().withDataDir(dir).withShardPeriod(java.time.Duration.ofMillis(700));
        List<String> before;
        List<String> recordsBefore;
        try (Engine engine = Engine.start(options);
             DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            createTable(dynamo);
            int version = 0;
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 3; i++) {
                    put(dynamo, "e" + i, version++);
                }
                Thread.sleep(900);
                seen(dynamo, streams); // a reader past the period: the open shard is cut now, between writes
                Thread.sleep(300);
            }
            put(dynamo, "last", version);
            Seen seen = seen(dynamo, streams);
            before = seen.shards();
            recordsBefore = seen.records();
            assertTrue(before.size() >= 4, "shards cut: " + before);
        }
        try (Engine engine = Engine.start(options);
             DynamoDbClient dynamo = client(engine.endpoint());
             DynamoDbStreamsClient streams = streams(engine.endpoint())) {
            Seen after = seen(dynamo, streams);
            assertEquals(recordsBefore, after.records());
            // later now, so more shards may have been cut since; those there before keep their ids and lineage
            assertEquals(ids(before), ids(after.shards()).subList(0, before.size()));
        }
    }

    private static List<String> ids(List<String> shards) {
        return shards.stream().map(shard -> shard.substring(0, shard.lastIndexOf(' '))).toList();
    }

    private static void createTable(DynamoDbClient dynamo) {
        dynamo.createTable(c -> c.tableName("events").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                        .attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));
    }

    private static void put(DynamoDbClient dynamo, String key, int version) {
        dynamo.putItem(p -> p.tableName("events").item(Map.of("pk", AttributeValue.fromS(key),
                "v", AttributeValue.fromN(Integer.toString(version)),
                "expires", AttributeValue.fromN(Long.toString(4_000_000_000L + version)),
                "pad", AttributeValue.fromS("p".repeat(200)))));
    }

    private static Seen seen(DynamoDbClient dynamo, DynamoDbStreamsClient streams) {
        String arn = streams.listStreams(l -> l.tableName("events")).streams().get(0).streamArn();
        List<Shard> shards = streams.describeStream(d -> d.streamArn(arn)).streamDescription().shards();
        List<String> records = new ArrayList<>();
        for (Shard shard : shards) {
            String iterator = streams.getShardIterator(g -> g.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType("TRIM_HORIZON")).shardIterator();
            while (iterator != null) {
                String at = iterator;
                GetRecordsResponse page = streams.getRecords(g -> g.shardIterator(at));
                records.addAll(describe(page.records()));
                iterator = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        TimeToLiveStatus ttl = dynamo.describeTimeToLive(d -> d.tableName("events")).timeToLiveDescription()
                .timeToLiveStatus();
        return new Seen(arn, shards.stream().map(s -> s.shardId() + " " + s.parentShardId() + " "
                + s.sequenceNumberRange().startingSequenceNumber()).toList(), records, ttl);
    }

    private static List<String> describe(List<Record> records) {
        return records.stream().map(r -> r.eventID() + " " + r.eventName() + " " + r.dynamodb().sequenceNumber()
                + " " + r.dynamodb().keys().get("pk").s() + " " + r.dynamodb().newImage().get("v").n()).toList();
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b"))).build();
    }

    private static DynamoDbStreamsClient streams(URI endpoint) {
        return DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b"))).build();
    }
}
