package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.attribute;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.projection;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.text;
import static dev.moviegraph.engine.conformance.Conformance.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * ConsumedCapacity by DynamoDB's rules: reads in 4 KB units (half for eventually consistent reads, Query and
 * Scan summing the items before rounding), writes in 1 KB units, one more write per global index entry written
 * (two when an update moves an item within an index), transactions at twice the price; TOTAL gives the sum,
 * INDEXES the table's and each index's share.
 */
class CapacityConformanceTest {
    private static final double EXACT = 1e-9;

    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String plain;
    private static String indexed;
    private static String ranged;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        plain = createTable(dynamo, "capPlain", null);
        ranged = createTable(dynamo, "capRanged", ScalarAttributeType.N);
        indexed = createTable(dynamo, "capIndexed", null, c -> c
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("g", ScalarAttributeType.S),
                        attribute("g2", ScalarAttributeType.S))
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("gAll").keySchema(hash("g"))
                                .projection(projection(ProjectionType.ALL)).build(),
                        GlobalSecondaryIndex.builder().indexName("gKeys").keySchema(hash("g2"))
                                .projection(projection(ProjectionType.KEYS_ONLY)).build()));
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** An item of exactly {@code bytes} by DynamoDB's measure (names and values in UTF-8), padded in "d". */
    private static Map<String, AttributeValue> sized(int bytes, Object... keyAndMore) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(item(keyAndMore));
        int used = 1; // the name "d"
        for (Map.Entry<String, AttributeValue> entry : item.entrySet()) {
            used += utf8(entry.getKey()) + utf8(entry.getValue().s());
        }
        item.put("d", s(text(bytes - used)));
        return item;
    }

    private static double units(ConsumedCapacity consumed) {
        assertNotNull(consumed, "ConsumedCapacity returned when asked for");
        return consumed.capacityUnits();
    }

    @Test
    void getItemReadsIn4KbUnitsHalvedWhenEventuallyConsistent() {
        dynamo.putItem(p -> p.tableName(plain).item(sized(5000, "pk", "get5k")));
        assertEquals(2.0, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "get5k")).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(1.0, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "get5k"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(2.0, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "get5k")).consistentRead(true)
                .projectionExpression("pk").returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()), EXACT, "a projection does not make the read cheaper");
        assertEquals(0.5, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "absent"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT,
                "a missing item costs the minimum");
        assertEquals(1.0, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "absent")).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        dynamo.putItem(p -> p.tableName(plain).item(sized(4096, "pk", "get4k")));
        assertEquals(1.0, units(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "get4k")).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT,
                "exactly 4 KB is one unit");
    }

    @Test
    void consumedCapacityIsOnlyReturnedWhenAskedAndNamesTheTable() {
        dynamo.putItem(p -> p.tableName(plain).item(item("pk", "asked")));
        assertNull(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "asked"))).consumedCapacity());
        assertNull(dynamo.getItem(g -> g.tableName(plain).key(item("pk", "asked"))
                .returnConsumedCapacity(ReturnConsumedCapacity.NONE)).consumedCapacity());
        ConsumedCapacity total = dynamo.getItem(g -> g.tableName(plain).key(item("pk", "asked"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(plain, total.tableName());
        assertNull(total.table(), "TOTAL gives no per-table breakdown");
        ConsumedCapacity indexes = dynamo.getItem(g -> g.tableName(plain).key(item("pk", "asked"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(plain, indexes.tableName());
        assertEquals(0.5, indexes.capacityUnits(), EXACT);
        assertEquals(0.5, indexes.table().capacityUnits(), EXACT);
    }

    @Test
    void queryAndScanSumTheItemsReadBeforeRounding() {
        String scanned = createTable(dynamo, "capScan", null);
        for (int i = 0; i < 10; i++) {
            int sk = i;
            dynamo.putItem(p -> p.tableName(ranged).item(withSk(sized(1000, "pk", "q"), sk)));
            dynamo.putItem(p -> p.tableName(scanned).item(sized(1000, "pk", "s" + sk)));
        }
        // 10 items of ~1,000 bytes = ~10,000 bytes: 3 units of 4 KB strongly consistent, 1.5 eventually
        assertEquals(3.0, units(dynamo.query(q -> q.tableName(ranged).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("q"))).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(1.5, units(dynamo.query(q -> q.tableName(ranged).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("q")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(1.5, units(dynamo.query(q -> q.tableName(ranged).keyConditionExpression("pk = :k")
                .filterExpression("attribute_not_exists(d)").expressionAttributeValues(Map.of(":k", s("q")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT,
                "filtered-out items were read all the same");
        assertEquals(0.5, units(dynamo.query(q -> q.tableName(ranged).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("q"))).limit(3)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(1.5, units(dynamo.scan(q -> q.tableName(scanned)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
        assertEquals(3.0, units(dynamo.scan(q -> q.tableName(scanned).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()), EXACT);
    }

    private static Map<String, AttributeValue> withSk(Map<String, AttributeValue> item, int sk) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
        copy.put("sk", AttributeValue.fromN(Integer.toString(sk)));
        // keep about 1,000 bytes: the number takes a few bytes more
        String d = copy.get("d").s();
        copy.put("d", s(d.substring(0, d.length() - 4)));
        return copy;
    }

    @Test
    void writesCostOneUnitPerKilobyteAndOneMorePerGlobalIndexEntryWritten() {
        ConsumedCapacity small = dynamo.putItem(p -> p.tableName(plain).item(item("pk", "w-small"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(1.0, units(small), EXACT);
        ConsumedCapacity put = dynamo.putItem(p -> p.tableName(plain).item(sized(1500, "pk", "w-1500"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(2.0, units(put), EXACT, "1.5 KB is two write units");
        ConsumedCapacity exact = dynamo.putItem(p -> p.tableName(plain).item(sized(1024, "pk", "w-1024"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(1.0, units(exact), EXACT, "exactly 1 KB is one write unit");
        ConsumedCapacity replaced = dynamo.putItem(p -> p.tableName(plain).item(item("pk", "w-1500"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(2.0, units(replaced), EXACT, "a put is charged the larger of the old and new item");
        ConsumedCapacity deletedMissing = dynamo.deleteItem(d -> d.tableName(plain).key(item("pk", "w-none"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(1.0, units(deletedMissing), EXACT);

        // table 2 + gAll (the whole 1.5 KB item) 2 + gKeys (keys only) 1
        ConsumedCapacity indexedPut = dynamo.putItem(p -> p.tableName(indexed)
                .item(sized(1500, "pk", "w-idx", "g", "G", "g2", "K"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(5.0, units(indexedPut), EXACT);
        assertEquals(2.0, indexedPut.table().capacityUnits(), EXACT);
        assertEquals(2.0, index(indexedPut, "gAll"), EXACT);
        assertEquals(1.0, index(indexedPut, "gKeys"), EXACT);

        ConsumedCapacity total = dynamo.putItem(p -> p.tableName(indexed)
                .item(sized(1500, "pk", "w-idx2", "g", "G", "g2", "K"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(5.0, units(total), EXACT, "TOTAL includes the index writes");
        assertTrue(!total.hasGlobalSecondaryIndexes() || total.globalSecondaryIndexes().isEmpty());

        // a sparse item: no index key, no index write
        ConsumedCapacity sparse = dynamo.putItem(p -> p.tableName(indexed).item(sized(1500, "pk", "w-sparse"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(2.0, units(sparse), EXACT);
    }

    private static double index(ConsumedCapacity consumed, String name) {
        Capacity capacity = consumed.globalSecondaryIndexes().get(name);
        return capacity == null ? 0.0 : capacity.capacityUnits();
    }

    @Test
    void updatesWriteOnlyTheIndexesTheyTouchAndMovingAnIndexKeyIsADeleteAndAPut() {
        dynamo.putItem(p -> p.tableName(indexed).item(sized(1500, "pk", "u-idx", "g", "G", "g2", "K")));

        ConsumedCapacity nonKey = dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "u-idx"))
                .updateExpression("SET x = :x").expressionAttributeValues(Map.of(":x", s("1")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(2.0, nonKey.table().capacityUnits(), EXACT);
        assertEquals(2.0, index(nonKey, "gAll"), EXACT, "gAll projects x: its entry is rewritten");
        assertEquals(0.0, index(nonKey, "gKeys"), EXACT, "gKeys does not project x: not written");
        assertEquals(4.0, nonKey.capacityUnits(), EXACT);

        ConsumedCapacity moved = dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "u-idx"))
                .updateExpression("SET g2 = :k").expressionAttributeValues(Map.of(":k", s("L")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(2.0, moved.table().capacityUnits(), EXACT);
        assertEquals(2.0, index(moved, "gKeys"), EXACT, "a new index key: delete the old entry, put the new");
        assertEquals(2.0, index(moved, "gAll"), EXACT);
        assertEquals(6.0, moved.capacityUnits(), EXACT);

        ConsumedCapacity removed = dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "u-idx"))
                .updateExpression("REMOVE g2").returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertEquals(1.0, index(removed, "gKeys"), EXACT, "leaving an index is one delete");
        assertEquals(5.0, removed.capacityUnits(), EXACT);

        ConsumedCapacity deleted = dynamo.deleteItem(d -> d.tableName(indexed).key(item("pk", "u-idx"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(2.0, deleted.table().capacityUnits(), EXACT, "a delete is charged the deleted item's size");
        assertEquals(2.0, index(deleted, "gAll"), EXACT);
        assertEquals(0.0, index(deleted, "gKeys"), EXACT);
        assertEquals(4.0, deleted.capacityUnits(), EXACT);

        dynamo.putItem(p -> p.tableName(plain).item(sized(3000, "pk", "u-shrink")));
        ConsumedCapacity shrunk = dynamo.updateItem(u -> u.tableName(plain).key(item("pk", "u-shrink"))
                .updateExpression("REMOVE d").returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(3.0, units(shrunk), EXACT, "an update is charged the larger of the item before and after");
    }

    @Test
    void aGlobalIndexQueryIsChargedToTheIndex() {
        for (int i = 0; i < 3; i++) {
            String key = "gq-" + i;
            dynamo.putItem(p -> p.tableName(indexed).item(sized(1500, "pk", key, "g", "gq")));
        }
        // three 1.5 KB entries = 4.5 KB: 2 units of 4 KB, halved (index reads are eventually consistent)
        ConsumedCapacity consumed = dynamo.query(q -> q.tableName(indexed).indexName("gAll")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("gq")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertEquals(1.0, consumed.capacityUnits(), EXACT);
        assertEquals(1.0, index(consumed, "gAll"), EXACT);
    }

    @Test
    void transactionsCostTwiceAndBatchesChargeEachItemSeparately() {
        List<ConsumedCapacity> written = dynamo.transactWriteItems(t -> t.transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(plain).item(sized(1500, "pk", "tx-1500"))).build())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(1, written.size());
        assertEquals(plain, written.get(0).tableName());
        assertEquals(4.0, written.get(0).capacityUnits(), EXACT, "1.5 KB transactional write = 2 x 2 units");

        dynamo.putItem(p -> p.tableName(plain).item(sized(5000, "pk", "tx-5k")));
        List<ConsumedCapacity> read = dynamo.transactGetItems(t -> t.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(plain).key(item("pk", "tx-5k"))).build())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(4.0, read.get(0).capacityUnits(), EXACT, "5 KB transactional read = 2 x 2 units");

        dynamo.putItem(p -> p.tableName(plain).item(sized(5000, "pk", "tx-5k-2")));
        List<ConsumedCapacity> batchRead = dynamo.batchGetItem(b -> b.requestItems(Map.of(plain,
                KeysAndAttributes.builder().keys(item("pk", "tx-5k"), item("pk", "tx-5k-2")).build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(1, batchRead.size());
        assertEquals(2.0, batchRead.get(0).capacityUnits(), EXACT, "two 5 KB eventually consistent reads: 1 + 1");

        List<ConsumedCapacity> batchWrite = dynamo.batchWriteItem(b -> b.requestItems(Map.of(plain, List.of(
                WriteRequest.builder().putRequest(p -> p.item(sized(1500, "pk", "bw-1"))).build(),
                WriteRequest.builder().putRequest(p -> p.item(sized(1500, "pk", "bw-2"))).build())))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(4.0, batchWrite.get(0).capacityUnits(), EXACT);
    }

    @Test
    void onlyTransactionsSplitTheirUnitsIntoReadsOrWrites() {
        dynamo.putItem(p -> p.tableName(indexed).item(sized(1500, "pk", "shape", "g", "shape")));
        dynamo.putItem(p -> p.tableName(plain).item(sized(1500, "pk", "shape-get")));
        ConsumedCapacity got = dynamo.getItem(g -> g.tableName(plain).key(item("pk", "shape-get"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        ConsumedCapacity queried = dynamo.query(q -> q.tableName(indexed).indexName("gAll")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("shape")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        ConsumedCapacity put = dynamo.putItem(p -> p.tableName(indexed).item(sized(100, "pk", "shape-2", "g", "x"))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        List<ConsumedCapacity> batch = dynamo.batchGetItem(b -> b.requestItems(Map.of(plain,
                KeysAndAttributes.builder().keys(item("pk", "shape-get")).build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        for (ConsumedCapacity single : List.of(got, queried, put, batch.get(0))) {
            assertEquals(null, single.readCapacityUnits(), single.toString());
            assertEquals(null, single.writeCapacityUnits(), single.toString());
            assertTrue(single.capacityUnits() > 0, single.toString());
        }
        assertEquals(null, got.table().readCapacityUnits(), got.toString());
        assertEquals(null, queried.globalSecondaryIndexes().get("gAll").readCapacityUnits(), queried.toString());

        List<ConsumedCapacity> written = dynamo.transactWriteItems(t -> t.transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(plain).item(sized(100, "pk", "shape-tx"))).build())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(written.get(0).capacityUnits(), written.get(0).writeCapacityUnits(), written.toString());
        List<ConsumedCapacity> read = dynamo.transactGetItems(t -> t.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(plain).key(item("pk", "shape-tx"))).build())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertEquals(read.get(0).capacityUnits(), read.get(0).readCapacityUnits(), read.toString());
    }
}
