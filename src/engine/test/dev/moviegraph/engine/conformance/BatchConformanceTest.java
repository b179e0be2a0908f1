package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.tableName;
import static dev.moviegraph.engine.conformance.Conformance.text;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

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
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** BatchGetItem and BatchWriteItem: several tables at once, their limits and partial answers. */
class BatchConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
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

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(p -> p.item(item)).build();
    }

    private static WriteRequest delete(Map<String, AttributeValue> key) {
        return WriteRequest.builder().deleteRequest(d -> d.key(key)).build();
    }

    @Test
    void batchWritePutsAndDeletesAcrossTablesAndBatchGetReadsThemBack() {
        String one = createTable(dynamo, "batchOne", null);
        String two = createTable(dynamo, "batchTwo", ScalarAttributeType.N);
        dynamo.putItem(p -> p.tableName(one).item(item("pk", "doomed")));
        BatchWriteItemResponse written = dynamo.batchWriteItem(b -> b.requestItems(Map.of(
                one, List.of(put(item("pk", "a", "v", 1)), put(item("pk", "b", "v", 2)), delete(item("pk", "doomed"))),
                two, List.of(put(item("pk", "x", "sk", 1, "v", 3))))));
        assertTrue(written.unprocessedItems().isEmpty());

        BatchGetItemResponse got = dynamo.batchGetItem(b -> b.requestItems(Map.of(
                one, KeysAndAttributes.builder().keys(item("pk", "a"), item("pk", "b"), item("pk", "doomed"),
                        item("pk", "never")).consistentRead(true).build(),
                two, KeysAndAttributes.builder().keys(item("pk", "x", "sk", 1)).projectionExpression("v").build())));
        assertTrue(got.unprocessedKeys().isEmpty());
        assertEquals(Set.of(item("pk", "a", "v", 1), item("pk", "b", "v", 2)), new HashSet<>(got.responses().get(one)),
                "missing keys are simply absent");
        assertEquals(List.of(item("v", 3)), got.responses().get(two), "each table's projection applies");
    }

    @Test
    void batchWriteOfMoreThan25RequestsIsRefused() {
        String table = createTable(dynamo, "batch25", null);
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            writes.add(put(item("pk", "k" + i)));
        }
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, writes))));
        assertEquals(0, dynamo.scan(s -> s.tableName(table)).count(), "nothing of the refused batch was written");
        dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, writes.subList(0, 25))));
        assertEquals(25, dynamo.scan(s -> s.tableName(table)).count());
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, List.of()))),
                "length greater than or equal to 1");
    }

    @Test
    void batchGetOfMoreThan100KeysIsRefused() {
        String table = createTable(dynamo, "batch100", null);
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            keys.add(item("pk", "k" + i));
        }
        validation(() -> dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(keys).build()))));
        assertTrue(dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(keys.subList(0, 100)).build()))).responses().get(table).isEmpty());
    }

    @Test
    void theBatchLimitsCountRequestsAcrossAllTables() {
        String one = createTable(dynamo, "batchAcrossOne", null);
        String two = createTable(dynamo, "batchAcrossTwo", null);
        List<WriteRequest> first = new ArrayList<>();
        List<WriteRequest> second = new ArrayList<>();
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 13; i++) {
            first.add(put(item("pk", "k" + i)));
            second.add(put(item("pk", "k" + i)));
        }
        for (int i = 0; i < 51; i++) {
            keys.add(item("pk", "k" + i));
        }
        assertAll("limits over the whole request",
                Conformance.refused("BatchWriteItem of 13 + 13 requests", () -> dynamo.batchWriteItem(b -> b
                        .requestItems(Map.of(one, first, two, second)))),
                Conformance.refused("BatchGetItem of 51 + 51 keys", () -> dynamo.batchGetItem(b -> b
                        .requestItems(Map.of(one, KeysAndAttributes.builder().keys(keys).build(),
                                two, KeysAndAttributes.builder().keys(keys).build())))));
    }

    @Test
    void batchesNamingOneItemTwiceAreRefused() {
        String table = createTable(dynamo, "batchDup", null);
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table,
                List.of(put(item("pk", "same", "v", 1)), put(item("pk", "same", "v", 2)))))), "duplicates");
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table,
                List.of(put(item("pk", "same")), delete(item("pk", "same")))))), "duplicates");
        validation(() -> dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(item("pk", "same"), item("pk", "same")).build()))), "duplicates");
        assertFalse(dynamo.getItem(g -> g.tableName(table).key(item("pk", "same"))).hasItem());
    }

    @Test
    void batchesValidateEachRequest() {
        String table = createTable(dynamo, "batchInvalid", null);
        // one bad item fails the whole batch, and nothing is written
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table,
                List.of(put(item("pk", "fine")), put(item("nokey", "x")))))));
        assertFalse(dynamo.getItem(g -> g.tableName(table).key(item("pk", "fine")).consistentRead(true)).hasItem());
        validation(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table,
                List.of(put(item("pk", "big", "d", text(410_000))))))));
        validation(() -> dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(item("pk", "k", "extra", "x")).build()))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(
                tableName("absent"), List.of(put(item("pk", "k")))))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.batchGetItem(b -> b.requestItems(Map.of(
                tableName("absent"), KeysAndAttributes.builder().keys(item("pk", "k")).build()))));
    }

    @Test
    void batchGetAnswersAtMost16MegabytesAndHandsBackTheRestAsUnprocessedKeys() {
        String table = createTable(dynamo, "batch16mb", null);
        List<WriteRequest> writes = new ArrayList<>();
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        String payload = text(200_000);
        for (int i = 0; i < 100; i++) {
            keys.add(item("pk", "k" + i));
            writes.add(put(item("pk", "k" + i, "d", payload)));
            if (writes.size() == 25) {
                List<WriteRequest> batch = List.copyOf(writes);
                Map<String, List<WriteRequest>> pending = Map.of(table, batch);
                while (!pending.isEmpty()) {
                    Map<String, List<WriteRequest>> request = pending;
                    pending = dynamo.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
                }
                writes.clear();
            }
        }
        BatchGetItemResponse first = dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(keys).build())));
        int returned = first.responses().get(table).size();
        long bytes = returned * 200_000L;
        assertTrue(bytes <= 16L * 1024 * 1024, "at most 16 MB answered: " + returned + " items of 200 KB");
        assertTrue(returned > 0, "a partial answer holds items");
        assertTrue(first.hasUnprocessedKeys() && first.unprocessedKeys().containsKey(table),
                "what did not fit comes back as UnprocessedKeys");
        Set<String> seen = new HashSet<>();
        first.responses().get(table).forEach(item -> seen.add(item.get("pk").s()));
        Map<String, KeysAndAttributes> unprocessed = first.unprocessedKeys();
        assertEquals(100, returned + unprocessed.get(table).keys().size(), "every key is answered or handed back");
        int rounds = 0;
        while (!unprocessed.isEmpty() && rounds++ < 20) {
            Map<String, KeysAndAttributes> request = unprocessed;
            BatchGetItemResponse next = dynamo.batchGetItem(b -> b.requestItems(request));
            next.responses().getOrDefault(table, List.of()).forEach(item -> seen.add(item.get("pk").s()));
            unprocessed = next.unprocessedKeys();
        }
        assertEquals(100, seen.size(), "following UnprocessedKeys reads every item");
    }
}
