package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.message;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The checks DynamoDB makes of an item operation's request before it looks at the table, with its words: the
 * table name's constraints, several members' constraints reported together, the "Requested resource not found"
 * of a missing table, and the operations' own required-parameter messages. Written from DynamoDB's API
 * reference and its recorded answers.
 */
class RequestValidationConformanceTest {
    private static final String MISSING = "no_such_table_here";

    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String table;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        table = createTable(dynamo, "validation", ScalarAttributeType.S);
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

    private static void exactly(String expected, Executable call) {
        assertEquals(expected, message(validation(call)));
    }

    @Test
    void aBadTableNameIsAValidationErrorNamingTheConstraint() {
        Map<String, AttributeValue> one = item("pk", "a", "sk", "b");
        assertAll(
                () -> exactly("1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
                        + " Member must not be null", () -> dynamo.putItem(p -> p.item(one))),
                () -> exactly("1 validation error detected: Value '' at 'tableName' failed to satisfy constraint:"
                        + " Member must have length greater than or equal to 1",
                        () -> dynamo.putItem(p -> p.tableName("").item(one))),
                () -> exactly("1 validation error detected: Value '" + "t".repeat(256) + "' at 'tableName' failed to"
                        + " satisfy constraint: Member must have length less than or equal to 255",
                        () -> dynamo.getItem(g -> g.tableName("t".repeat(256)).key(one))),
                () -> exactly("1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy"
                        + " constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                        () -> dynamo.deleteItem(d -> d.tableName("bad name!").key(one))),
                // the table name is checked alone, before the other members
                () -> exactly("1 validation error detected: Value '' at 'tableName' failed to satisfy constraint:"
                        + " Member must have length greater than or equal to 1",
                        () -> dynamo.updateItem(u -> u.tableName("").key(one).returnValues("NOPE"))));
    }

    @Test
    void aMissingTableIsNotFoundWithoutItsName() {
        Map<String, AttributeValue> one = item("pk", "a", "sk", "b");
        List<Executable> calls = List.of(
                () -> dynamo.getItem(g -> g.tableName(MISSING).key(one)),
                () -> dynamo.putItem(p -> p.tableName(MISSING).item(one)),
                () -> dynamo.updateItem(u -> u.tableName(MISSING).key(one)),
                () -> dynamo.deleteItem(d -> d.tableName(MISSING).key(one)),
                () -> dynamo.query(q -> q.tableName(MISSING).keyConditionExpression("pk = :v")
                        .expressionAttributeValues(Map.of(":v", s("a")))),
                () -> dynamo.scan(q -> q.tableName(MISSING)),
                () -> dynamo.batchGetItem(b -> b.requestItems(Map.of(MISSING, KeysAndAttributes.builder().keys(one).build()))),
                () -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(MISSING, List.of(put(one))))),
                () -> dynamo.transactGetItems(t -> t.transactItems(i -> i.get(g -> g.tableName(MISSING).key(one)))),
                () -> dynamo.transactWriteItems(t -> t.transactItems(i -> i.put(p -> p.tableName(MISSING).item(one)))));
        assertAll(calls.stream().map(call -> (Executable) () -> assertEquals("Requested resource not found",
                message(assertThrows(ResourceNotFoundException.class, call)))));
    }

    @Test
    void severalBadMembersAreReportedTogether() {
        String answer = message(validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "a", "sk", "b"))
                .returnConsumedCapacity("LOTS").returnItemCollectionMetrics("ALL").returnValues("EVERYTHING"))));
        assertTrue(answer.startsWith("3 validation errors detected: "), answer);
        assertAll(
                () -> assertTrue(answer.contains("Value 'LOTS' at 'returnConsumedCapacity' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"), answer),
                () -> assertTrue(answer.contains("Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy"
                        + " constraint: Member must satisfy enum value set: [SIZE, NONE]"), answer),
                () -> assertTrue(answer.contains("Value 'EVERYTHING' at 'returnValues' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"),
                        answer),
                () -> assertEquals(2, answer.chars().filter(c -> c == ';').count(), answer));
    }

    @Test
    void queryAndScanWordTheirMembersAsDynamoDbDoes() {
        assertAll(
                () -> exactly("1 validation error detected: Value 'SOME' at 'select' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES,"
                        + " ALL_PROJECTED_ATTRIBUTES]", () -> dynamo.query(q -> keyed(q).select("SOME"))),
                // Query's model shows no value and capitalises Limit; Scan's shows both as usual
                () -> exactly("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must"
                        + " have value greater than or equal to 1", () -> dynamo.query(q -> keyed(q).limit(0))),
                () -> exactly("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member"
                        + " must have value greater than or equal to 1", () -> dynamo.scan(q -> q.tableName(table).limit(0))),
                () -> exactly("1 validation error detected: Value 'SOME' at 'returnConsumedCapacity' failed to satisfy"
                        + " constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
                        () -> dynamo.scan(q -> q.tableName(table).returnConsumedCapacity("SOME"))),
                () -> exactly("The Segment parameter is required but was not present in the request when parameter"
                        + " TotalSegments is present", () -> dynamo.scan(q -> q.tableName(table).totalSegments(4))),
                () -> exactly("The TotalSegments parameter is required but was not present in the request when"
                        + " Segment parameter is present", () -> dynamo.scan(q -> q.tableName(table).segment(1))));
    }

    private static software.amazon.awssdk.services.dynamodb.model.QueryRequest.Builder keyed(
            software.amazon.awssdk.services.dynamodb.model.QueryRequest.Builder query) {
        return query.tableName(table).keyConditionExpression("pk = :v").expressionAttributeValues(Map.of(":v", s("a")));
    }

    @Test
    void placeholdersWithoutAnExpressionAreRefused() {
        Map<String, AttributeValue> values = Map.of(":v", s("x"));
        Map<String, AttributeValue> one = item("pk", "a", "sk", "b");
        assertAll(
                () -> exactly("ExpressionAttributeValues can only be specified when using expressions:"
                        + " ConditionExpression is null",
                        () -> dynamo.putItem(p -> p.tableName(table).item(one).expressionAttributeValues(values))),
                () -> exactly("ExpressionAttributeValues can only be specified when using expressions:"
                        + " ConditionExpression is null",
                        () -> dynamo.deleteItem(d -> d.tableName(table).key(one).expressionAttributeValues(values))),
                () -> exactly("ExpressionAttributeValues can only be specified when using expressions:"
                        + " UpdateExpression and ConditionExpression are null",
                        () -> dynamo.updateItem(u -> u.tableName(table).key(one).expressionAttributeValues(values))),
                () -> exactly("ExpressionAttributeValues can only be specified when using expressions:"
                        + " FilterExpression is null",
                        () -> dynamo.scan(q -> q.tableName(table).expressionAttributeValues(values))),
                () -> exactly("ExpressionAttributeNames can only be specified when using expressions",
                        () -> dynamo.getItem(g -> g.tableName(table).key(one)
                                .expressionAttributeNames(Map.of("#n", "name")))));
    }

    @Test
    void batchesSayWhatTheyNeed() {
        List<Map<String, AttributeValue>> keys = IntStream.range(0, 101)
                .mapToObj(i -> item("pk", "k" + i, "sk", "s")).toList();
        List<WriteRequest> writes = new ArrayList<>();
        IntStream.range(0, 26).forEach(i -> writes.add(put(item("pk", "w" + i, "sk", "s"))));
        assertAll(
                () -> exactly("The requestItems parameter is required for BatchGetItem",
                        () -> dynamo.batchGetItem(b -> b.requestItems(Map.of()))),
                () -> exactly("The requestItems parameter is required for BatchWriteItem",
                        () -> dynamo.batchWriteItem(b -> b.requestItems(Map.of()))),
                () -> exactly("1 validation error detected: Value at 'RequestItems." + table + ".member.Keys' failed to"
                        + " satisfy constraint: Member must have length less than or equal to 100",
                        () -> dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                                KeysAndAttributes.builder().keys(keys).build())))),
                () -> {
                    String answer = message(validation(() -> dynamo.batchWriteItem(b -> b.requestItems(
                            Map.of(table, writes)))));
                    assertTrue(answer.matches("(?s)1 validation error detected: Value '\\{" + table + "=\\[.+\\]\\}' at"
                            + " 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: \\[Member"
                            + " must have length less than or equal to 25, Member must have length greater than or equal"
                            + " to 1\\]"), answer);
                });
    }

    @Test
    void transactionsSayWhatTheyNeed() {
        assertAll(
                () -> exactly("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint:"
                        + " Member must have length greater than or equal to 1",
                        () -> dynamo.transactWriteItems(t -> t.transactItems(List.of()))),
                () -> exactly("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint:"
                        + " Member must have length greater than or equal to 1",
                        () -> dynamo.transactGetItems(t -> t.transactItems(List.of()))));
        // a Get whose key does not fit its table cancels the transaction, its reason in its place
        TransactionCanceledException cancelled = assertThrows(TransactionCanceledException.class,
                () -> dynamo.transactGetItems(t -> t.transactItems(
                        i -> i.get(g -> g.tableName(table).key(item("pk", "a", "sk", "b"))),
                        i -> i.get(g -> g.tableName(table).key(Map.of())))));
        assertEquals(List.of("None", "ValidationError"),
                cancelled.cancellationReasons().stream().map(CancellationReason::code).toList());
        assertEquals("Transaction cancelled, please refer cancellation reasons for specific reasons [None,"
                + " ValidationError]", message(cancelled));
    }

    @Test
    void anEmptyBinarySetHasItsOwnWords() {
        Function<AttributeValue, Executable> putWith = value -> () -> dynamo.putItem(p -> p.tableName(table)
                .item(Map.of("pk", s("a"), "sk", s("b"), "set", value)));
        assertAll(
                () -> exactly("One or more parameter values were invalid: Binary sets should not be empty",
                        putWith.apply(AttributeValue.fromBs(List.<SdkBytes>of()))),
                () -> exactly("One or more parameter values were invalid: An string set  may not be empty",
                        putWith.apply(AttributeValue.fromSs(List.of()))));
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }
}
