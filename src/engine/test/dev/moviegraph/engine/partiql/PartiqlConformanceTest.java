package dev.moviegraph.engine.partiql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction through the SDK, answering as DynamoDB does. */
class PartiqlConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static final String HASH = "partiql-hash";
    private static final String COMPOSITE = "partiql-composite";

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = DynamoDbClient.builder().endpointOverride(engine.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .apiCallTimeout(Duration.ofSeconds(60)))
                .build();
        dynamo.createTable(t -> t.tableName(HASH).billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S)));
        dynamo.createTable(t -> t.tableName(COMPOSITE).billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N)));
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

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    private static List<Map<String, AttributeValue>> run(String statement, AttributeValue... parameters) {
        return dynamo.executeStatement(e -> e.statement(statement).parameters(parameters.length == 0 ? null
                : List.of(parameters))).items();
    }

    private static Map<String, AttributeValue> get(String key) {
        return dynamo.getItem(g -> g.tableName(HASH).key(Map.of("pk", s(key))).consistentRead(true)).item();
    }

    private static void validation(String message, Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
        assertEquals(message, e.awsErrorDetails().errorMessage());
    }

    @Test
    void insertSelectUpdateDelete() {
        run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'crud', 'data': 'one', 'n': 1, 'm': {'inner': [1, 'two']},"
                + " 'tags': <<'a', 'b'>>}");
        assertEquals(List.of(get("crud")), run("SELECT * FROM \"" + HASH + "\" WHERE pk = 'crud'"));
        assertEquals(List.of(Map.of("pk", s("crud"), "inner", AttributeValue.fromL(List.of(n("1"), s("two"))))),
                run("SELECT pk, m.\"inner\" FROM \"" + HASH + "\" WHERE pk = ?", s("crud")));
        List<Map<String, AttributeValue>> returned = run("UPDATE \"" + HASH + "\" SET data = ?, n = n + 2"
                + " SET tags = set_add(tags, <<'c'>>) REMOVE m WHERE pk = 'crud' RETURNING ALL NEW *", s("two"));
        Map<String, AttributeValue> item = get("crud");
        assertEquals(List.of(item), returned);
        assertEquals(s("two"), item.get("data"));
        assertEquals(n("3"), item.get("n"));
        assertEquals(Set.of("a", "b", "c"), new HashSet<>(item.get("tags").ss()));
        assertNull(item.get("m"));
        assertEquals(List.of(), run("DELETE FROM \"" + HASH + "\" WHERE pk = 'crud'"));
        assertTrue(get("crud").isEmpty());
        assertEquals(List.of(), run("SELECT * FROM \"" + HASH + "\" WHERE pk = 'crud'"));
    }

    @Test
    void insertOfAnExistingKeyIsADuplicate() {
        run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'dup', 'v': 1}");
        DuplicateItemException e = assertThrows(DuplicateItemException.class,
                () -> run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'dup', 'v': 2}"));
        assertEquals("Duplicate primary key exists in table", e.awsErrorDetails().errorMessage());
        assertEquals(n("1"), get("dup").get("v"));
    }

    @Test
    void updateNeedsTheItemAndDeleteOfNoneSucceeds() {
        assertThrows(ConditionalCheckFailedException.class,
                () -> run("UPDATE \"" + HASH + "\" SET v = 1 WHERE pk = 'never'"));
        assertTrue(get("never").isEmpty());
        assertEquals(List.of(), run("DELETE FROM \"" + HASH + "\" WHERE pk = 'never' AND v = 1"));
        run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'guarded', 'v': 1}");
        assertThrows(ConditionalCheckFailedException.class,
                () -> run("DELETE FROM \"" + HASH + "\" WHERE pk = 'guarded' AND v = 2"));
        assertFalse(get("guarded").isEmpty());
        assertEquals(List.of(get("guarded")), run("DELETE FROM \"" + HASH + "\" WHERE pk = 'guarded' AND v = 1"
                + " RETURNING ALL OLD *"));
    }

    @Test
    void queryWithSortConditionsAndPages() {
        for (int i = 1; i <= 5; i++) {
            run("INSERT INTO \"" + COMPOSITE + "\" VALUE {'pk': 'page', 'sk': " + i + ", 'even': " + (i % 2 == 0) + "}");
        }
        assertEquals(3, run("SELECT * FROM \"" + COMPOSITE + "\" WHERE pk = 'page' AND sk BETWEEN 2 AND 4").size());
        assertEquals(2, run("SELECT * FROM \"" + COMPOSITE + "\" WHERE pk = 'page' AND even = true").size());
        assertEquals(1, run("SELECT * FROM \"" + COMPOSITE + "\" WHERE pk = 'page' AND sk > 1 AND sk < 3").size());
        assertEquals(5, run("SELECT * FROM \"" + COMPOSITE + "\" WHERE sk IN [1, 2, 3, 4, 5] AND pk = 'page'").size());
        List<AttributeValue> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String from = token;
            ExecuteStatementResponse page = dynamo.executeStatement(e -> e.limit(2).nextToken(from)
                    .statement("SELECT sk FROM \"" + COMPOSITE + "\" WHERE pk = 'page'"));
            page.items().forEach(item -> seen.add(item.get("sk")));
            token = page.nextToken();
            pages++;
        } while (token != null);
        assertEquals(List.of(n("1"), n("2"), n("3"), n("4"), n("5")), seen);
        assertEquals(3, pages);
    }

    @Test
    void consumedCapacityWhenAsked() {
        ExecuteStatementResponse answer = dynamo.executeStatement(e -> e.statement("SELECT * FROM \"" + HASH
                + "\" WHERE pk = 'capacity'").returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(HASH, answer.consumedCapacity().tableName());
        assertEquals(0.5, answer.consumedCapacity().capacityUnits());
    }

    @Test
    void errorsAsDynamoDbAnswers() {
        ResourceNotFoundException missing = assertThrows(ResourceNotFoundException.class,
                () -> run("SELECT * FROM \"no-such-table\" WHERE pk = 'x'"));
        assertEquals("Requested resource not found", missing.awsErrorDetails().errorMessage());
        validation("Statement wasn't well formed, can't be processed: Unexpected token after expression",
                () -> run("SELECT * FROM \"" + HASH + "\" WHERE pk = 'x' foo"));
        validation("Number of parameters in request and statement don't match.",
                () -> run("SELECT * FROM \"" + HASH + "\" WHERE pk = ?"));
        validation("Where clause does not contain a mandatory equality on all key attributes",
                () -> run("UPDATE \"" + COMPOSITE + "\" SET a = 1 WHERE pk = 'x'"));
        validation("Key attribute's data type should match its data type in table's schema: Key sk",
                () -> run("DELETE FROM \"" + COMPOSITE + "\" WHERE pk = 'x' AND sk = 'one'"));
        validation("Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE"
                + " statements.", () -> run("DELETE FROM \"" + HASH + "\" WHERE pk = 'x' RETURNING ALL NEW *"));
        validation("Key attribute should be present in the item: Key pk",
                () -> run("INSERT INTO \"" + HASH + "\" VALUE {'other': 1}"));
    }

    private static ParameterizedStatement statement(String text) {
        return ParameterizedStatement.builder().statement(text).build();
    }

    private static BatchStatementRequest member(String text) {
        return BatchStatementRequest.builder().statement(text).build();
    }

    @Test
    void batchAnswersEachStatementInItsPlace() {
        run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'batch-1', 'v': 1}");
        List<BatchStatementResponse> reads = dynamo.batchExecuteStatement(b -> b.statements(
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-1'"),
                member("SELECT * FROM \"no-such-table\" WHERE pk = 'x'"),
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-none'"))).responses();
        assertEquals(get("batch-1"), reads.get(0).item());
        assertEquals(HASH, reads.get(0).tableName());
        assertEquals("ResourceNotFound", reads.get(1).error().codeAsString());
        assertNull(reads.get(2).error());
        assertFalse(reads.get(2).hasItem());
        List<BatchStatementResponse> writes = dynamo.batchExecuteStatement(b -> b.statements(
                member("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'batch-1'}"),
                member("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'batch-2'}"),
                member("SELECTT"))).responses();
        assertEquals("DuplicateItem", writes.get(0).error().codeAsString());
        assertNull(writes.get(1).error());
        assertEquals("ValidationError", writes.get(2).error().codeAsString());
        assertEquals("Statement wasn't well formed, can't be processed: Expected data manipulation",
                writes.get(2).error().message());
        assertFalse(get("batch-2").isEmpty());
        validation("1 validation error detected: Value '[]' at 'statements' failed to satisfy constraint: Member must"
                + " have length greater than or equal to 1", () -> dynamo.batchExecuteStatement(b -> b.statements(
                List.of())));
        assertThrows(DynamoDbException.class, () -> dynamo.batchExecuteStatement(b -> b.statements(
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'a'"),
                member("DELETE FROM \"" + HASH + "\" WHERE pk = 'a'"))));
    }

    @Test
    void transactionIsAllOrNothing() {
        run("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'txn-old', 'v': 1}");
        dynamo.executeTransaction(t -> t.clientRequestToken("token-1").transactStatements(
                statement("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'txn-new'}"),
                statement("UPDATE \"" + HASH + "\" SET v = v + 1 WHERE pk = 'txn-old'")));
        assertFalse(get("txn-new").isEmpty());
        assertEquals(n("2"), get("txn-old").get("v"));
        TransactionCanceledException cancelled = assertThrows(TransactionCanceledException.class,
                () -> dynamo.executeTransaction(t -> t.transactStatements(
                        statement("UPDATE \"" + HASH + "\" SET v = 9 WHERE pk = 'txn-old'"),
                        statement("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'txn-new'}"))));
        assertEquals("None", cancelled.cancellationReasons().get(0).code());
        assertEquals("DuplicateItem", cancelled.cancellationReasons().get(1).code());
        assertEquals(n("2"), get("txn-old").get("v"));
        var reads = dynamo.executeTransaction(t -> t.transactStatements(
                statement("SELECT v FROM \"" + HASH + "\" WHERE pk = 'txn-old'"),
                statement("SELECT * FROM \"" + HASH + "\" WHERE pk = 'txn-none'"))).responses();
        assertEquals(Map.of("v", n("2")), reads.get(0).item());
        assertFalse(reads.get(1).hasItem());
        validation("ExecuteTransaction API does not support both read and write operations in the same request.",
                () -> dynamo.executeTransaction(t -> t.transactStatements(
                        statement("SELECT * FROM \"" + HASH + "\" WHERE pk = 'txn-old'"),
                        statement("DELETE FROM \"" + HASH + "\" WHERE pk = 'txn-new'"))));
        validation("Validation failed in TransactStatements[1]: RETURNING clause is not supported in"
                + " ExecuteTransaction.", () -> dynamo.executeTransaction(t -> t.transactStatements(
                        statement("DELETE FROM \"" + HASH + "\" WHERE pk = 'a'"),
                        statement("DELETE FROM \"" + HASH + "\" WHERE pk = 'b' RETURNING ALL OLD *"))));
        validation("1 validation error detected: Value '[]' at 'transactStatements' failed to satisfy constraint:"
                + " Member must have length greater than or equal to 1",
                () -> dynamo.executeTransaction(t -> t.transactStatements(List.of())));
    }
}
