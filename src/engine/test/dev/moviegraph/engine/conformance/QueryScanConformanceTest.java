package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.attribute;
import static dev.moviegraph.engine.conformance.Conformance.b;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.projection;
import static dev.moviegraph.engine.conformance.Conformance.range;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.text;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Query and Scan: the order of each key type, key conditions, pages ended by Limit and by 1 MB (filtered or
 * not), parallel scans, and secondary indexes (sparse, projected, consistent or not).
 */
class QueryScanConformanceTest {
    private static final int PAGE_BYTES = 1024 * 1024;

    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String numbers;
    private static String strings;
    private static String binaries;
    private static String indexed;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        numbers = createTable(dynamo, "qsNumbers", ScalarAttributeType.N);
        strings = createTable(dynamo, "qsStrings", ScalarAttributeType.S);
        binaries = createTable(dynamo, "qsBinaries", ScalarAttributeType.B);
        indexed = createTable(dynamo, "qsIndexed", ScalarAttributeType.N, c -> c
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("g", ScalarAttributeType.S), attribute("gs", ScalarAttributeType.N),
                        attribute("lsk", ScalarAttributeType.N))
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("byG").keySchema(hash("g"), range("gs"))
                                .projection(projection(ProjectionType.ALL)).build(),
                        GlobalSecondaryIndex.builder().indexName("keysOnly").keySchema(hash("g"))
                                .projection(projection(ProjectionType.KEYS_ONLY)).build(),
                        GlobalSecondaryIndex.builder().indexName("include").keySchema(hash("g"))
                                .projection(projection(ProjectionType.INCLUDE, "inc")).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byLocal")
                        .keySchema(hash("pk"), range("lsk")).projection(projection(ProjectionType.KEYS_ONLY)).build()));
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

    private static void putAll(String table, List<Map<String, AttributeValue>> items) {
        List<WriteRequest> writes = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
            if (writes.size() == 25) {
                flush(table, writes);
            }
        }
        if (!writes.isEmpty()) {
            flush(table, writes);
        }
    }

    private static void flush(String table, List<WriteRequest> writes) {
        Map<String, List<WriteRequest>> pending = Map.of(table, List.copyOf(writes));
        writes.clear();
        while (!pending.isEmpty()) {
            Map<String, List<WriteRequest>> request = pending;
            pending = dynamo.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
        }
    }

    /** Every item of a query, following LastEvaluatedKey. */
    private static List<Map<String, AttributeValue>> queryAll(UnaryOperator<QueryRequest.Builder> request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamo.query(request.apply(QueryRequest.builder()).exclusiveStartKey(from).build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            assertTrue(++pages < 10_000, "paging ends");
        } while (start != null);
        return items;
    }

    private static List<String> column(List<Map<String, AttributeValue>> items, String name) {
        List<String> values = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            AttributeValue value = item.get(name);
            values.add(value == null ? null : value.s() != null ? value.s() : value.n());
        }
        return values;
    }

    @Test
    void numberSortKeysSortNumerically() {
        List<String> ascending = List.of("-99999999999999999999999999999999999999", "-1000", "-9.5", "-1", "-0.001",
                "0", "0.001", "1", "9", "10", "10.5", "1000", "99999999999999999999999999999999999998",
                "99999999999999999999999999999999999999", "1E+100");
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (String number : ascending) {
            items.add(item("pk", "sorted", "sk", n(number)));
        }
        Collections.shuffle(items, new Random(7));
        putAll(numbers, items);
        List<String> forward = column(queryAll(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("sorted")))), "sk");
        assertEquals(ascending.size(), forward.size());
        for (int i = 0; i < ascending.size(); i++) {
            assertEquals(0, new BigDecimal(ascending.get(i)).compareTo(new BigDecimal(forward.get(i))),
                    "position " + i + ": " + forward);
        }
        // a number key is its value: 1.50 names the item stored as 1.5
        dynamo.putItem(p -> p.tableName(numbers).item(item("pk", "sameNumber", "sk", n("1.5"), "v", 1)));
        dynamo.putItem(p -> p.tableName(numbers).item(item("pk", "sameNumber", "sk", n("1.50"), "v", 2)));
        List<Map<String, AttributeValue>> same = queryAll(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("sameNumber"))));
        assertEquals(1, same.size(), "1.5 and 1.50 are one key");
        assertEquals(n(2), same.get(0).get("v"));
        assertEquals(n(2), dynamo.getItem(g -> g.tableName(numbers).key(item("pk", "sameNumber", "sk", n("015E-1"))))
                .item().get("v"));

        List<String> backward = column(queryAll(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("sorted"))).scanIndexForward(false)), "sk");
        List<String> reversed = new ArrayList<>(forward);
        Collections.reverse(reversed);
        assertEquals(reversed, backward);
    }

    @Test
    void stringSortKeysSortByUtf8BytesNotUtf16Units() {
        // UTF-8 puts U+FF5E (EF BD 9E) before U+1F600 (F0 9F 98 80); UTF-16 would put the emoji (D83D) first
        List<String> ascending = List.of("B", "Z", "a", "aa", "é", "\uFF5E", "\uD83D\uDE00");
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (String value : ascending) {
            items.add(item("pk", "utf8", "sk", value));
        }
        Collections.shuffle(items, new Random(3));
        putAll(strings, items);
        assertEquals(ascending, column(queryAll(q -> q.tableName(strings).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("utf8")))), "sk"));
        assertEquals(List.of("\uFF5E", "\uD83D\uDE00"), column(queryAll(q -> q.tableName(strings)
                .keyConditionExpression("pk = :k AND sk > :v")
                .expressionAttributeValues(Map.of(":k", s("utf8"), ":v", s("é")))), "sk"));
    }

    @Test
    void binarySortKeysSortAsUnsignedBytes() {
        List<AttributeValue> ascending = List.of(b(0), b(0, 0), b(1), b(0x7f), b(0x80), b(0xff), b(0xff, 0));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (AttributeValue value : ascending) {
            items.add(item("pk", "bytes", "sk", value));
        }
        Collections.shuffle(items, new Random(5));
        putAll(binaries, items);
        List<Map<String, AttributeValue>> got = queryAll(q -> q.tableName(binaries).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("bytes"))));
        assertEquals(ascending.size(), got.size());
        for (int i = 0; i < ascending.size(); i++) {
            assertArrayEquals(ascending.get(i).b().asByteArray(), got.get(i).get("sk").b().asByteArray(),
                    "position " + i);
        }
    }

    @Test
    void keyConditionsSelectRangesOfTheSortKey() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            items.add(item("pk", "range", "sk", i));
        }
        putAll(numbers, items);
        assertEquals(List.of("5"), sortKeys("sk = :a", n(5), null));
        assertEquals(List.of("1", "2"), sortKeys("sk < :a", n(3), null));
        assertEquals(List.of("1", "2", "3"), sortKeys("sk <= :a", n(3), null));
        assertEquals(List.of("9", "10"), sortKeys("sk > :a", n(8), null));
        assertEquals(List.of("8", "9", "10"), sortKeys("sk >= :a", n(8), null));
        assertEquals(List.of("3", "4", "5"), sortKeys("sk BETWEEN :a AND :b", n(3), n(5)));
        assertEquals(List.of(), sortKeys("sk > :a", n(10), null));

        putAll(strings, List.of(item("pk", "fruit", "sk", "apple"), item("pk", "fruit", "sk", "apricot"),
                item("pk", "fruit", "sk", "banana"), item("pk", "fruit", "sk", "Apple")));
        assertEquals(List.of("apple", "apricot"), column(queryAll(q -> q.tableName(strings)
                .keyConditionExpression("pk = :k AND begins_with(sk, :p)")
                .expressionAttributeValues(Map.of(":k", s("fruit"), ":p", s("ap")))), "sk"));
        assertEquals(List.of("apricot", "banana"), column(queryAll(q -> q.tableName(strings)
                .keyConditionExpression("#p = :k AND #s BETWEEN :a AND :b")
                .expressionAttributeNames(Map.of("#p", "pk", "#s", "sk"))
                .expressionAttributeValues(Map.of(":k", s("fruit"), ":a", s("apr"), ":b", s("c")))), "sk"));
    }

    private static List<String> sortKeys(String sortCondition, AttributeValue a, AttributeValue b) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":k", s("range"));
        values.put(":a", a);
        if (b != null) {
            values.put(":b", b);
        }
        return column(queryAll(q -> q.tableName(numbers).keyConditionExpression("pk = :k AND " + sortCondition)
                .expressionAttributeValues(values)), "sk");
    }

    @Test
    void keyConditionsOutsideWhatDynamoDbAllowsAreValidationErrors() {
        Map<String, AttributeValue> values = Map.of(":k", s("range"), ":a", n(1));
        assertAll("keyConditionsOutsideWhatDynamoDbAllowsAreValidationErrors",
                refused("query(keyConditionExpression('sk = :a') .expressionAttributeValues(Map.of(':a', n(1))))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("sk = :a")
                                .expressionAttributeValues(Map.of(":a", n(1))))),
                refused("query(keyConditionExpression('pk < :k') .expressionAttributeValues(Map.of(':k', s('range'))))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk < :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))))),
                refused("query(keyConditionExpression('pk = :k AND other = :a') .expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k AND other = :a")
                                .expressionAttributeValues(values))),
                refused("query(keyConditionExpression('pk = :k OR sk = :a') .expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k OR sk = :a")
                                .expressionAttributeValues(values))),
                refused("query(keyConditionExpression('pk = :k AND sk > :a AND sk < :a') .expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k AND sk > :a AND sk < :a")
                                .expressionAttributeValues(values))),
                refused("query(keyConditionExpression('pk = :k AND begins_with(sk, :a)') .expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k AND begins_with(sk, :a)")
                                .expressionAttributeValues(values))),
                refused("query(keyConditionExpression('pk = :k AND sk <> :a') .expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k AND sk <> :a")
                                .expressionAttributeValues(values))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', n(1))))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", n(1))))),
                refused("query(keyConditionExpression('pk = :k') .filterExpression('sk = :a').expressionAttributeValues(values))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .filterExpression("sk = :a").expressionAttributeValues(values)), "key"),
                refused("query()",
                        () -> dynamo.query(q -> q.tableName(numbers))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', s('range'))).select(Select....",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))).select(Select.SPECIFIC_ATTRIBUTES))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', s('range'))).select(Select....",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))).select(Select.COUNT).projectionExpression("sk"))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', s('range'))).select(Select....",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))).select(Select.ALL_PROJECTED_ATTRIBUTES))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', s('range'))).limit(0))",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))).limit(0))),
                refused("query(keyConditionExpression('pk = :k') .expressionAttributeValues(Map.of(':k', s('range'))).exclusiveStart...",
                        () -> dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("range"))).exclusiveStartKey(item("pk", "range")))));
    }

    @Test
    void pagesEndAtLimitWithTheLastEvaluatedKeyOfTheTable() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            items.add(item("pk", "paged", "sk", i, "even", i % 2 == 0 ? "yes" : "no"));
        }
        putAll(numbers, items);
        List<Integer> sizes = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                    .expressionAttributeValues(Map.of(":k", s("paged"))).limit(3).exclusiveStartKey(from));
            sizes.add(page.count());
            keys.addAll(column(page.items(), "sk"));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            if (start != null) {
                assertEquals(Set.of("pk", "sk"), start.keySet(), "a table's LastEvaluatedKey is its key");
                assertEquals(page.items().get(page.items().size() - 1).get("sk"), start.get("sk"));
            }
        } while (start != null);
        assertEquals(List.of(3, 3, 3, 1), sizes);
        assertEquals(List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), keys);

        // Limit counts the items read, before the filter
        QueryResponse filtered = dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .filterExpression("even = :y").expressionAttributeValues(Map.of(":k", s("paged"), ":y", s("yes")))
                .limit(4));
        assertEquals(2, filtered.count());
        assertEquals(4, filtered.scannedCount());
        assertEquals(n(4), filtered.lastEvaluatedKey().get("sk"));
        assertEquals(List.of("2", "4", "6", "8", "10"), column(queryAll(q -> q.tableName(numbers)
                .keyConditionExpression("pk = :k").filterExpression("even = :y")
                .expressionAttributeValues(Map.of(":k", s("paged"), ":y", s("yes"))).limit(4)), "sk"));

        QueryResponse counted = dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .filterExpression("even = :y").expressionAttributeValues(Map.of(":k", s("paged"), ":y", s("yes")))
                .select(Select.COUNT));
        assertEquals(5, counted.count());
        assertEquals(10, counted.scannedCount());
        assertTrue(counted.items().isEmpty(), "Select COUNT returns no items");

        // backwards pages resume backwards
        assertEquals(List.of("10", "9", "8", "7", "6", "5", "4", "3", "2", "1"), column(queryAll(q -> q
                .tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("paged"))).limit(4).scanIndexForward(false)), "sk"));
    }

    @Test
    void pagesEndAtOneMegabyteReadEvenWhenTheFilterKeepsNothing() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            items.add(item("pk", "mb", "sk", i, "d", text(100_000)));
        }
        putAll(numbers, items);
        int itemBytes = 100_000 + 1 + 2 + 2 + 2 + 2; // d + text, pk + "mb", sk + number (about)

        QueryResponse first = dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("mb"))));
        assertTrue(first.hasLastEvaluatedKey() && !first.lastEvaluatedKey().isEmpty(), "a 3 MB result is paged");
        assertTrue(first.count() >= PAGE_BYTES / itemBytes && first.count() <= PAGE_BYTES / itemBytes + 1,
                "a page holds about 1 MB: " + first.count() + " items of ~100 KB");
        assertEquals(30, queryAll(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("mb")))).size());

        QueryResponse filtered = dynamo.query(q -> q.tableName(numbers).keyConditionExpression("pk = :k")
                .filterExpression("attribute_not_exists(d)").expressionAttributeValues(Map.of(":k", s("mb"))));
        assertEquals(0, filtered.count());
        assertTrue(filtered.scannedCount() >= PAGE_BYTES / itemBytes
                        && filtered.scannedCount() <= PAGE_BYTES / itemBytes + 1,
                "the 1 MB counts what was read, not what the filter kept: scanned " + filtered.scannedCount());
        assertTrue(filtered.hasLastEvaluatedKey() && !filtered.lastEvaluatedKey().isEmpty(),
                "an empty filtered page still says where to go on");

        String scanTable = createTable(dynamo, "qsScanMb", null);
        List<Map<String, AttributeValue>> scanItems = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            scanItems.add(item("pk", "k" + i, "d", text(100_000)));
        }
        putAll(scanTable, scanItems);
        ScanResponse scanned = dynamo.scan(q -> q.tableName(scanTable).filterExpression("attribute_not_exists(d)"));
        assertEquals(0, scanned.count());
        assertTrue(scanned.scannedCount() > 0 && scanned.scannedCount() <= PAGE_BYTES / itemBytes + 1,
                "scanned " + scanned.scannedCount());
        assertTrue(scanned.hasLastEvaluatedKey() && !scanned.lastEvaluatedKey().isEmpty());
    }

    @Test
    void parallelScanSegmentsCoverEveryItemExactlyOnce() {
        String table = createTable(dynamo, "qsParallel", null);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            items.add(item("pk", "item-" + i));
            all.add("item-" + i);
        }
        putAll(table, items);
        List<String> seen = new ArrayList<>();
        for (int segment = 0; segment < 4; segment++) {
            int current = segment;
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse page = dynamo.scan(q -> q.tableName(table).segment(current).totalSegments(4).limit(7)
                        .exclusiveStartKey(from));
                assertTrue(page.count() <= 7);
                seen.addAll(column(page.items(), "pk"));
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey()
                        : null;
            } while (start != null);
        }
        assertEquals(200, seen.size(), "no item is in two segments");
        assertEquals(all, new HashSet<>(seen), "every item is in a segment");

        List<String> whole = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(ScanRequest.builder().tableName(table).limit(9).exclusiveStartKey(from)
                    .build());
            whole.addAll(column(page.items(), "pk"));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(200, whole.size());
        assertEquals(all, new HashSet<>(whole));

        assertAll("parallelScanSegmentsCoverEveryItemExactlyOnce",

                refused("scan(segment(4).totalSegments(4))",

                        () -> dynamo.scan(q -> q.tableName(table).segment(4).totalSegments(4))),

                refused("scan(segment(0))",

                        () -> dynamo.scan(q -> q.tableName(table).segment(0))),

                refused("scan(totalSegments(2))",

                        () -> dynamo.scan(q -> q.tableName(table).totalSegments(2))),

                refused("scan(segment(0).totalSegments(0))",

                        () -> dynamo.scan(q -> q.tableName(table).segment(0).totalSegments(0))),

                refused("scan(segment(-1).totalSegments(2))",

                        () -> dynamo.scan(q -> q.tableName(table).segment(-1).totalSegments(2))));
    }

    @Test
    void aGlobalIndexHoldsOnlyItemsThatHaveItsKeyAttributes() {
        putAll(indexed, List.of(
                item("pk", "sparse-a", "sk", 1, "g", "sparse-x", "gs", 1, "other", "a"),
                item("pk", "sparse-b", "sk", 1, "g", "sparse-x", "gs", 2, "other", "b"),
                item("pk", "sparse-c", "sk", 1, "other", "c"),
                item("pk", "sparse-d", "sk", 1, "g", "sparse-y", "gs", 1),
                item("pk", "sparse-e", "sk", 1, "g", "sparse-x", "other", "e")));
        assertEquals(List.of("sparse-a", "sparse-b"), byG("sparse-x"));
        assertEquals(Set.of("sparse-a", "sparse-b", "sparse-e"), new HashSet<>(column(queryAll(q -> q
                .tableName(indexed).indexName("keysOnly").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("sparse-x")))), "pk")),
                "an index keyed on g alone holds the item without gs");

        dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "sparse-a", "sk", 1)).updateExpression("REMOVE g"));
        assertEquals(List.of("sparse-b"), byG("sparse-x"), "removing the index key takes the item out");
        dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "sparse-c", "sk", 1))
                .updateExpression("SET g = :g, gs = :gs").expressionAttributeValues(Map.of(":g", s("sparse-x"),
                        ":gs", n(0))));
        assertEquals(List.of("sparse-c", "sparse-b"), byG("sparse-x"), "setting it puts the item in, in order");
        dynamo.updateItem(u -> u.tableName(indexed).key(item("pk", "sparse-b", "sk", 1))
                .updateExpression("SET g = :g").expressionAttributeValues(Map.of(":g", s("sparse-y"))));
        assertEquals(List.of("sparse-c"), byG("sparse-x"), "changing the index key moves the item");
        assertEquals(List.of("sparse-d", "sparse-b"), byG("sparse-y"));
        dynamo.deleteItem(d -> d.tableName(indexed).key(item("pk", "sparse-d", "sk", 1)));
        assertEquals(List.of("sparse-b"), byG("sparse-y"), "deleting the item takes it out");
        // index key attributes must have the index's type
        validation(() -> dynamo.putItem(p -> p.tableName(indexed).item(item("pk", "sparse-f", "sk", 1, "g", n(1)))));
        validation(() -> dynamo.putItem(p -> p.tableName(indexed).item(item("pk", "sparse-f", "sk", 1, "g", ""))));
    }

    private static List<String> byG(String g) {
        return column(queryAll(q -> q.tableName(indexed).indexName("byG").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s(g)))), "pk");
    }

    @Test
    void indexesReturnTheAttributesTheyProject() {
        putAll(indexed, List.of(item("pk", "proj-a", "sk", 1, "g", "proj", "gs", 1, "inc", "included",
                "other", "not projected", "lsk", 5)));
        Map<String, AttributeValue> keysOnly = dynamo.query(q -> q.tableName(indexed).indexName("keysOnly")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("proj")))).items().get(0);
        assertEquals(item("pk", "proj-a", "sk", 1, "g", "proj"), keysOnly);
        Map<String, AttributeValue> include = dynamo.query(q -> q.tableName(indexed).indexName("include")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("proj")))).items().get(0);
        assertEquals(item("pk", "proj-a", "sk", 1, "g", "proj", "inc", "included"), include);
        Map<String, AttributeValue> all = dynamo.query(q -> q.tableName(indexed).indexName("byG")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("proj")))).items().get(0);
        assertEquals(7, all.size());


        // a local index fetches what it does not project from the table
        Map<String, AttributeValue> local = dynamo.query(q -> q.tableName(indexed).indexName("byLocal")
                .select(Select.ALL_ATTRIBUTES).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("proj-a")))).items().get(0);
        assertEquals(s("not projected"), local.get("other"),
                "Select ALL_ATTRIBUTES on a local index fetches the whole item from the table: " + local);
        Map<String, AttributeValue> localKeys = dynamo.query(q -> q.tableName(indexed).indexName("byLocal")
                .keyConditionExpression("pk = :k").expressionAttributeValues(Map.of(":k", s("proj-a")))).items().get(0);
        assertEquals(item("pk", "proj-a", "sk", 1, "lsk", 5), localKeys);

        // a global index cannot fetch from the table what it does not project
        validation(() -> dynamo.query(q -> q.tableName(indexed).indexName("keysOnly").select(Select.ALL_ATTRIBUTES)
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("proj")))), "ALL_ATTRIBUTES");
    }

    @Test
    void aLocalIndexOrdersByItsSortKeyAndHoldsOnlyItemsWithIt() {
        putAll(indexed, List.of(item("pk", "local", "sk", 1, "lsk", 30), item("pk", "local", "sk", 2, "lsk", 10),
                item("pk", "local", "sk", 3), item("pk", "local", "sk", 4, "lsk", 20)));
        assertEquals(List.of("2", "4", "1"), column(queryAll(q -> q.tableName(indexed).indexName("byLocal")
                .consistentRead(true).keyConditionExpression("pk = :k")
                .expressionAttributeValues(Map.of(":k", s("local")))), "sk"));
        assertEquals(List.of("4", "1"), column(queryAll(q -> q.tableName(indexed).indexName("byLocal")
                .keyConditionExpression("pk = :k AND lsk >= :v")
                .expressionAttributeValues(Map.of(":k", s("local"), ":v", n(15)))), "sk"));
    }

    @Test
    void consistentReadsOnAGlobalIndexAreRefused() {
        assertAll("consistentReadsOnAGlobalIndexAreRefused",
                refused("query(indexName('byG').consistentRead(true) .keyConditionExpression('g = :g').expressionAttributeValues(Map...",
                        () -> dynamo.query(q -> q.tableName(indexed).indexName("byG").consistentRead(true)
                                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("x")))), "Consistent reads are not supported on global secondary indexes"),
                refused("scan(indexName('byG').consistentRead(true))",
                        () -> dynamo.scan(q -> q.tableName(indexed).indexName("byG").consistentRead(true)), "Consistent reads are not supported on global secondary indexes"));
        dynamo.scan(q -> q.tableName(indexed).indexName("byLocal").consistentRead(true));
        assertAll("consistentReadsOnAGlobalIndexAreRefused",
                refused("query(indexName('noSuchIndex') .keyConditionExpression('g = :g').expressionAttributeValues(Map.of(':g', s('...",
                        () -> dynamo.query(q -> q.tableName(indexed).indexName("noSuchIndex")
                                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("x")))), "index"),
                refused("query(indexName('byG') .keyConditionExpression('pk = :g').expressionAttributeValues(Map.of(':g', s('x'))))",
                        () -> dynamo.query(q -> q.tableName(indexed).indexName("byG")
                                .keyConditionExpression("pk = :g").expressionAttributeValues(Map.of(":g", s("x"))))));
    }

    @Test
    void indexPagesResumeFromAKeyOfTheIndexAndTheTable() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            items.add(item("pk", "ipage-" + i, "sk", i, "g", "ipage", "gs", i / 2));
        }
        putAll(indexed, items);
        QueryResponse first = dynamo.query(q -> q.tableName(indexed).indexName("byG").limit(1)
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("ipage"))));
        assertNotNull(first.lastEvaluatedKey());
        assertEquals(Set.of("pk", "sk", "g", "gs"), first.lastEvaluatedKey().keySet(),
                "an index's LastEvaluatedKey holds the index key and the table key");
        List<String> paged = column(queryAll(q -> q.tableName(indexed).indexName("byG").limit(1)
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("ipage")))), "pk");
        assertEquals(6, paged.size());
        assertEquals(6, new HashSet<>(paged).size(), "items sharing an index key are each returned once");
        List<String> gs = column(queryAll(q -> q.tableName(indexed).indexName("byG").limit(2)
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("ipage")))), "gs");
        assertEquals(List.of("0", "0", "1", "1", "2", "2"), gs);
        assertFalse(dynamo.scan(q -> q.tableName(indexed).indexName("keysOnly").limit(3)).items().isEmpty());
    }
}
