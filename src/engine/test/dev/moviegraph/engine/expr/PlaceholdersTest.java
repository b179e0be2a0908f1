package dev.moviegraph.engine.expr;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static dev.moviegraph.engine.expr.TestValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlaceholdersTest {
    @Test
    void anUndefinedNameIsRefusedInEveryExpressionKind() {
        Placeholders none = placeholders(":v", n("1"));
        assertEquals("Invalid ConditionExpression: An expression attribute name used in the document path is not "
                + "defined; attribute name: #n", refusal(() -> Expressions.condition("#n = :v", none)));
        assertEquals("Invalid UpdateExpression: An expression attribute name used in the document path is not "
                + "defined; attribute name: #n", refusal(() -> Expressions.update("SET a.#n = :v", none)));
        assertEquals("Invalid ProjectionExpression: An expression attribute name used in the document path is not "
                + "defined; attribute name: #n", refusal(() -> Expressions.projection("a, #n", none)));
        assertEquals("Invalid KeyConditionExpression: An expression attribute name used in the document path is "
                + "not defined; attribute name: #n", refusal(() -> Expressions.keyCondition("#n = :v", none, "pk", null)));
    }

    @Test
    void anUndefinedValueIsRefused() {
        assertEquals("Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
                + "attribute value: :v", refusal(() -> Expressions.condition("a = :v", placeholders())));
        assertEquals("Invalid UpdateExpression: An expression attribute value used in expression is not defined; "
                + "attribute value: :w", refusal(() -> Expressions.update("SET a = :v ADD b :w", placeholders(":v", n("1")))));
    }

    @Test
    void updatesReportUndefinedNamesBeforeUndefinedValues() {
        assertEquals("Invalid UpdateExpression: An expression attribute name used in the document path is not "
                + "defined; attribute name: #n", refusal(() -> Expressions.update("SET a = :v, #n = :w", placeholders())));
    }

    @Test
    void everyPlaceholderGivenMustBeUsedBySomeExpressionOfTheRequest() {
        Placeholders p = placeholders("#a", "a", "#b", "b", ":x", n("1"), ":y", n("2"), ":z", n("3"));
        Expressions.condition("#a = :x", p);
        Expressions.update("SET #a = :y", p);
        assertEquals("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}",
                refusal(p::requireAllUsed));
        Expressions.projection("#b", p);
        assertEquals("Value provided in ExpressionAttributeValues unused in expressions: keys: {:z}",
                refusal(p::requireAllUsed));
        Expressions.filter("attribute_exists(#a) OR #b = :z", p);
        p.requireAllUsed();
    }

    @Test
    void unusedKeysAreListedInTheOrderGiven() {
        Map<String, dev.moviegraph.engine.value.Value> values = new LinkedHashMap<>();
        values.put(":c", s("c"));
        values.put(":a", s("a"));
        values.put(":b", s("b"));
        Placeholders p = new Placeholders(Map.of(), values);
        Expressions.condition("x = :a", p);
        assertEquals("Value provided in ExpressionAttributeValues unused in expressions: keys: {:c, :b}",
                refusal(p::requireAllUsed));
    }

    @Test
    void aRefusedExpressionMarksNothingUsed() {
        Placeholders p = placeholders(":v", n("1"));
        refusal(() -> Expressions.condition("a = :v AND", p));
        assertEquals("Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
                refusal(p::requireAllUsed));
    }

    @Test
    void noPlaceholdersNeedNoUse() {
        Placeholders.none().requireAllUsed();
        assertThrows(NullPointerException.class, () -> new Placeholders(null, Map.of()));
    }
}
