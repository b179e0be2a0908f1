package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Stream records past their retention (1 s here, 24 h in DynamoDB) are trimmed: TRIM_HORIZON starts after them and
 * asking for one by its sequence number is TrimmedDataAccessException.
 */
class StreamRetentionConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory().withStreamRetention(Duration.ofSeconds(1)));
        dynamo = Conformance.dynamo(engine);
        streams = Conformance.streams(engine);
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (streams != null) {
            streams.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void recordsPastTheRetentionAreTrimmed() {
        String table = createTable(dynamo, "retention", null, c -> c.streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.KEYS_ONLY)));
        String arn = dynamo.describeTable(d -> d.tableName(table)).table().latestStreamArn();
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "old")));
        List<Record> before = StreamReader.readAll(streams, arn);
        assertEquals(1, before.size());
        String oldSequence = before.get(0).dynamodb().sequenceNumber();
        sleep(1600);
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "new")));

        List<Record> after = StreamReader.readAll(streams, arn);
        assertEquals(List.of("new"), after.stream().map(r -> r.dynamodb().keys().get("pk").s()).toList(),
                "the trimmed record is no longer read from TRIM_HORIZON");
        String shardId = StreamReader.shards(streams, arn).stream()
                .filter(shard -> shard.sequenceNumberRange().endingSequenceNumber() == null)
                .findFirst().orElseThrow().shardId();
        assertThrows(TrimmedDataAccessException.class, () -> streams.getShardIterator(g -> g.streamArn(arn)
                .shardId(shardId).shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                .sequenceNumber(oldSequence)));
    }
}
