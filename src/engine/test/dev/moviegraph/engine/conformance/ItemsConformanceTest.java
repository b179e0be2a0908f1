package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.b;
import static dev.moviegraph.engine.conformance.Conformance.bool;
import static dev.moviegraph.engine.conformance.Conformance.bs;
import static dev.moviegraph.engine.conformance.Conformance.bytes;
import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.l;
import static dev.moviegraph.engine.conformance.Conformance.m;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.ns;
import static dev.moviegraph.engine.conformance.Conformance.nul;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.sorted;
import static dev.moviegraph.engine.conformance.Conformance.ss;
import static dev.moviegraph.engine.conformance.Conformance.text;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.math.BigDecimal;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** GetItem, PutItem, UpdateItem and DeleteItem: types, return values, conditions, limits and validation. */
class ItemsConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String table;
    private static String sorted;
    private static String binary;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        table = createTable(dynamo, "items", null);
        sorted = createTable(dynamo, "itemsSorted", ScalarAttributeType.S);
        binary = createTable(dynamo, "itemsBinary", null, c -> c
                .keySchema(Conformance.hash("id"))
                .attributeDefinitions(Conformance.attribute("id", ScalarAttributeType.B)));
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

    private static Map<String, AttributeValue> get(String key) {
        return dynamo.getItem(g -> g.tableName(table).key(item("pk", key)).consistentRead(true)).item();
    }

    @Test
    void everyAttributeTypeRoundTrips() {
        Map<String, AttributeValue> item = item(
                "pk", "types",
                "s", "text with ünïcödé and \uD83D\uDE00",
                "n", n("-12.5"),
                "b", b(0, 1, 127, 128, 255),
                "t", bool(true),
                "f", bool(false),
                "nul", nul(),
                "l", l(s("a"), n("1"), l(bool(false)), m("x", nul()), ss("q")),
                "m", m("inner", m("deep", s("v"), "list", l(n("2"))), "b", b(9)),
                "ss", ss("red", "green", "blue"),
                "ns", ns("1", "-2.5", "300"),
                "bs", bs(bytes(1), bytes(2, 3), bytes(255)),
                "emptyS", s(""),
                "emptyB", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])),
                "emptyL", AttributeValue.fromL(java.util.List.of()),
                "emptyM", AttributeValue.fromM(Map.of()));
        dynamo.putItem(p -> p.tableName(table).item(item));
        assertEquals(sorted(item), sorted(get("types")));
        Map<String, AttributeValue> eventually = dynamo.getItem(g -> g.tableName(table).key(item("pk", "types")))
                .item();
        assertEquals(sorted(item), sorted(eventually));
    }

    @Test
    void numbersComeBackWithoutLeadingOrTrailingZeros() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "zeros", "a", n("0012.3400"), "b", n("-0.50"),
                "c", n("1.0"), "d", n("1000"), "e", n("0.000"))));
        Map<String, AttributeValue> got = get("zeros");
        assertEquals("12.34", got.get("a").n());
        assertEquals("-0.5", got.get("b").n());
        assertEquals("1", got.get("c").n());
        assertEquals("1000", got.get("d").n(), "zeros before the decimal point are the number's own");
        assertEquals("0", got.get("e").n());
    }

    @Test
    void numbersHoldThirtyEightSignificantDigitsAndDynamoDbsRange() {
        String digits38 = "12345678901234567890123456789012345678";
        String fraction38 = "-0.12345678901234567890123456789012345678";
        String manyZeros = "1" + "0".repeat(42); // one significant digit
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "digits", "a", n(digits38), "b", n(fraction38),
                "c", n(manyZeros), "max", n("9.9999999999999999999999999999999999999E+125"), "min", n("1E-130"))));
        Map<String, AttributeValue> got = get("digits");
        assertEquals(digits38, got.get("a").n());
        assertEquals(fraction38, got.get("b").n());
        assertEquals(0, new BigDecimal(manyZeros).compareTo(new BigDecimal(got.get("c").n())));
        assertEquals(0, new BigDecimal("9.9999999999999999999999999999999999999E+125")
                .compareTo(new BigDecimal(got.get("max").n())));
        assertEquals(0, new BigDecimal("1E-130").compareTo(new BigDecimal(got.get("min").n())));

        assertAll("numbersHoldThirtyEightSignificantDigitsAndDynamoDbsRange",

                refused("putItem(item(item('pk', 'digits39', 'a', n('123456789012345678901234567890123456789'))))",

                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "digits39",
                                "a", n("123456789012345678901234567890123456789")))), "significant digits"),

                refused("putItem(item(item('pk', 'big', 'a', n('1E+126'))))",

                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "big", "a", n("1E+126"))))),

                refused("putItem(item(item('pk', 'small', 'a', n('1E-131'))))",

                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "small", "a", n("1E-131"))))),

                refused("putItem(item(item('pk', 'nan', 'a', n('abc'))))",

                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "nan", "a", n("abc"))))),

                refused("putItem(item(item('pk', 'blank', 'a', n(''))))",

                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "blank", "a", n(""))))),

                refused("updateItem(key(item('pk', 'digits')) .updateExpression('SET a = a + :one').expressionAttributeValues(Map.of...",

                        () -> dynamo.updateItem(u -> u.tableName(table).key(item("pk", "digits"))
                                .updateExpression("SET a = a + :one").expressionAttributeValues(Map.of(":one", n("0.1"))))));
    }

    @Test
    void getItemOfAMissingItemAnswersNoItem() {
        var answer = dynamo.getItem(g -> g.tableName(table).key(item("pk", "never-written")));
        assertFalse(answer.hasItem(), "no Item element when nothing matches");
    }

    @Test
    void putItemReplacesTheWholeItem() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "replace", "a", 1, "b", 2)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "replace", "c", 3)));
        assertEquals(item("pk", "replace", "c", 3), get("replace"));
    }

    @Test
    void putAndDeleteReturnTheOldItemWhenAsked() {
        var first = dynamo.putItem(p -> p.tableName(table).item(item("pk", "rv", "v", 1))
                .returnValues(ReturnValue.ALL_OLD));
        assertTrue(first.attributes().isEmpty(), "no old item, no attributes");
        var second = dynamo.putItem(p -> p.tableName(table).item(item("pk", "rv", "v", 2))
                .returnValues(ReturnValue.ALL_OLD));
        assertEquals(item("pk", "rv", "v", 1), second.attributes());
        var none = dynamo.putItem(p -> p.tableName(table).item(item("pk", "rv", "v", 3))
                .returnValues(ReturnValue.NONE));
        assertTrue(none.attributes().isEmpty());
        var deleted = dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "rv"))
                .returnValues(ReturnValue.ALL_OLD));
        assertEquals(item("pk", "rv", "v", 3), deleted.attributes());
        var deletedAgain = dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "rv"))
                .returnValues(ReturnValue.ALL_OLD));
        assertTrue(deletedAgain.attributes().isEmpty(), "deleting a missing item succeeds and returns nothing");

        validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "rv", "v", 1))
                .returnValues(ReturnValue.ALL_NEW)));
        validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "rv", "v", 1))
                .returnValues(ReturnValue.UPDATED_OLD)));
        validation(() -> dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "rv"))
                .returnValues(ReturnValue.ALL_NEW)));
    }

    private static Map<String, AttributeValue> updateWith(ReturnValue returnValue) {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "uv", "a", 1, "b", "x", "c", l(n(1)),
                "m", m("x", n(1), "y", n(2)))));
        return dynamo.updateItem(u -> u.tableName(table).key(item("pk", "uv"))
                .updateExpression("SET a = :two, d = :new, m.x = :nine REMOVE b")
                .expressionAttributeValues(Map.of(":two", n(2), ":new", s("new"), ":nine", n(9)))
                .returnValues(returnValue)).attributes();
    }

    @Test
    void updateItemReturnsEachKindOfReturnValues() {
        assertTrue(updateWith(ReturnValue.NONE).isEmpty());
        assertEquals(item("pk", "uv", "a", 1, "b", "x", "c", l(n(1)), "m", m("x", n(1), "y", n(2))),
                updateWith(ReturnValue.ALL_OLD));
        assertEquals(item("a", 1, "b", "x", "m", m("x", n(1))), updateWith(ReturnValue.UPDATED_OLD),
                "only the updated attributes (a nested one as its path) as they were; d did not exist");
        assertEquals(item("pk", "uv", "a", 2, "c", l(n(1)), "d", "new", "m", m("x", n(9), "y", n(2))),
                updateWith(ReturnValue.ALL_NEW));
        assertEquals(item("a", 2, "d", "new", "m", m("x", n(9))), updateWith(ReturnValue.UPDATED_NEW),
                "only the updated attributes as they are now; the removed b is not among them");
    }

    @Test
    void updateItemOfAMissingItemCreatesIt() {
        var answer = dynamo.updateItem(u -> u.tableName(table).key(item("pk", "upsert"))
                .updateExpression("SET a = :a ADD c :one").expressionAttributeValues(Map.of(":a", s("x"), ":one", n(1)))
                .returnValues(ReturnValue.ALL_NEW));
        assertEquals(item("pk", "upsert", "a", "x", "c", 1), answer.attributes());
        assertEquals(item("pk", "upsert", "a", "x", "c", 1), get("upsert"));
        // an update that only removes from a missing item creates it with its key
        dynamo.updateItem(u -> u.tableName(table).key(item("pk", "upsert-remove")).updateExpression("REMOVE z"));
        assertEquals(item("pk", "upsert-remove"), get("upsert-remove"));
    }

    @Test
    void keyAttributesCannotBeUpdated() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "keyupdate", "a", 1)));
        validation(() -> dynamo.updateItem(u -> u.tableName(table).key(item("pk", "keyupdate"))
                .updateExpression("SET pk = :v").expressionAttributeValues(Map.of(":v", s("other")))),
                "part of the key");
        validation(() -> dynamo.updateItem(u -> u.tableName(table).key(item("pk", "keyupdate"))
                .updateExpression("REMOVE pk")), "part of the key");
    }

    @Test
    void itemsLargerThan400KbAreRefused() {
        // size = attribute name bytes + value bytes: "pk" + "big" + "d" + the text
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "big", "d", text(409_000))));
        assertEquals(409_000, get("big").get("d").s().length());
        validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "big2", "d", text(409_700)))),
                "Item size");
        assertFalse(dynamo.getItem(g -> g.tableName(table).key(item("pk", "big2")).consistentRead(true)).hasItem());

        dynamo.putItem(p -> p.tableName(table).item(item("pk", "grow", "d", text(300_000))));
        validation(() -> dynamo.updateItem(u -> u.tableName(table).key(item("pk", "grow"))
                .updateExpression("SET e = :e").expressionAttributeValues(Map.of(":e", s(text(200_000))))),
                "Item size");
        assertFalse(get("grow").containsKey("e"), "the refused update changed nothing");
    }

    @Test
    void partitionKeysUpTo2048BytesAndSortKeysUpTo1024BytesAreAllowed() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", text(2048))));
        assertTrue(dynamo.getItem(g -> g.tableName(table).key(item("pk", text(2048)))).hasItem());
        validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", text(2049)))), "2048");
        // the limit is in UTF-8 bytes: 1,025 two-byte characters are 2,050 bytes
        validation(() -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "é".repeat(1025)))), "2048");
        validation(() -> dynamo.getItem(g -> g.tableName(table).key(item("pk", text(2049)))), "2048");

        dynamo.putItem(p -> p.tableName(sorted).item(item("pk", "k", "sk", text(1024))));
        validation(() -> dynamo.putItem(p -> p.tableName(sorted).item(item("pk", "k", "sk", text(1025)))), "1024");
        validation(() -> dynamo.putItem(p -> p.tableName(sorted).item(item("pk", "k", "sk", "é".repeat(513)))),
                "1024");

        dynamo.putItem(p -> p.tableName(binary).item(item("id", AttributeValue.fromB(
                SdkBytes.fromByteArray(new byte[2048])))));
        validation(() -> dynamo.putItem(p -> p.tableName(binary).item(item("id", AttributeValue.fromB(
                SdkBytes.fromByteArray(new byte[2049]))))), "2048");
    }

    @Test
    void keysAndValuesAreValidated() {
        assertAll("keysAndValuesAreValidated",
                // an empty string or binary cannot be a key
                refused("putItem(item(item('pk', '')))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", ""))), "empty"),
                refused("putItem(item(item('id', AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])))))",
                        () -> dynamo.putItem(p -> p.tableName(binary).item(item("id",
                                AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]))))), "empty"),
                // the key's type is the table's
                refused("putItem(item(item('pk', n(1))))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", n(1))))),
                refused("getItem(key(item('pk', n(1))))",
                        () -> dynamo.getItem(g -> g.tableName(table).key(item("pk", n(1))))),
                // the key is all of the key and nothing else
                refused("putItem(item(item('pk', 'only-hash')))",
                        () -> dynamo.putItem(p -> p.tableName(sorted).item(item("pk", "only-hash")))),
                refused("getItem(key(item('pk', 'only-hash')))",
                        () -> dynamo.getItem(g -> g.tableName(sorted).key(item("pk", "only-hash")))),
                refused("getItem(key(item('pk', 'k', 'extra', 'x')))",
                        () -> dynamo.getItem(g -> g.tableName(table).key(item("pk", "k", "extra", "x")))),
                refused("deleteItem(key(item('pk', 'k', 'extra', 'x')))",
                        () -> dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "k", "extra", "x")))),
                // sets are never empty and never hold one member twice
                refused("putItem(item(item('pk', 'sets', 'e', AttributeValue.fromSs(java.util.List.of()))))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "sets",
                                "e", AttributeValue.fromSs(java.util.List.of()))))),
                refused("putItem(item(item('pk', 'sets', 'd', ss('a', 'a'))))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "sets", "d", ss("a", "a")))), "duplicates"),
                refused("putItem(item(item('pk', 'sets', 'd', ns('1', '1.0'))))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "sets", "d", ns("1", "1.0")))), "duplicates"),
                // an attribute value names exactly one type
                refused("putItem(item(item('pk', 'two', 'd', AttributeValue.builder().s('a').n('1').build())))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "two",
                                "d", AttributeValue.builder().s("a").n("1").build())))),
                refused("putItem(item(item('pk', 'none', 'd', AttributeValue.builder().build())))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "none",
                                "d", AttributeValue.builder().build())))),
                // NULL is only ever true
                refused("putItem(item(item('pk', 'nullfalse', 'd', AttributeValue.fromNul(false))))",
                        () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "nullfalse",
                                "d", AttributeValue.fromNul(false))))));
    }

    @Test
    void aFailedConditionIsConditionalCheckFailedAndCanCarryTheItem() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "cond", "v", 1)));
        ConditionalCheckFailedException plain = assertThrows(ConditionalCheckFailedException.class,
                () -> dynamo.putItem(p -> p.tableName(table).item(item("pk", "cond", "v", 2))
                        .conditionExpression("attribute_not_exists(pk)")));
        assertEquals(400, plain.statusCode());
        assertEquals("The conditional request failed", plain.awsErrorDetails().errorMessage());
        assertFalse(plain.hasItem(), "no item unless ReturnValuesOnConditionCheckFailure=ALL_OLD");

        ConditionalCheckFailedException withItem = assertThrows(ConditionalCheckFailedException.class,
                () -> dynamo.updateItem(u -> u.tableName(table).key(item("pk", "cond"))
                        .updateExpression("SET v = :two").conditionExpression("v = :zero")
                        .expressionAttributeValues(Map.of(":two", n(2), ":zero", n(0)))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        assertEquals(item("pk", "cond", "v", 1), withItem.item());

        ConditionalCheckFailedException onDelete = assertThrows(ConditionalCheckFailedException.class,
                () -> dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "cond"))
                        .conditionExpression("v > :five").expressionAttributeValues(Map.of(":five", n(5)))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        assertEquals(item("pk", "cond", "v", 1), onDelete.item());

        ConditionalCheckFailedException missing = assertThrows(ConditionalCheckFailedException.class,
                () -> dynamo.deleteItem(d -> d.tableName(table).key(item("pk", "cond-missing"))
                        .conditionExpression("attribute_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        assertFalse(missing.hasItem() && !missing.item().isEmpty(), "a missing item has no old image");
        assertEquals(item("pk", "cond", "v", 1), get("cond"), "nothing was written");
    }

    @Test
    void itemCollectionMetricsComeBackForTablesWithLocalIndexes() {
        String withLocal = createTable(dynamo, "itemCollections", ScalarAttributeType.S, c -> c
                .attributeDefinitions(Conformance.attribute("pk", ScalarAttributeType.S),
                        Conformance.attribute("sk", ScalarAttributeType.S),
                        Conformance.attribute("lsk", ScalarAttributeType.S))
                .localSecondaryIndexes(software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex.builder()
                        .indexName("byLsk").keySchema(Conformance.hash("pk"), Conformance.range("lsk"))
                        .projection(Conformance.projection(
                                software.amazon.awssdk.services.dynamodb.model.ProjectionType.ALL)).build()));
        var put = dynamo.putItem(p -> p.tableName(withLocal).item(item("pk", "collection", "sk", "1", "lsk", "a"))
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE));
        assertNotNull(put.itemCollectionMetrics(), "ReturnItemCollectionMetrics=SIZE on a table with a local index");
        assertEquals(item("pk", "collection"), put.itemCollectionMetrics().itemCollectionKey(),
                "the item collection is named by its partition key");
        assertEquals(2, put.itemCollectionMetrics().sizeEstimateRangeGB().size(), "a lower and an upper bound");
        assertTrue(put.itemCollectionMetrics().sizeEstimateRangeGB().get(0)
                <= put.itemCollectionMetrics().sizeEstimateRangeGB().get(1));
        var none = dynamo.putItem(p -> p.tableName(table).item(item("pk", "no-collection"))
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE));
        assertTrue(none.itemCollectionMetrics() == null || !none.itemCollectionMetrics().hasItemCollectionKey(),
                "a table without local indexes has no item collections to report");
        var notAsked = dynamo.putItem(p -> p.tableName(withLocal).item(item("pk", "collection", "sk", "2")));
        assertTrue(notAsked.itemCollectionMetrics() == null, "only when asked");
    }
}
