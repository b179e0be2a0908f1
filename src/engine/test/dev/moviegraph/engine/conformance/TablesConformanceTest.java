package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.attribute;
import static dev.moviegraph.engine.conformance.Conformance.awaitActive;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.eventually;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.projection;
import static dev.moviegraph.engine.conformance.Conformance.range;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.tableName;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;

/** CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables and the time to live settings. */
class TablesConformanceTest {
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

    @Test
    void createTableWithLocalAndGlobalIndexesDescribesEachIndexItsKeysAndProjection() {
        String name = tableName("indexes");
        CreateTableResponse created = dynamo.createTable(c -> c.tableName(name)
                .keySchema(hash("pk"), range("sk"))
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("lsk", ScalarAttributeType.S), attribute("g1", ScalarAttributeType.S),
                        attribute("g2", ScalarAttributeType.S), attribute("g2s", ScalarAttributeType.N),
                        attribute("g3", ScalarAttributeType.B))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byLocal")
                        .keySchema(hash("pk"), range("lsk")).projection(projection(ProjectionType.KEYS_ONLY)).build())
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("gAll").keySchema(hash("g1"))
                                .projection(projection(ProjectionType.ALL)).build(),
                        GlobalSecondaryIndex.builder().indexName("gKeys").keySchema(hash("g2"), range("g2s"))
                                .projection(projection(ProjectionType.KEYS_ONLY)).build(),
                        GlobalSecondaryIndex.builder().indexName("gInclude").keySchema(hash("g3"))
                                .projection(projection(ProjectionType.INCLUDE, "a", "b")).build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));

        TableDescription answer = created.tableDescription();
        assertEquals(name, answer.tableName());
        assertTrue(answer.tableStatus() == TableStatus.CREATING || answer.tableStatus() == TableStatus.ACTIVE,
                "a new table is CREATING (or already ACTIVE): " + answer.tableStatus());
        assertTrue(answer.tableArn().matches("arn:aws:dynamodb:us-east-1:\\d{12}:table/" + name), answer.tableArn());
        assertEquals(List.of(hash("pk"), range("sk")), answer.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, answer.billingModeSummary().billingMode());
        assertTrue(answer.latestStreamArn().startsWith(answer.tableArn() + "/stream/"), answer.latestStreamArn());
        assertNotNull(answer.latestStreamLabel());
        assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, answer.streamSpecification().streamViewType());
        assertTrue(answer.streamSpecification().streamEnabled());

        TableDescription described = awaitActive(dynamo, name);
        assertEquals(answer.tableArn(), described.tableArn());
        assertEquals(Set.of("pk", "sk", "lsk", "g1", "g2", "g2s", "g3"),
                described.attributeDefinitions().stream().map(a -> a.attributeName()).collect(Collectors.toSet()));
        assertEquals(0L, described.itemCount());
        assertEquals(0L, described.tableSizeBytes());
        assertEquals(0L, described.provisionedThroughput().readCapacityUnits(),
                "an on-demand table describes 0 read units");
        assertEquals(0L, described.provisionedThroughput().writeCapacityUnits());

        assertEquals(1, described.localSecondaryIndexes().size());
        LocalSecondaryIndexDescription local = described.localSecondaryIndexes().get(0);
        assertEquals("byLocal", local.indexName());
        assertEquals(List.of(hash("pk"), range("lsk")), local.keySchema());
        assertEquals(ProjectionType.KEYS_ONLY, local.projection().projectionType());
        assertEquals(answer.tableArn() + "/index/byLocal", local.indexArn());

        Map<String, GlobalSecondaryIndexDescription> globals = described.globalSecondaryIndexes().stream()
                .collect(Collectors.toMap(GlobalSecondaryIndexDescription::indexName, Function.identity()));
        assertEquals(Set.of("gAll", "gKeys", "gInclude"), globals.keySet());
        assertEquals(ProjectionType.ALL, globals.get("gAll").projection().projectionType());
        assertEquals(List.of(hash("g1")), globals.get("gAll").keySchema());
        assertEquals(ProjectionType.KEYS_ONLY, globals.get("gKeys").projection().projectionType());
        assertEquals(List.of(hash("g2"), range("g2s")), globals.get("gKeys").keySchema());
        assertEquals(ProjectionType.INCLUDE, globals.get("gInclude").projection().projectionType());
        assertEquals(Set.of("a", "b"), new HashSet<>(globals.get("gInclude").projection().nonKeyAttributes()));
        for (GlobalSecondaryIndexDescription index : globals.values()) {
            assertEquals(IndexStatus.ACTIVE, index.indexStatus());
            assertEquals(answer.tableArn() + "/index/" + index.indexName(), index.indexArn());
        }
    }

    @Test
    void provisionedTableAndItsGlobalIndexDescribeTheirThroughput() {
        String name = tableName("provisioned");
        dynamo.createTable(c -> c.tableName(name).keySchema(hash("pk"))
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("g", ScalarAttributeType.N))
                .billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(5L).writeCapacityUnits(7L).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG").keySchema(hash("g"))
                        .projection(projection(ProjectionType.ALL))
                        .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(3L)
                                .writeCapacityUnits(4L).build()).build()));
        TableDescription described = awaitActive(dynamo, name);
        assertEquals(5L, described.provisionedThroughput().readCapacityUnits());
        assertEquals(7L, described.provisionedThroughput().writeCapacityUnits());
        assertTrue(described.billingModeSummary() == null
                        || described.billingModeSummary().billingMode() == BillingMode.PROVISIONED,
                "billing mode PROVISIONED (or no summary, as for tables created provisioned)");
        GlobalSecondaryIndexDescription index = described.globalSecondaryIndexes().get(0);
        assertEquals(3L, index.provisionedThroughput().readCapacityUnits());
        assertEquals(4L, index.provisionedThroughput().writeCapacityUnits());
    }

    @Test
    void createTableRefusesInconsistentDefinitions() {
        assertAll("CreateTable validation",
                refused("a key attribute with no definition", () -> dynamo.createTable(c -> c
                        .tableName(tableName("bad")).keySchema(hash("pk"))
                        .attributeDefinitions(attribute("other", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("a definition no key uses", () -> dynamo.createTable(c -> c.tableName(tableName("bad"))
                        .keySchema(hash("pk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S),
                                attribute("spare", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("PROVISIONED without ProvisionedThroughput", () -> dynamo.createTable(c -> c
                        .tableName(tableName("bad")).keySchema(hash("pk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
                        .billingMode(BillingMode.PROVISIONED))),
                refused("PAY_PER_REQUEST with ProvisionedThroughput", () -> dynamo.createTable(c -> c
                        .tableName(tableName("bad")).keySchema(hash("pk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(1L)
                                .writeCapacityUnits(1L).build()))),
                refused("a local index whose partition key is not the table's", () -> dynamo.createTable(c -> c
                        .tableName(tableName("bad")).keySchema(hash("pk"), range("sk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S),
                                attribute("sk", ScalarAttributeType.S), attribute("other", ScalarAttributeType.S))
                        .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("wrong")
                                .keySchema(hash("other"), range("sk")).projection(projection(ProjectionType.ALL))
                                .build())
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("a table name under 3 characters", () -> dynamo.createTable(c -> c.tableName("ab")
                        .keySchema(hash("pk")).attributeDefinitions(attribute("pk", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("a table name with a character outside a-z A-Z 0-9 _ - .", () -> dynamo.createTable(c -> c
                        .tableName("bad/name").keySchema(hash("pk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("a key attribute of type BOOL", () -> dynamo.createTable(c -> c.tableName(tableName("bad"))
                        .keySchema(hash("pk")).attributeDefinitions(a -> a.attributeName("pk").attributeType("BOOL"))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("six local indexes (at most five)", () -> dynamo.createTable(c -> c
                        .tableName(tableName("bad")).keySchema(hash("pk"), range("sk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S),
                                attribute("sk", ScalarAttributeType.S), attribute("l0", ScalarAttributeType.S),
                                attribute("l1", ScalarAttributeType.S), attribute("l2", ScalarAttributeType.S),
                                attribute("l3", ScalarAttributeType.S), attribute("l4", ScalarAttributeType.S),
                                attribute("l5", ScalarAttributeType.S))
                        .localSecondaryIndexes(localIndexes(6))
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("two indexes of one name", () -> dynamo.createTable(c -> c.tableName(tableName("bad"))
                        .keySchema(hash("pk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("g", ScalarAttributeType.S))
                        .globalSecondaryIndexes(
                                GlobalSecondaryIndex.builder().indexName("same").keySchema(hash("g"))
                                        .projection(projection(ProjectionType.ALL)).build(),
                                GlobalSecondaryIndex.builder().indexName("same").keySchema(hash("g"))
                                        .projection(projection(ProjectionType.KEYS_ONLY)).build())
                        .billingMode(BillingMode.PAY_PER_REQUEST))),
                refused("two HASH keys", () -> dynamo.createTable(c -> c.tableName(tableName("bad"))
                        .keySchema(hash("pk"), hash("sk"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S),
                                attribute("sk", ScalarAttributeType.S))
                        .billingMode(BillingMode.PAY_PER_REQUEST))));
    }

    private static List<LocalSecondaryIndex> localIndexes(int count) {
        List<LocalSecondaryIndex> indexes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            indexes.add(LocalSecondaryIndex.builder().indexName("local" + i).keySchema(hash("pk"), range("l" + i))
                    .projection(projection(ProjectionType.KEYS_ONLY)).build());
        }
        return indexes;
    }

    @Test
    void updateTableSwitchesBillingModeAndThroughput() {
        String name = tableName("billing");
        dynamo.createTable(c -> c.tableName(name).keySchema(hash("pk"))
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S)).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(1L).writeCapacityUnits(1L)
                        .build()));
        awaitActive(dynamo, name);
        dynamo.updateTable(u -> u.tableName(name).provisionedThroughput(ProvisionedThroughput.builder()
                .readCapacityUnits(9L).writeCapacityUnits(8L).build()));
        TableDescription raised = awaitActive(dynamo, name);
        assertEquals(9L, raised.provisionedThroughput().readCapacityUnits());
        assertEquals(8L, raised.provisionedThroughput().writeCapacityUnits());
        dynamo.updateTable(u -> u.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST));
        TableDescription onDemand = awaitActive(dynamo, name);
        assertEquals(BillingMode.PAY_PER_REQUEST, onDemand.billingModeSummary().billingMode());
        assertEquals(0L, onDemand.provisionedThroughput().readCapacityUnits(),
                "an on-demand table describes 0 read units, also after switching from provisioned");
        assertEquals(0L, onDemand.provisionedThroughput().writeCapacityUnits());
        assertAll("updateTableSwitchesBillingModeAndThroughput",
                refused("updateTable(provisionedThroughput(ProvisionedThroughput .builder().readCapacityUnits(2L).writeCapacityUnits...",
                        () -> dynamo.updateTable(u -> u.tableName(name).provisionedThroughput(ProvisionedThroughput
                                .builder().readCapacityUnits(2L).writeCapacityUnits(2L).build()))),
                refused("updateTable()",
                        () -> dynamo.updateTable(u -> u.tableName(name)), "at least one"));
    }

    @Test
    void creatingATableThatExistsIsResourceInUse() {
        String name = createTable(dynamo, "twice", null);
        ResourceInUseException e = assertThrows(ResourceInUseException.class, () -> dynamo.createTable(c -> c
                .tableName(name).keySchema(hash("pk")).attributeDefinitions(attribute("pk", ScalarAttributeType.S))
                .billingMode(BillingMode.PAY_PER_REQUEST)));
        assertEquals(400, e.statusCode());
    }

    @Test
    void describingOrUsingAMissingTableIsResourceNotFound() {
        String missing = tableName("missing");
        assertEquals(400, assertThrows(ResourceNotFoundException.class,
                () -> dynamo.describeTable(d -> d.tableName(missing))).statusCode());
        assertThrows(ResourceNotFoundException.class, () -> dynamo.getItem(g -> g.tableName(missing)
                .key(item("pk", "k"))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.putItem(p -> p.tableName(missing)
                .item(item("pk", "k"))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.query(q -> q.tableName(missing)
                .keyConditionExpression("pk = :k").expressionAttributeValues(Map.of(":k", s("k")))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.scan(q -> q.tableName(missing)));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.deleteTable(d -> d.tableName(missing)));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.updateTable(u -> u.tableName(missing)
                .billingMode(BillingMode.PAY_PER_REQUEST)));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.describeTimeToLive(d -> d.tableName(missing)));
    }

    @Test
    void addingAGlobalIndexBackfillsTheItemsAlreadyInTheTable() {
        String name = createTable(dynamo, "backfill", null);
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> row = item("pk", "k" + i,
                    "color", i % 2 == 0 ? "red" : "blue", "i", i);
            writes.add(WriteRequest.builder().putRequest(p -> p.item(row)).build());
            if (writes.size() == 25) {
                List<WriteRequest> batch = List.copyOf(writes);
                dynamo.batchWriteItem(b -> b.requestItems(Map.of(name, batch)));
                writes.clear();
            }
        }

        UpdateTableResponse updated = dynamo.updateTable(u -> u.tableName(name)
                .attributeDefinitions(attribute("color", ScalarAttributeType.S))
                .globalSecondaryIndexUpdates(g -> g.create(c -> c.indexName("byColor").keySchema(hash("color"))
                        .projection(projection(ProjectionType.ALL)))));
        TableDescription answer = updated.tableDescription();
        GlobalSecondaryIndexDescription creating = answer.globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals("byColor")).findFirst().orElseThrow();
        assertEquals(IndexStatus.CREATING, creating.indexStatus(),
                "UpdateTable answers the new index as CREATING: the backfill has not run yet when it answers");
        assertEquals(Boolean.TRUE, creating.backfilling(), "a CREATING index over existing items is backfilling");

        TableDescription active = awaitActive(dynamo, name);
        GlobalSecondaryIndexDescription index = active.globalSecondaryIndexes().get(0);
        assertEquals(IndexStatus.ACTIVE, index.indexStatus());
        assertTrue(index.backfilling() == null || !index.backfilling(), "an ACTIVE index is no longer backfilling");
        int red = 0;
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> start = null;
        do {
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> from = start;
            QueryResponse page = dynamo.query(q -> q.tableName(name).indexName("byColor")
                    .keyConditionExpression("color = :c").expressionAttributeValues(Map.of(":c", s("red")))
                    .exclusiveStartKey(from));
            red += page.count();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(250, red, "every existing red item is in the new index");
    }

    @Test
    void deletingAGlobalIndexTakesItAway() {
        String name = createTable(dynamo, "dropindex", null, c -> c
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG").keySchema(hash("g"))
                        .projection(projection(ProjectionType.ALL)).build()));
        dynamo.putItem(p -> p.tableName(name).item(item("pk", "1", "g", "x")));
        dynamo.updateTable(u -> u.tableName(name).globalSecondaryIndexUpdates(g -> g.delete(d -> d.indexName("byG"))));
        eventually(Duration.ofSeconds(10), () -> dynamo.describeTable(d -> d.tableName(name)).table()
                .globalSecondaryIndexes().isEmpty() ? Boolean.TRUE : null, "index byG gone from DescribeTable");
        validation(() -> dynamo.query(q -> q.tableName(name).indexName("byG").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("x")))), "index");
        assertThrows(ResourceNotFoundException.class, () -> dynamo.updateTable(u -> u.tableName(name)
                .globalSecondaryIndexUpdates(g -> g.delete(d -> d.indexName("byG")))));
    }

    @Test
    void streamsAreTurnedOnAndOffByUpdateTable() {
        String name = createTable(dynamo, "streamtoggle", null);
        assertNull(dynamo.describeTable(d -> d.tableName(name)).table().latestStreamArn(),
                "a table created without a stream has none");

        TableDescription on = dynamo.updateTable(u -> u.tableName(name).streamSpecification(s -> s
                .streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))).tableDescription();
        String first = on.latestStreamArn();
        assertNotNull(first);
        assertEquals(StreamStatus.ENABLED, streams.describeStream(d -> d.streamArn(first)).streamDescription()
                .streamStatus());
        validation(() -> dynamo.updateTable(u -> u.tableName(name).streamSpecification(s -> s
                .streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))), "already");

        dynamo.updateTable(u -> u.tableName(name).streamSpecification(s -> s.streamEnabled(false)));
        TableDescription off = dynamo.describeTable(d -> d.tableName(name)).table();
        assertTrue(off.streamSpecification() == null || !off.streamSpecification().streamEnabled(),
                "the table's stream specification no longer says enabled");
        StreamStatus status = streams.describeStream(d -> d.streamArn(first)).streamDescription().streamStatus();
        assertTrue(status == StreamStatus.DISABLING || status == StreamStatus.DISABLED, "old stream: " + status);

        String second = dynamo.updateTable(u -> u.tableName(name).streamSpecification(s -> s
                .streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))).tableDescription().latestStreamArn();
        assertNotEquals(first, second, "enabling again makes a new stream with a new label");
    }

    @Test
    void deleteTableAnswersDeletingAndTheTableIsThenGone() {
        String name = createTable(dynamo, "deleteme", null);
        dynamo.putItem(p -> p.tableName(name).item(item("pk", "k")));
        DeleteTableResponse deleted = dynamo.deleteTable(d -> d.tableName(name));
        assertEquals(name, deleted.tableDescription().tableName());
        assertEquals(TableStatus.DELETING, deleted.tableDescription().tableStatus());
        eventually(Duration.ofSeconds(10), () -> {
            try {
                dynamo.describeTable(d -> d.tableName(name));
                return null;
            } catch (ResourceNotFoundException gone) {
                return Boolean.TRUE;
            }
        }, "table " + name + " gone");
        assertThrows(ResourceNotFoundException.class, () -> dynamo.deleteTable(d -> d.tableName(name)));
        assertFalse(dynamo.listTables().tableNames().contains(name));
        // the name can be used again, for an empty table
        dynamo.createTable(c -> c.tableName(name).keySchema(hash("pk"))
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S)).billingMode(BillingMode.PAY_PER_REQUEST));
        awaitActive(dynamo, name);
        assertFalse(dynamo.getItem(g -> g.tableName(name).key(item("pk", "k")).consistentRead(true)).hasItem());
    }

    @Test
    void listTablesPagesThroughEveryTableInNameOrder() {
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            mine.add(createTable(dynamo, "list" + i, null));
        }
        List<String> all = new ArrayList<>();
        String start = null;
        int pages = 0;
        do {
            String from = start;
            ListTablesResponse page = dynamo.listTables(l -> l.limit(2).exclusiveStartTableName(from));
            assertTrue(page.tableNames().size() <= 2, "a page holds at most Limit names");
            all.addAll(page.tableNames());
            start = page.lastEvaluatedTableName();
            pages++;
        } while (start != null && pages < 1000);
        assertTrue(all.containsAll(mine), "every table listed: " + all);
        assertEquals(all.size(), new HashSet<>(all).size(), "no table listed twice");
        List<String> sorted = new ArrayList<>(all);
        sorted.sort(null);
        assertEquals(sorted, all, "listed in ascending name order");
        assertAll("ListTables Limit is 1 to 100",
                refused("Limit 101", () -> dynamo.listTables(l -> l.limit(101))),
                refused("Limit 0", () -> dynamo.listTables(l -> l.limit(0))));
    }

    @Test
    void timeToLiveIsEnabledDescribedAndDisabled() {
        String name = createTable(dynamo, "ttlsettings", null);
        assertEquals(TimeToLiveStatus.DISABLED, dynamo.describeTimeToLive(d -> d.tableName(name))
                .timeToLiveDescription().timeToLiveStatus());

        var enabled = dynamo.updateTimeToLive(u -> u.tableName(name)
                .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
        assertEquals("expires", enabled.timeToLiveSpecification().attributeName());
        assertTrue(enabled.timeToLiveSpecification().enabled());
        TimeToLiveDescription described = dynamo.describeTimeToLive(d -> d.tableName(name)).timeToLiveDescription();
        assertTrue(described.timeToLiveStatus() == TimeToLiveStatus.ENABLED
                || described.timeToLiveStatus() == TimeToLiveStatus.ENABLING, described.toString());
        assertEquals("expires", described.attributeName());

        validation(() -> dynamo.updateTimeToLive(u -> u.tableName(name)
                .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires"))), "TimeToLive");

        dynamo.updateTimeToLive(u -> u.tableName(name).timeToLiveSpecification(t -> t.enabled(false)
                .attributeName("expires")));
        TimeToLiveStatus after = dynamo.describeTimeToLive(d -> d.tableName(name)).timeToLiveDescription()
                .timeToLiveStatus();
        assertTrue(after == TimeToLiveStatus.DISABLED || after == TimeToLiveStatus.DISABLING, after.toString());
        assertThrows(ResourceNotFoundException.class, () -> dynamo.updateTimeToLive(u -> u.tableName(tableName("none"))
                .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires"))));
    }
}
