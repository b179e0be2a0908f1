package dev.moviegraph.engine.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.expr.Condition;
import dev.moviegraph.engine.expr.Expressions;
import dev.moviegraph.engine.expr.Placeholders;
import dev.moviegraph.engine.value.Value;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The limits the fuzz tests made the expression parsers keep: DynamoDB's 4 KB per expression (UTF-8 bytes of the
 * text as given), and a nesting depth that no expression DynamoDB accepts reaches, so that deep parentheses are
 * refused instead of overflowing the stack.
 */
class ExpressionLimitsTest {
    private static final String TOO_LONG = "Expression size has exceeded the maximum allowed size;";

    private static Placeholders values() {
        return new Placeholders(Map.of(), Map.of(":a", new Value.S("x")));
    }

    @Test
    void conditionsAndFiltersOver4KbNameTheirSize() {
        String text = "attribute_exists(a" + "b".repeat(4097 - 19) + ")";
        assertEquals(4097, text.length());
        assertMessage("Invalid ConditionExpression: " + TOO_LONG + " expression size: 4097",
                () -> Expressions.condition(text, Placeholders.none()));
        assertMessage("Invalid FilterExpression: " + TOO_LONG + " expression size: 4097",
                () -> Expressions.filter(text, Placeholders.none()));
    }

    @Test
    void expressionsOf4KbAreTaken() {
        String text = "attribute_exists(a" + "b".repeat(4096 - 19) + ")";
        Condition condition = Expressions.condition(text, Placeholders.none());
        assertTrue(condition.test(Map.of(text.substring(17, text.length() - 1), new Value.Null())));
        Expressions.projection("a" + "b".repeat(4095), Placeholders.none());
    }

    @Test
    void projectionsUpdatesAndKeyConditionsOver4KbDoNotNameTheirSize() {
        assertMessage("Invalid ProjectionExpression: " + TOO_LONG,
                () -> Expressions.projection("a" + "b".repeat(4096), Placeholders.none()));
        assertMessage("Invalid UpdateExpression: " + TOO_LONG,
                () -> Expressions.update("SET a" + "b".repeat(4090) + " = :a", values()));
        assertMessage("Invalid KeyConditionExpression: " + TOO_LONG,
                () -> Expressions.keyCondition("pk = :a AND " + "b".repeat(4090) + " = :a", values(), "pk", "sk"));
    }

    @Test
    void theSizeIsCountedInUtf8Bytes() {
        // 1,366 characters of three bytes each: 4,098 bytes.
        assertMessage("Invalid ConditionExpression: " + TOO_LONG + " expression size: 4098",
                () -> Expressions.condition("\u20ac".repeat(1366), Placeholders.none()));
    }

    @Test
    void parenthesesNestedDeeperThan300AreRefusedBeforeParsing() {
        String deep = "(a = :a AND ".repeat(301) + "a = :a" + ")".repeat(301);
        assertMessage("Invalid ConditionExpression: The expression has parentheses nested too deeply; depth limit: 300",
                () -> Expressions.condition(deep, values()));
        assertMessage("Invalid UpdateExpression: The expression has parentheses nested too deeply; depth limit: 300",
                () -> Expressions.update("SET a = " + "(".repeat(2000) + ":a" + ")".repeat(2000), values()));
        String deepest = "(a = :a AND ".repeat(300) + "a = :a" + ")".repeat(300);
        Expressions.condition(deepest, values());
    }

    private static void assertMessage(String message, Executable parse) {
        ApiException e = assertThrows(ApiException.class, parse);
        assertEquals("com.amazon.coral.validate#ValidationException", e.type());
        assertEquals(message, e.getMessage());
    }
}
