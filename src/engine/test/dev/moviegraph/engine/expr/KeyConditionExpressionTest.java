package dev.moviegraph.engine.expr;

import org.junit.jupiter.api.Test;

import static dev.moviegraph.engine.expr.TestValues.b;
import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static dev.moviegraph.engine.expr.TestValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyConditionExpressionTest {
    private static final Object[] VALUES = {":p", s("movie#1"), ":a", s("a"), ":b", s("m"), ":n", n("3")};

    private static KeyCondition parse(String text, String sortKey) {
        return Expressions.keyCondition(text, placeholders(VALUES), "pk", sortKey);
    }

    private static String refused(String text, String sortKey) {
        return refusal(() -> parse(text, sortKey));
    }

    @Test
    void partitionKeyEqualityAlone() {
        KeyCondition condition = parse("pk = :p", "sk");
        assertEquals(s("movie#1"), condition.partition());
        assertNull(condition.sort());
        assertEquals(s("movie#1"), parse(":p = pk", null).partition());
    }

    @Test
    void everySortKeyOperatorIsAccepted() {
        assertEquals(new SortCondition(SortCondition.Op.EQ, s("a"), null), parse("pk = :p AND sk = :a", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.LT, s("a"), null), parse("pk = :p and sk < :a", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.LE, s("a"), null), parse("sk <= :a AND pk = :p", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.GT, s("a"), null), parse("pk = :p AND sk > :a", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.GE, s("a"), null), parse("pk = :p AND sk >= :a", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.BETWEEN, s("a"), s("m")),
                parse("pk = :p AND sk BETWEEN :a AND :b", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.BEGINS_WITH, s("a"), null),
                parse("pk = :p AND begins_with(#s, :a)", "sk", "#s").sort());
    }

    private static KeyCondition parse(String text, String sortKey, String nameRef) {
        return Expressions.keyCondition(text, placeholders(nameRef, sortKey, ":p", s("movie#1"), ":a", s("a")), "pk", sortKey);
    }

    @Test
    void aValueOnTheLeftFlipsTheComparator() {
        assertEquals(new SortCondition(SortCondition.Op.GT, s("a"), null), parse("pk = :p AND :a < sk", "sk").sort());
        assertEquals(new SortCondition(SortCondition.Op.LE, s("a"), null), parse("pk = :p AND :a >= sk", "sk").sort());
    }

    @Test
    void sortConditionsMatchByTheKeyOrder() {
        SortCondition between = new SortCondition(SortCondition.Op.BETWEEN, n("2"), n("10"));
        assertTrue(between.matches(n("2")));
        assertTrue(between.matches(n("10")));
        assertFalse(between.matches(n("11")));
        assertFalse(between.matches(s("5")));
        assertTrue(new SortCondition(SortCondition.Op.LT, s("b"), null).matches(s("a\uFFFF")));
        assertTrue(new SortCondition(SortCondition.Op.GT, s("\uFFFF"), null).matches(s("\uD83D\uDE00")));
        assertTrue(new SortCondition(SortCondition.Op.BEGINS_WITH, s("mov"), null).matches(s("movie")));
        assertTrue(new SortCondition(SortCondition.Op.BEGINS_WITH, b("ab"), null).matches(b("abc")));
        assertFalse(new SortCondition(SortCondition.Op.BEGINS_WITH, s("ab"), null).matches(b("abc")));
        assertTrue(new SortCondition(SortCondition.Op.EQ, n("3"), null).matches(n("3.0")));
        assertFalse(new SortCondition(SortCondition.Op.GE, n("3"), null).matches(null));
    }

    @Test
    void operatorsOtherThanComparisonsBetweenAndBeginsWithAreRefused() {
        assertEquals("Invalid operator used in KeyConditionExpression: OR", refused("pk = :p OR sk = :a", "sk"));
        assertEquals("Invalid operator used in KeyConditionExpression: NOT", refused("NOT pk = :p", "sk"));
        assertEquals("Invalid operator used in KeyConditionExpression: IN", refused("pk IN (:p, :a)", "sk"));
        assertEquals("Invalid operator used in KeyConditionExpression: <>", refused("pk <> :p", "sk"));
        assertEquals("Invalid operator used in KeyConditionExpression: attribute_exists",
                refused("pk = :p AND attribute_exists(sk)", "sk"));
        assertEquals("Invalid operator used in KeyConditionExpression: contains", refused("contains(pk, :a)", "sk"));
    }

    @Test
    void operandsMustBeOneTopLevelKeyAndValues() {
        assertEquals("KeyConditionExpressions cannot contain nested operations", refused("pk = :p AND size(sk) > :n", "sk"));
        assertEquals("KeyConditionExpressions cannot have conditions on nested attributes", refused("pk.x = :p", "sk"));
        assertEquals("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
                refused("pk = sk", "sk"));
        assertEquals("Invalid condition in KeyConditionExpression: No key attribute specified",
                refused(":p = :a AND pk = :p", "sk"));
        assertEquals("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as "
                + "its first operand", refused("pk = :p AND :a BETWEEN sk AND :b", "sk"));
        assertEquals("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute "
                + "as its first operand", refused("pk = :p AND begins_with(:a, sk)", "sk"));
        assertEquals("KeyConditionExpressions must only contain one condition per key",
                refused("pk = :p AND sk > :a AND sk < :b", "sk"));
    }

    @Test
    void theKeySchemaMustBeFollowed() {
        assertEquals("Query condition missed key schema element: pk", refused("sk = :a", "sk"));
        assertEquals("Query condition missed key schema element: pk", refused("genre = :a", null));
        assertEquals("Query key condition not supported", refused("pk > :p", "sk"));
        assertEquals("Query key condition not supported", refused("pk = :p AND sk = :a", null));
        assertEquals("Query condition missed key schema element: sk", refused("pk = :p AND genre = :a", "sk"));
        assertEquals("Conditions can be of length 1 or 2 only", refused("pk = :p AND sk = :a AND x = :b", "sk"));
    }

    @Test
    void betweenBoundsMustBeOrderedAndOfOneType() {
        assertEquals("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than "
                + "or equal to lower bound; lower bound operand: AttributeValue: {S:m}, upper bound operand: "
                + "AttributeValue: {S:a}", refused("pk = :p AND sk BETWEEN :b AND :a", "sk"));
        assertEquals("Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower and "
                + "upper bounds; lower bound operand: AttributeValue: {N:3}, upper bound operand: AttributeValue: {S:m}",
                refused("pk = :p AND sk BETWEEN :n AND :b", "sk"));
    }

    @Test
    void keyConditionSyntaxErrorsComeFirst() {
        assertEquals("Invalid KeyConditionExpression: Syntax error; token: \"4\", near: \"> 4\"", refused("pk > 4", "sk"));
        assertEquals("Invalid KeyConditionExpression: The expression can not be empty;", refused("", "sk"));
        assertEquals("Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: Name",
                refused("Name = :p", "sk"));
    }
}
