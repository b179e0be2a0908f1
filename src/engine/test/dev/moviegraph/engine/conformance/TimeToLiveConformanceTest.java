package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.attribute;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.eventually;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.m;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.projection;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Time to live with a 1 s sweep: expired items (a top-level Number of epoch seconds in the past, by no more than
 * five years) are deleted, from the table and its indexes, each with a REMOVE stream record made by the service;
 * everything else stays.
 */
class TimeToLiveConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory().withTtlSweep(Duration.ofSeconds(1)));
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

    private static boolean exists(String table, String key) {
        return dynamo.getItem(g -> g.tableName(table).key(item("pk", key)).consistentRead(true)).hasItem();
    }

    @Test
    void expiredItemsAreDeletedByTheServiceWithAStreamRecordAndTheRestStay() {
        String table = createTable(dynamo, "ttl", null, c -> c
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG").keySchema(hash("g"))
                        .projection(projection(ProjectionType.ALL)).build())
                .streamSpecification(st -> st.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        String untouched = createTable(dynamo, "ttlOff", null);
        dynamo.updateTimeToLive(u -> u.tableName(table).timeToLiveSpecification(t -> t.enabled(true)
                .attributeName("exp")));

        long now = Instant.now().getEpochSecond();
        Map<String, AttributeValue> expired = item("pk", "expired", "exp", n(now - 60), "g", "ttl");
        dynamo.putItem(p -> p.tableName(table).item(expired));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "future", "exp", n(now + 3600), "g", "ttl")));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "string", "exp", s(Long.toString(now - 60)))));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "nested", "m", m("exp", n(now - 60)))));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "none")));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "ancient",
                "exp", n(now - 6L * 366 * 24 * 3600))));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "milliseconds-future",
                "exp", n((now + 3600) * 1000))));
        dynamo.putItem(p -> p.tableName(untouched).item(item("pk", "expired", "exp", n(now - 60))));

        eventually(Duration.ofSeconds(10), () -> !exists(table, "expired") ? Boolean.TRUE : null,
                "the expired item deleted by a 1 s sweep");
        sleep(1200); // at least one more sweep over everything
        for (String key : List.of("future", "string", "nested", "none", "ancient", "milliseconds-future")) {
            assertTrue(exists(table, key), key + " is not expired and stays");
        }
        assertTrue(exists(untouched, "expired"), "a table without time to live keeps its items");
        assertEquals(List.of("future"), dynamo.query(q -> q.tableName(table).indexName("byG")
                        .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("ttl")))).items()
                .stream().map(i -> i.get("pk").s()).toList(), "the expired item left the index too");

        dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "none")));
        String arn = dynamo.describeTable(d -> d.tableName(table)).table().latestStreamArn();
        List<Record> removes = StreamReader.readAll(streams, arn).stream()
                .filter(record -> record.eventName() == OperationType.REMOVE).toList();
        assertEquals(2, removes.size(), "one expiry and one user delete: " + removes);
        Record byService = removes.stream().filter(r -> r.dynamodb().keys().get("pk").s().equals("expired"))
                .findFirst().orElseThrow();
        assertNotNull(byService.userIdentity(), "a deletion by time to live names the service");
        assertEquals("Service", byService.userIdentity().type());
        assertEquals("dynamodb.amazonaws.com", byService.userIdentity().principalId());
        assertEquals(expired, byService.dynamodb().oldImage());
        Record byUser = removes.stream().filter(r -> r.dynamodb().keys().get("pk").s().equals("none"))
                .findFirst().orElseThrow();
        assertNull(byUser.userIdentity(), "a user's delete names no service");
    }
}
