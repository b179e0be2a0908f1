package dev.moviegraph.engine.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;

/** The legacy parameters through the AWS SDK v2, answered as DynamoDB answers them. */
class LegacyConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static final String HASH = "legacyHash";
    private static final String SORTED = "legacySorted";

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        URI endpoint = engine.endpoint();
        dynamo = DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .apiCallTimeout(Duration.ofSeconds(60)))
                .build();
        createTable(HASH, false);
        createTable(SORTED, true);
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

    private static void createTable(String name, boolean sorted) {
        List<KeySchemaElement> keys = sorted
                ? List.of(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)) : List.of(key("pk", KeyType.HASH));
        List<AttributeDefinition> attributes = sorted
                ? List.of(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.N))
                : List.of(definition("pk", ScalarAttributeType.S));
        dynamo.createTable(c -> c.tableName(name).keySchema(keys).attributeDefinitions(attributes)
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static AttributeDefinition definition(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    private static Map<String, AttributeValue> item(Object... namesAndValues) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Object value = namesAndValues[i + 1];
            item.put((String) namesAndValues[i], value instanceof AttributeValue v ? v
                    : value instanceof String text ? s(text) : n(value.toString()));
        }
        return item;
    }

    private static Condition condition(ComparisonOperator operator, AttributeValue... values) {
        return Condition.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    private static ExpectedAttributeValue expect(ComparisonOperator operator, AttributeValue... values) {
        return ExpectedAttributeValue.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    private static AttributeValueUpdate update(AttributeAction action, AttributeValue value) {
        return AttributeValueUpdate.builder().action(action).value(value).build();
    }

    private static Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
        return dynamo.getItem(g -> g.tableName(table).key(key).consistentRead(true)).item();
    }

    private static void refused(Executable call, String message) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
        assertEquals(message, e.awsErrorDetails().errorMessage());
    }

    @Test
    void expectedGuardsWritesWithEachForm() {
        Map<String, AttributeValue> key = item("pk", "expected");
        dynamo.putItem(p -> p.tableName(HASH).item(item("pk", "expected", "status", "new"))
                .expected(Map.of("pk", ExpectedAttributeValue.builder().exists(false).build())));
        assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(p -> p.tableName(HASH)
                .item(key).expected(Map.of("pk", ExpectedAttributeValue.builder().exists(false).build()))));
        dynamo.putItem(p -> p.tableName(HASH).item(item("pk", "expected", "status", "open", "tags", AttributeValue
                        .fromSs(List.of("a", "b"))))
                .expected(Map.of("status", ExpectedAttributeValue.builder().value(s("new")).build())));
        dynamo.updateItem(u -> u.tableName(HASH).key(key)
                .attributeUpdates(Map.of("seen", update(AttributeAction.PUT, n("1"))))
                .expected(Map.of("status", ExpectedAttributeValue.builder().exists(true).value(s("open")).build(),
                        "missing", expect(ComparisonOperator.NE, s("x")),
                        "tags", expect(ComparisonOperator.CONTAINS, s("a")))));
        // NOT_CONTAINS is false on a missing attribute, unlike NOT contains() in an expression.
        assertThrows(ConditionalCheckFailedException.class, () -> dynamo.deleteItem(d -> d.tableName(HASH).key(key)
                .expected(Map.of("missing", expect(ComparisonOperator.NOT_CONTAINS, s("x"))))));
        dynamo.deleteItem(d -> d.tableName(HASH).key(key).conditionalOperator(ConditionalOperator.OR)
                .expected(Map.of("missing", expect(ComparisonOperator.NOT_CONTAINS, s("x")),
                        "seen", expect(ComparisonOperator.BETWEEN, n("0"), n("2")))));
        assertEquals(Map.of(), get(HASH, key));
    }

    @Test
    void attributeUpdatesKeepTheirLegacyMeaning() {
        Map<String, AttributeValue> key = item("pk", "updates");
        // ADD on a missing item creates it; a missing number starts from 0; a list is appended to.
        dynamo.updateItem(u -> u.tableName(HASH).key(key).attributeUpdates(Map.of(
                "count", update(AttributeAction.ADD, n("5")),
                "list", update(AttributeAction.ADD, AttributeValue.fromL(List.of(s("a")))),
                "tags", update(AttributeAction.ADD, AttributeValue.fromSs(List.of("x", "y"))))));
        Map<String, AttributeValue> old = dynamo.updateItem(u -> u.tableName(HASH).key(key)
                .returnValues(ReturnValue.UPDATED_OLD).attributeUpdates(Map.of(
                        "count", update(AttributeAction.ADD, n("-2")),
                        "list", update(AttributeAction.ADD, AttributeValue.fromL(List.of(s("b")))),
                        "tags", update(AttributeAction.DELETE, AttributeValue.fromSs(List.of("x")))))).attributes();
        assertEquals(n("5"), old.get("count"));
        assertEquals(3, old.size());
        Map<String, AttributeValue> now = get(HASH, key);
        assertEquals(n("3"), now.get("count"));
        assertEquals(List.of(s("a"), s("b")), now.get("list").l());
        assertEquals(List.of("y"), now.get("tags").ss());
        Map<String, AttributeValue> updated = dynamo.updateItem(u -> u.tableName(HASH).key(key)
                .returnValues(ReturnValue.UPDATED_NEW).attributeUpdates(Map.of(
                        "list", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build(),
                        "name", AttributeValueUpdate.builder().value(s("put is the default")).build()))).attributes();
        assertEquals(Map.of("name", s("put is the default")), updated);
        assertFalse(get(HASH, key).containsKey("list"));
        refused(() -> dynamo.updateItem(u -> u.tableName(HASH).key(key)
                        .attributeUpdates(Map.of("pk", update(AttributeAction.PUT, s("other"))))),
                "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key");
    }

    @Test
    void attributesToGetNamesExactlyWhatComesBack() {
        dynamo.putItem(p -> p.tableName(SORTED).item(item("pk", "get", "sk", 1, "name", "one", "extra", "x")));
        dynamo.putItem(p -> p.tableName(SORTED).item(item("pk", "get", "sk", 2, "name", "two", "extra", "y")));
        Map<String, AttributeValue> key = item("pk", "get", "sk", 1);
        assertEquals(item("name", "one"), dynamo.getItem(g -> g.tableName(SORTED).key(key)
                .attributesToGet("name", "absent")).item());
        assertEquals(List.of(item("name", "one"), item("name", "two")), dynamo.query(q -> q.tableName(SORTED)
                .keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("get"))))
                .attributesToGet("name").select(Select.SPECIFIC_ATTRIBUTES)).items());
        assertEquals(List.of(item("sk", 2)), dynamo.batchGetItem(b -> b.requestItems(Map.of(SORTED, KeysAndAttributes
                .builder().keys(item("pk", "get", "sk", 2)).attributesToGet("sk").build()))).responses().get(SORTED));
        refused(() -> dynamo.scan(s -> s.tableName(SORTED).attributesToGet("name", "name")),
                "One or more parameter values were invalid: Duplicate value in attribute name: name");
        refused(() -> dynamo.scan(s -> s.tableName(SORTED).attributesToGet("name").select(Select.ALL_ATTRIBUTES)),
                "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES");
    }

    @Test
    void keyConditionsAndFiltersRead() {
        for (int i = 1; i <= 5; i++) {
            int sk = i;
            dynamo.putItem(p -> p.tableName(SORTED).item(item("pk", "read", "sk", sk, "word", sk % 2 == 0 ? "even" : "odd")));
        }
        Set<String> sortKeys = new TreeSet<>();
        dynamo.query(q -> q.tableName(SORTED).keyConditions(Map.of(
                        "pk", condition(ComparisonOperator.EQ, s("read")),
                        "sk", condition(ComparisonOperator.BETWEEN, n("2"), n("5"))))
                .queryFilter(Map.of("word", condition(ComparisonOperator.EQ, s("odd")),
                        "missing", condition(ComparisonOperator.NOT_NULL)))
                .conditionalOperator(ConditionalOperator.OR)).items().forEach(i -> sortKeys.add(i.get("sk").n()));
        assertEquals(Set.of("3", "5"), sortKeys);
        // KeyConditions may stand beside a FilterExpression.
        assertEquals(2, dynamo.query(q -> q.tableName(SORTED)
                .keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("read"))))
                .filterExpression("word = :w").expressionAttributeValues(Map.of(":w", s("even")))).count());
        assertEquals(2, dynamo.scan(s -> s.tableName(SORTED).scanFilter(Map.of(
                "word", condition(ComparisonOperator.BEGINS_WITH, s("ev")),
                "sk", condition(ComparisonOperator.IN, n("2"), n("4"), n("9"))))).count());
        refused(() -> dynamo.query(q -> q.tableName(SORTED).keyConditions(Map.of(
                        "pk", condition(ComparisonOperator.EQ, s("read")),
                        "sk", condition(ComparisonOperator.NOT_NULL)))),
                "Attempted conditional constraint is not an indexable operation");
        refused(() -> dynamo.query(q -> q.tableName(SORTED).keyConditions(Map.of(
                        "sk", condition(ComparisonOperator.EQ, n("1"))))),
                "Query condition missed key schema element: pk");
    }

    @Test
    void legacyAndExpressionParametersDoNotMix() {
        refused(() -> dynamo.putItem(p -> p.tableName(HASH).item(item("pk", "mix"))
                        .expected(Map.of("pk", ExpectedAttributeValue.builder().exists(false).build()))
                        .conditionExpression("attribute_not_exists(pk)")),
                "Can not use both expression and non-expression parameters in the same request: Non-expression"
                        + " parameters: {Expected} Expression parameters: {ConditionExpression}");
        refused(() -> dynamo.scan(s -> s.tableName(HASH).conditionalOperator(ConditionalOperator.AND)),
                "ConditionalOperator cannot be used without Filter or Expected");
        refused(() -> dynamo.putItem(p -> p.tableName(HASH).item(item("pk", "mix"))
                        .expressionAttributeValues(Map.of(":v", s("unused")))),
                "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null");
    }
}
