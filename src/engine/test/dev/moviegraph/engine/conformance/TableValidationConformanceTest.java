package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.attribute;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.hash;
import static dev.moviegraph.engine.conformance.Conformance.message;
import static dev.moviegraph.engine.conformance.Conformance.range;
import static dev.moviegraph.engine.conformance.Conformance.tableName;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The control-plane requests DynamoDB refuses, with its exact messages: CreateTable's member constraints (reported
 * together, "N validation errors detected") and key schema rules, table names in the table operations, UpdateTable
 * that changes nothing or names a throughput below 1, and UpdateTimeToLive without an attribute name.
 */
class TableValidationConformanceTest {
    private static final String PATTERN = "failed to satisfy constraint: Member must satisfy regular expression pattern:"
            + " [a-zA-Z0-9_.-]+";
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

    /** The message of CreateTable's refusal of a provisioned pk (S) table changed by {@code change}. */
    private static String createRefused(Consumer<CreateTableRequest.Builder> change) {
        CreateTableRequest.Builder request = CreateTableRequest.builder().tableName(tableName("ct"))
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S)).keySchema(hash("pk"))
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L));
        change.accept(request);
        return message(validation(() -> dynamo.createTable(request.build())));
    }

    private static KeySchemaElement key(String attribute, String keyType) {
        return KeySchemaElement.builder().attributeName(attribute).keyType(keyType).build();
    }

    private static Executable says(String expected, String actual) {
        return () -> assertEquals(expected, actual);
    }

    @Test
    void createTableMembersAreCheckedWithDynamoDbsMessages() {
        assertAll("CreateTable",
                says("The parameter 'TableName' is required but was not present in the request",
                        createRefused(c -> c.tableName(null))),
                says("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must"
                        + " have length greater than or equal to 3", createRefused(c -> c.tableName("ab"))),
                says("2 validation errors detected: Value 'x!' at 'tableName' " + PATTERN + "; Value 'x!' at"
                        + " 'tableName' failed to satisfy constraint: Member must have length greater than or equal to"
                        + " 3", createRefused(c -> c.tableName("x!"))),
                says("Invalid KeySchema: Some index key attribute have no definition",
                        createRefused(c -> c.keySchema(hash("pk"), range("pk")))),
                says("1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH),"
                        + " KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=x,"
                        + " keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less"
                        + " than or equal to 2", createRefused(c -> c.keySchema(hash("pk"), range("sk"), range("x"))
                        .attributeDefinitions(attribute("pk", ScalarAttributeType.S),
                                attribute("sk", ScalarAttributeType.S), attribute("x", ScalarAttributeType.S)))),
                says("1 validation error detected: Value 'INVALID' at 'keySchema.1.member.keyType' failed to satisfy"
                        + " constraint: Member must satisfy enum value set: [HASH, RANGE]",
                        createRefused(c -> c.keySchema(key("pk", "INVALID")))),
                says("1 validation error detected: Value 'INVALID' at 'attributeDefinitions.1.member.attributeType'"
                        + " failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
                        createRefused(c -> c.attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                                .attributeType("INVALID").build()))),
                says("3 validation errors detected: Value 'WHENEVER' at 'billingMode' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]; Value '0' at"
                        + " 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have"
                        + " value greater than or equal to 1; Value 'INVALID' at 'keySchema.1.member.keyType' failed to"
                        + " satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
                        createRefused(c -> c.billingMode("WHENEVER").keySchema(key("pk", "INVALID"))
                                .provisionedThroughput(p -> p.readCapacityUnits(0L).writeCapacityUnits(5L)))),
                says("1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: Member must"
                        + " have length greater than or equal to 1", createRefused(c -> c.keySchema(
                        java.util.List.of()))),
                says("Both the Hash Key and the Range Key element in the KeySchema have the same name",
                        createRefused(c -> c.keySchema(hash("pk"), range("pk")).attributeDefinitions(
                                attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S)))),
                says("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                        createRefused(c -> c.keySchema(range("pk")))),
                says("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
                        createRefused(c -> c.keySchema(hash("pk"), hash("sk")).attributeDefinitions(
                                attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S)))),
                says("Given value 1000000000001 for ReadCapacityUnits is out of bounds",
                        createRefused(c -> c.provisionedThroughput(p -> p.readCapacityUnits(1_000_000_000_001L)
                                .writeCapacityUnits(1L)))));
    }

    @Test
    void tableOperationsCheckTheTableName() {
        String tooLong = "a".repeat(256);
        assertAll("table names",
                says("1 validation error detected: Value 'bad;name' at 'tableName' " + PATTERN,
                        message(validation(() -> dynamo.describeTable(d -> d.tableName("bad;name"))))),
                says("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must"
                        + " have length greater than or equal to 3",
                        message(validation(() -> dynamo.deleteTable(d -> d.tableName("ab"))))),
                says("1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must"
                        + " have length greater than or equal to 3",
                        message(validation(() -> dynamo.describeTimeToLive(d -> d.tableName(""))))),
                says("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed to satisfy"
                        + " constraint: Member must have length less than or equal to 255",
                        message(validation(() -> dynamo.updateTable(u -> u.tableName(tooLong)
                                .billingMode(BillingMode.PAY_PER_REQUEST))))),
                says("2 validation errors detected: Value 'a;' at 'tableName' " + PATTERN + "; Value 'a;' at"
                        + " 'tableName' failed to satisfy constraint: Member must have length greater than or equal to"
                        + " 3", message(validation(() -> dynamo.updateTimeToLive(u -> u.tableName("a;")
                        .timeToLiveSpecification(s -> s.enabled(true).attributeName("ttl")))))),
                says("The parameter 'TableName' is required but was not present in the request",
                        message(validation(() -> dynamo.describeTable(d -> d.tableName(null))))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.describeTable(d -> d.tableName("a-b.c_d")));
    }

    @Test
    void updateTableRefusesAThroughputThatDoesNotChangeOrIsBelowOne() {
        String table = createTable(dynamo, "ut", null, c -> c.billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
        assertEquals("The provisioned throughput for the table will not change. The requested value equals the current"
                + " value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5."
                + " Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer to"
                + " the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
                message(validation(() -> dynamo.updateTable(u -> u.tableName(table).billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L))))));
        assertEquals("2 validation errors detected: Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to"
                + " satisfy constraint: Member must have value greater than or equal to 1; Value '0' at"
                + " 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value"
                + " greater than or equal to 1", message(validation(() -> dynamo.updateTable(u -> u.tableName(table)
                .provisionedThroughput(p -> p.readCapacityUnits(0L).writeCapacityUnits(-1L))))));
        dynamo.updateTable(u -> u.tableName(table).provisionedThroughput(p -> p.readCapacityUnits(5L)
                .writeCapacityUnits(6L)));
        assertEquals(6L, dynamo.describeTable(d -> d.tableName(table)).table().provisionedThroughput()
                .writeCapacityUnits());
    }

    @Test
    void updateTimeToLiveWantsAnAttributeName() {
        String table = createTable(dynamo, "ttlname", null);
        assertEquals("1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to"
                + " satisfy constraint: Member must have length greater than or equal to 1",
                message(validation(() -> dynamo.updateTimeToLive(u -> u.tableName(table)
                        .timeToLiveSpecification(s -> s.enabled(true).attributeName(""))))));
        String missing = message(validation(() -> dynamo.updateTimeToLive(u -> u.tableName(table)
                .timeToLiveSpecification(s -> s.enabled(true)))));
        assertTrue(missing.contains("Value null at 'timeToLiveSpecification.attributeName'"), missing);
        assertEquals("DISABLED", dynamo.describeTimeToLive(d -> d.tableName(table)).timeToLiveDescription()
                .timeToLiveStatusAsString());
    }
}
