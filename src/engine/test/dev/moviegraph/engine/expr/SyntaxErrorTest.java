package dev.moviegraph.engine.expr;

import org.junit.jupiter.api.Test;

import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SyntaxErrorTest {
    private static String refused(String text) {
        return refusal(() -> Expressions.condition(text, placeholders(":v", n("1"), ":w", n("2"))));
    }

    @Test
    void namesTheTokenAndTheTextAroundIt() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"x\", near: \"a x b\"", refused("a x b"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \")\", near: \"()\"", refused("attribute_type()"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"", refused("a = :v AND"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"a\"", refused("a"));
    }

    @Test
    void comparisonsDoNotChain() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"=\", near: \":v = :w\"", refused("a = :v = :w"));
    }

    @Test
    void keywordsCannotStandAsNames() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"and\", near: \"= and\"", refused("a = and"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"BETWEEN\", near: \"BETWEEN :v\"",
                refused("BETWEEN :v AND :w"));
    }

    @Test
    void unknownCharactersAndStrayPlaceholderSignsAreSyntaxErrors() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"\"\", near: \"= \"x\"", refused("a = \"x\""));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"#\", near: \"= # \"", refused("a = # "));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"!\", near: \"a !=\"", refused("a != :v"));
    }

    @Test
    void parenthesesMustBalance() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \":v\"", refused("(a = :v"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \")\", near: \":v)\"", refused("a = :v)"));
    }

    @Test
    void betweenNeedsAndAndInNeedsParentheses() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"OR\", near: \":v OR :w\"",
                refused("a BETWEEN :v OR :w"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \":v\", near: \"IN :v\"", refused("a IN :v"));
    }

    @Test
    void listIndexesAreDigitsOnly() {
        assertEquals("Invalid ConditionExpression: Syntax error; token: \":v\", near: \"[:v]\"", refused("a[:v] = :w"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"]\", near: \"[] =\"", refused("a[] = :w"));
        assertEquals("Invalid ConditionExpression: Syntax error; token: \"99999999999\", near: \"[99999999999]\"",
                refused("a[99999999999] = :w"));
    }
}
