package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.eventually;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.sleep;
import static dev.moviegraph.engine.conformance.StreamReader.lineage;
import static dev.moviegraph.engine.conformance.StreamReader.readAll;
import static dev.moviegraph.engine.conformance.StreamReader.sequence;
import static dev.moviegraph.engine.conformance.StreamReader.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Shards that close after a period (2 s here), children naming their parents, and order kept across them. */
class StreamShardsConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory().withShardPeriod(Duration.ofSeconds(2)));
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
    void shardsCloseChildrenNameTheirParentsAndAnItemsRecordsStayInOrderAcrossThem() {
        String table = createTable(dynamo, "shards", null, c -> c.streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_IMAGE)));
        String arn = dynamo.describeTable(d -> d.tableName(table)).table().latestStreamArn();
        long until = System.nanoTime() + Duration.ofMillis(4600).toNanos();
        int writes = 0;
        while (System.nanoTime() < until) {
            int v = writes++;
            dynamo.putItem(p -> p.tableName(table).item(item("pk", "k", "v", v)));
            sleep(150);
        }
        List<Shard> shards = eventually(Duration.ofSeconds(5), () -> {
            List<Shard> now = shards(streams, arn);
            return now.size() >= 3 ? now : null;
        }, "at least three shards after 4.6 s of 2 s shards");

        Map<String, Shard> byId = new HashMap<>();
        shards.forEach(shard -> byId.put(shard.shardId(), shard));
        int closed = 0;
        int children = 0;
        for (Shard shard : shards) {
            if (shard.sequenceNumberRange().endingSequenceNumber() != null) {
                closed++;
                assertTrue(new BigInteger(shard.sequenceNumberRange().endingSequenceNumber())
                        .compareTo(new BigInteger(shard.sequenceNumberRange().startingSequenceNumber())) >= 0);
            }
            if (shard.parentShardId() != null && byId.containsKey(shard.parentShardId())) {
                children++;
                Shard parent = byId.get(shard.parentShardId());
                assertNotNull(parent.sequenceNumberRange().endingSequenceNumber(), "a parent shard is closed");
                assertTrue(new BigInteger(shard.sequenceNumberRange().startingSequenceNumber())
                                .compareTo(new BigInteger(parent.sequenceNumberRange().endingSequenceNumber())) > 0,
                        "a child's records come after its parent's");
            }
        }
        assertTrue(closed >= 2, "shards older than the period are closed: " + shards);
        assertTrue(children >= 2, "each new shard names the one it replaced: " + shards);
        long open = shards.stream().filter(shard -> shard.sequenceNumberRange().endingSequenceNumber() == null).count();
        assertEquals(1, open, "one shard is open at a time for a table this small: " + shards);

        List<Record> records = readAll(streams, arn);
        assertEquals(writes, records.size(), "every write is in exactly one shard");
        for (int i = 0; i < records.size(); i++) {
            assertEquals(n(i), records.get(i).dynamodb().newImage().get("v"), "record " + i + " in write order");
            if (i > 0) {
                assertTrue(sequence(records.get(i - 1)).compareTo(sequence(records.get(i))) < 0);
            }
        }

        // a closed shard read to its end answers no next iterator
        Shard first = lineage(shards).get(0);
        String iterator = streams.getShardIterator(g -> g.streamArn(arn).shardId(first.shardId())
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        int reads = 0;
        while (iterator != null && reads++ < 100) {
            String current = iterator;
            GetRecordsResponse page = streams.getRecords(g -> g.shardIterator(current));
            iterator = page.nextShardIterator();
        }
        assertNull(iterator, "a closed shard ends: NextShardIterator is null once it is read");
        String last = first.sequenceNumberRange().endingSequenceNumber();
        GetRecordsResponse afterEnd = streams.getRecords(g -> g.shardIterator(streams.getShardIterator(i -> i
                .streamArn(arn).shardId(first.shardId()).shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                .sequenceNumber(last)).shardIterator()));
        assertTrue(afterEnd.records().isEmpty());
        assertNull(afterEnd.nextShardIterator());
        List<String> ids = new ArrayList<>(byId.keySet());
        assertEquals(ids.size(), shards.size(), "shard ids are unique");
    }
}
