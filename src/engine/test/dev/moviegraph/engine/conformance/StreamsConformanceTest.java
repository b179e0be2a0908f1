package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.range;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static dev.moviegraph.engine.conformance.StreamReader.readAll;
import static dev.moviegraph.engine.conformance.StreamReader.readShard;
import static dev.moviegraph.engine.conformance.StreamReader.sequence;
import static dev.moviegraph.engine.conformance.StreamReader.shards;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** DynamoDB Streams: images per view type, one record per change, order, iterators and the stream's description. */
class StreamsConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
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

    private static String streamedTable(String hint, StreamViewType viewType) {
        return createTable(dynamo, hint, null, c -> c.streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(viewType)));
    }

    private static String streamOf(String table) {
        return dynamo.describeTable(d -> d.tableName(table)).table().latestStreamArn();
    }

    private static List<Record> changesIn(String table, StreamViewType viewType) {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "k", "v", 1)));
        dynamo.updateItem(u -> u.tableName(table).key(item("pk", "k")).updateExpression("SET v = :two")
                .expressionAttributeValues(Map.of(":two", n(2))));
        dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "k")));
        List<Record> records = readAll(streams, streamOf(table));
        assertEquals(List.of(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE),
                records.stream().map(Record::eventName).toList(), viewType + ": one record per change");
        Set<String> eventIds = new HashSet<>();
        Instant before = Instant.now().minusSeconds(300);
        for (Record record : records) {
            assertEquals("aws:dynamodb", record.eventSource());
            assertEquals("us-east-1", record.awsRegion());
            assertNotNull(record.eventVersion());
            assertTrue(eventIds.add(record.eventID()), "eventID is unique");
            assertNull(record.userIdentity(), "a user's change names no service identity");
            StreamRecord change = record.dynamodb();
            assertEquals(item("pk", "k"), change.keys());
            assertEquals(viewType, change.streamViewType());
            assertTrue(change.sizeBytes() > 0);
            assertNotNull(change.approximateCreationDateTime());
            assertTrue(change.approximateCreationDateTime().isAfter(before)
                    && change.approximateCreationDateTime().isBefore(Instant.now().plusSeconds(300)));
        }
        for (int i = 1; i < records.size(); i++) {
            assertTrue(sequence(records.get(i - 1)).compareTo(sequence(records.get(i))) < 0,
                    "sequence numbers increase");
        }
        return records;
    }

    private static Map<String, AttributeValue> newImage(Record record) {
        return record.dynamodb().hasNewImage() ? record.dynamodb().newImage() : null;
    }

    private static Map<String, AttributeValue> oldImage(Record record) {
        return record.dynamodb().hasOldImage() ? record.dynamodb().oldImage() : null;
    }

    @Test
    void eachViewTypeCarriesItsImages() {
        Map<String, AttributeValue> v1 = item("pk", "k", "v", 1);
        Map<String, AttributeValue> v2 = item("pk", "k", "v", 2);

        List<Record> keys = changesIn(streamedTable("viewKeys", StreamViewType.KEYS_ONLY), StreamViewType.KEYS_ONLY);
        for (Record record : keys) {
            assertNull(newImage(record));
            assertNull(oldImage(record));
        }

        List<Record> fresh = changesIn(streamedTable("viewNew", StreamViewType.NEW_IMAGE), StreamViewType.NEW_IMAGE);
        assertEquals(v1, newImage(fresh.get(0)));
        assertEquals(v2, newImage(fresh.get(1)));
        assertNull(newImage(fresh.get(2)));
        fresh.forEach(record -> assertNull(oldImage(record)));

        List<Record> old = changesIn(streamedTable("viewOld", StreamViewType.OLD_IMAGE), StreamViewType.OLD_IMAGE);
        assertNull(oldImage(old.get(0)));
        assertEquals(v1, oldImage(old.get(1)));
        assertEquals(v2, oldImage(old.get(2)));
        old.forEach(record -> assertNull(newImage(record)));

        List<Record> both = changesIn(streamedTable("viewBoth", StreamViewType.NEW_AND_OLD_IMAGES),
                StreamViewType.NEW_AND_OLD_IMAGES);
        assertEquals(v1, newImage(both.get(0)));
        assertNull(oldImage(both.get(0)));
        assertEquals(v1, oldImage(both.get(1)));
        assertEquals(v2, newImage(both.get(1)));
        assertEquals(v2, oldImage(both.get(2)));
        assertNull(newImage(both.get(2)));
    }

    @Test
    void listStreamsAndDescribeStreamDescribeTheTablesStream() {
        String table = createTable(dynamo, "describeStream", ScalarAttributeType.N, c -> c
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        String arn = streamOf(table);
        var listed = streams.listStreams(l -> l.tableName(table)).streams();
        assertEquals(1, listed.size());
        assertEquals(arn, listed.get(0).streamArn());
        assertEquals(table, listed.get(0).tableName());
        assertNotNull(listed.get(0).streamLabel());
        assertTrue(arn.endsWith("/stream/" + listed.get(0).streamLabel()), arn);
        assertTrue(streams.listStreams().streams().stream().anyMatch(stream -> stream.streamArn().equals(arn)));

        StreamDescription description = streams.describeStream(d -> d.streamArn(arn)).streamDescription();
        assertEquals(arn, description.streamArn());
        assertEquals(listed.get(0).streamLabel(), description.streamLabel());
        assertEquals(StreamStatus.ENABLED, description.streamStatus());
        assertEquals(StreamViewType.NEW_IMAGE, description.streamViewType());
        assertEquals(table, description.tableName());
        assertEquals(List.of(hash("pk"), range("sk")), description.keySchema());
        assertNotNull(description.creationRequestDateTime());
        assertFalse(description.shards().isEmpty(), "an enabled stream has a shard");
        Shard shard = description.shards().get(0);
        assertNotNull(shard.shardId());
        assertNotNull(shard.sequenceNumberRange().startingSequenceNumber());
        assertNull(shard.sequenceNumberRange().endingSequenceNumber(), "an open shard has no end");

        assertThrows(ResourceNotFoundException.class, () -> streams.describeStream(d -> d.streamArn(arn
                .replace(table, table + "-absent"))));
        assertTrue(streams.listStreams(l -> l.tableName(createTable(dynamo, "noStream", null))).streams().isEmpty());
    }

    @Test
    void listStreamsPagesThroughEveryStream() {
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            mine.add(streamOf(streamedTable("listStreams" + i, StreamViewType.KEYS_ONLY)));
        }
        List<String> all = new ArrayList<>();
        String start = null;
        int pages = 0;
        do {
            String from = start;
            var page = streams.listStreams(l -> l.limit(2).exclusiveStartStreamArn(from));
            assertTrue(page.streams().size() <= 2, "a page holds at most Limit streams");
            page.streams().forEach(stream -> all.add(stream.streamArn()));
            start = page.lastEvaluatedStreamArn();
            assertTrue(++pages < 1000);
        } while (start != null);
        assertTrue(all.containsAll(mine), "every stream listed: " + all);
        assertEquals(all.size(), new HashSet<>(all).size(), "no stream listed twice");
    }

    @Test
    void everyChangeWritesExactlyOneRecordAndNothingElseWritesAny() {
        String table = streamedTable("exactlyOnce", StreamViewType.NEW_AND_OLD_IMAGES);
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String key = "batch-" + i;
            batch.add(WriteRequest.builder().putRequest(p -> p.item(item("pk", key))).build());
        }
        dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, batch)));                        // 5 INSERT
        dynamo.transactWriteItems(t -> t.transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item("pk", "tx-new"))).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", "batch-0"))
                        .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", n(1)))).build(),
                TransactWriteItem.builder().delete(d -> d.tableName(table).key(item("pk", "batch-1"))).build(),
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(item("pk", "batch-2"))
                        .conditionExpression("attribute_exists(pk)")).build()));              // INSERT MODIFY REMOVE
        assertThrows(TransactionCanceledException.class, () -> dynamo.transactWriteItems(t -> t.transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item("pk", "tx-never"))).build(),
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(item("pk", "batch-3"))
                        .conditionExpression("attribute_not_exists(pk)")).build())));           // nothing
        assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(p -> p.tableName(table)
                .item(item("pk", "batch-2", "v", 9)).conditionExpression("attribute_not_exists(pk)")));  // nothing
        dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "never-there")));              // nothing
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "batch-0", "v", 1)));             // unchanged: nothing
        dynamo.updateItem(u -> u.tableName(table).key(item("pk", "batch-0")).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n(1))));                                  // unchanged: nothing
        dynamo.updateItem(u -> u.tableName(table).key(item("pk", "batch-4")).updateExpression("REMOVE nope")); // nothing
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "equal", "m", Conformance.m("a", n(1), "b", n(2)),
                "ss", Conformance.ss("x", "y"))));                                               // INSERT
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "equal", "m", Conformance.m("b", n(2), "a", n(1)),
                "ss", Conformance.ss("y", "x"))));                                     // equal, in another order: nothing

        List<Record> records = readAll(streams, streamOf(table));
        List<String> summary = new ArrayList<>();
        for (Record record : records) {
            summary.add(record.eventName() + " " + record.dynamodb().keys().get("pk").s());
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            expected.add("INSERT batch-" + i);
        }
        assertEquals(Set.copyOf(expected), Set.copyOf(summary.subList(0, 5)));
        assertEquals(Set.of("INSERT tx-new", "MODIFY batch-0", "REMOVE batch-1"), Set.copyOf(summary.subList(5,
                Math.min(8, summary.size()))));
        assertEquals(9, summary.size(), "exactly one record per change, none for writes that changed nothing"
                + " (Developer Guide, DynamoDB Streams: \"If you perform a PutItem or UpdateItem operation that does not"
                + " change any data in an item, DynamoDB Streams does not write a stream record\"): " + summary);
        assertEquals("INSERT equal", summary.get(summary.size() - 1));
    }

    @Test
    void aWriteThatCreatesAnItemIsAnInsertAndOneThatReplacesItIsAModify() {
        String table = streamedTable("eventNames", StreamViewType.NEW_AND_OLD_IMAGES);
        dynamo.updateItem(u -> u.tableName(table).key(item("pk", "by-update")).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n(1))));
        dynamo.transactWriteItems(t -> t.transactItems(TransactWriteItem.builder().update(u -> u.tableName(table)
                .key(item("pk", "by-transaction")).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n(1)))).build()));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "by-update", "w", 2)));
        List<Record> records = readAll(streams, streamOf(table));
        assertEquals(List.of(OperationType.INSERT, OperationType.INSERT, OperationType.MODIFY),
                records.stream().map(Record::eventName).toList());
        assertEquals(item("pk", "by-update", "v", 1), records.get(2).dynamodb().oldImage());
        assertEquals(item("pk", "by-update", "w", 2), records.get(2).dynamodb().newImage(),
                "a put replaces the whole item: the new image has no v");
    }

    @Test
    void recordsOfOneItemComeInTheOrderOfItsChanges() {
        String table = streamedTable("order", StreamViewType.NEW_IMAGE);
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "k", "v", 0)));
        for (int i = 1; i <= 25; i++) {
            int v = i;
            dynamo.updateItem(u -> u.tableName(table).key(item("pk", "k")).updateExpression("SET v = :v")
                    .expressionAttributeValues(Map.of(":v", n(v))));
        }
        List<Record> records = readAll(streams, streamOf(table));
        assertEquals(26, records.size());
        for (int i = 0; i < records.size(); i++) {
            assertEquals(n(i), records.get(i).dynamodb().newImage().get("v"), "record " + i);
        }
    }

    @Test
    void shardIteratorsStartAtTrimHorizonLatestOrASequenceNumber() {
        String table = streamedTable("iterators", StreamViewType.KEYS_ONLY);
        String arn = streamOf(table);
        String shardId = shards(streams, arn).get(0).shardId();
        String latest = streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.LATEST)).shardIterator();
        for (int i = 1; i <= 3; i++) {
            String key = "r" + i;
            dynamo.putItem(p -> p.tableName(table).item(item("pk", key)));
        }
        List<Record> all = readShard(streams, arn, shardId, ShardIteratorType.TRIM_HORIZON, null);
        assertEquals(List.of("r1", "r2", "r3"), keysOf(all));
        GetRecordsResponse fromLatest = streams.getRecords(g -> g.shardIterator(latest));
        assertEquals(List.of("r1", "r2", "r3"), keysOf(fromLatest.records()),
                "a LATEST iterator taken before the writes reads them");

        String second = all.get(1).dynamodb().sequenceNumber();
        String newest = all.get(2).dynamodb().sequenceNumber();
        assertEquals(List.of("r2", "r3"), keysOf(readShard(streams, arn, shardId,
                ShardIteratorType.AT_SEQUENCE_NUMBER, second)));
        assertEquals(List.of("r3"), keysOf(readShard(streams, arn, shardId,
                ShardIteratorType.AFTER_SEQUENCE_NUMBER, second)));

        String afterNewest = streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(newest)).shardIterator();
        GetRecordsResponse empty = streams.getRecords(g -> g.shardIterator(afterNewest));
        assertTrue(empty.records().isEmpty(), "nothing after the newest record yet");
        assertNotNull(empty.nextShardIterator(), "an open shard always gives a next iterator");
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "r4")));
        assertEquals(List.of("r4"), keysOf(streams.getRecords(g -> g.shardIterator(empty.nextShardIterator()))
                .records()), "the next iterator picks up the new record");

        String fresh = streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.LATEST)).shardIterator();
        assertTrue(streams.getRecords(g -> g.shardIterator(fresh)).records().isEmpty(),
                "LATEST starts after the newest record");

        String trim = streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        GetRecordsResponse one = streams.getRecords(g -> g.shardIterator(trim).limit(1));
        assertEquals(List.of("r1"), keysOf(one.records()));
        GetRecordsResponse two = streams.getRecords(g -> g.shardIterator(one.nextShardIterator()).limit(2));
        assertEquals(List.of("r2", "r3"), keysOf(two.records()));
    }

    private static List<String> keysOf(List<Record> records) {
        return records.stream().map(record -> record.dynamodb().keys().get("pk").s()).toList();
    }

    @Test
    void malformedIteratorRequestsAreRefused() {
        String table = streamedTable("badIterators", StreamViewType.KEYS_ONLY);
        String arn = streamOf(table);
        String shardId = shards(streams, arn).get(0).shardId();
        assertAll("malformedIteratorRequestsAreRefused",
                refused("getShardIterator(streamArn(arn).shardId(shardId) .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER))",
                        () -> streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                                .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER))),
                refused("getShardIterator(streamArn(arn).shardId(shardId) .shardIteratorType(ShardIteratorType.TRIM_HORIZON).sequenc...",
                        () -> streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON).sequenceNumber("not-a-number"))));
        assertThrows(ResourceNotFoundException.class, () -> streams.getShardIterator(g -> g.streamArn(arn)
                .shardId("shardId-00000000000000000000-deadbeef").shardIteratorType(ShardIteratorType.TRIM_HORIZON)));
        validation(() -> streams.getRecords(g -> g.shardIterator("not an iterator")));
        String trim = streams.getShardIterator(g -> g.streamArn(arn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        assertAll("malformedIteratorRequestsAreRefused",
                refused("getRecords(shardIterator(trim).limit(0))",
                        () -> streams.getRecords(g -> g.shardIterator(trim).limit(0))),
                refused("getRecords(shardIterator(trim).limit(1001))",
                        () -> streams.getRecords(g -> g.shardIterator(trim).limit(1001))));
    }

    @Test
    void aDisabledStreamRecordsNoMoreButKeepsWhatItHas() {
        String table = streamedTable("disabled", StreamViewType.KEYS_ONLY);
        String arn = streamOf(table);
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "before")));
        dynamo.updateTable(u -> u.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "after")));
        assertEquals(List.of("before"), keysOf(readAll(streams, arn)));
        StreamStatus status = streams.describeStream(d -> d.streamArn(arn)).streamDescription().streamStatus();
        assertTrue(status == StreamStatus.DISABLED || status == StreamStatus.DISABLING, status.toString());
        for (Shard shard : shards(streams, arn)) {
            assertNotNull(shard.sequenceNumberRange().endingSequenceNumber(),
                    "a disabled stream's shards are closed");
        }
    }

    @Test
    void streamRecordsCarryEveryAttributeTypeAndTheTablesKey() {
        String table = createTable(dynamo, "typesStream", ScalarAttributeType.N, c -> c
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        Map<String, AttributeValue> item = item("pk", "k", "sk", n("12.5"), "s", "x", "n", n(-1),
                "b", Conformance.b(1, 255), "t", Conformance.bool(false), "nul", Conformance.nul(),
                "l", Conformance.l(s("a"), n(1)), "m", Conformance.m("x", s("y")), "ss", Conformance.ss("q"),
                "ns", Conformance.ns("7"), "bs", Conformance.bs(Conformance.bytes(3)));
        dynamo.putItem(p -> p.tableName(table).item(item));
        Record record = readAll(streams, streamOf(table)).get(0);
        assertEquals(item("pk", "k", "sk", n("12.5")), record.dynamodb().keys());
        assertEquals(item, record.dynamodb().newImage());
    }
}
