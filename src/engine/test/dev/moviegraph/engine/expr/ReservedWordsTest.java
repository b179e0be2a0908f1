package dev.moviegraph.engine.expr;

import org.junit.jupiter.api.Test;

import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReservedWordsTest {
    @Test
    void holdsDynamoDbsWholeList() {
        assertEquals(573, ReservedWords.size());
        assertTrue(ReservedWords.contains("ABORT"));
        assertTrue(ReservedWords.contains("zone"));
        assertTrue(ReservedWords.contains("Name"));
        assertFalse(ReservedWords.contains("title"));
    }

    @Test
    void aReservedWordIsRefusedAsABareNameInEveryExpressionKind() {
        assertEquals("Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: name",
                refusal(() -> Expressions.update("SET name = :v", placeholders(":v", n("1")))));
        assertEquals("Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Year",
                refusal(() -> Expressions.condition("info.Year > :v", placeholders(":v", n("1")))));
        assertEquals("Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: count",
                refusal(() -> Expressions.projection("title, count", placeholders())));
        assertEquals("Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abOrt",
                refusal(() -> Expressions.update(" set #c = :c set abOrt = :c ", placeholders("#c", "c", ":c", n("1")))));
    }

    @Test
    void aPlaceholderMayStandForAReservedWord() {
        Expressions.update("SET #n = :v", placeholders("#n", "name", ":v", n("1")));
        Expressions.projection("#y, info.#y", placeholders("#y", "year"));
    }

    @Test
    void functionNamesAreNotAttributeNames() {
        // SIZE is reserved, yet size(...) is the function.
        Expressions.condition("size(title) > :v", placeholders(":v", n("1")));
    }
}
