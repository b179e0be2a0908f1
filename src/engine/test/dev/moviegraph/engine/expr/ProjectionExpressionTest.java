package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static dev.moviegraph.engine.expr.TestValues.item;
import static dev.moviegraph.engine.expr.TestValues.l;
import static dev.moviegraph.engine.expr.TestValues.m;
import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static dev.moviegraph.engine.expr.TestValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ProjectionExpressionTest {
    private static final Map<String, Value> ITEM = item(
            "pk", s("k"),
            "title", s("Heat"),
            "doc", m("b", n("1"), "c", m("d", n("2"), "e", n("3")), "f", n("4")),
            "l", l(s("x"), m("y", n("5"), "z", n("6")), s("w")));

    private static Map<String, Value> project(String text, Object... placeholders) {
        return Expressions.projection(text, placeholders(placeholders)).apply(ITEM);
    }

    private static String refused(String text, Object... placeholders) {
        return refusal(() -> Expressions.projection(text, placeholders(placeholders)));
    }

    @Test
    void topLevelNamesProjectWholeAttributes() {
        assertEquals(item("title", s("Heat"), "pk", s("k")), project("title, pk, absent"));
    }

    @Test
    void nestedPathsKeepTheirStructure() {
        assertEquals(item("doc", m("b", n("1"))), project("doc.b"));
        assertEquals(item("doc", m("c", m("e", n("3")), "f", n("4"))), project("doc.c.e, doc.f"));
    }

    @Test
    void listIndexesKeepTheListWithTheChosenElementsInOrder() {
        assertEquals(item("l", l(m("y", n("5"), "z", n("6")))), project("l[1]"));
        assertEquals(item("l", l(s("x"), s("w"))), project("l[2], l[0], l[7]"));
        assertEquals(item("l", l(m("z", n("6")))), project("l[1].z"));
    }

    @Test
    void pathsThatReachNothingLeaveNoEmptyContainers() {
        assertEquals(item(), project("doc.absent, l[9], title.x"));
        assertEquals(item(), project("doc[0], l.y"));
    }

    @Test
    void placeholdersNameAttributesWithAnyCharacters() {
        Map<String, Value> item = item("a.b", n("1"), "my-attr", n("2"));
        Projection projection = Expressions.projection("#dotted, #dash", placeholders("#dotted", "a.b", "#dash", "my-attr"));
        assertEquals(item, projection.apply(item));
        assertEquals(Set.of("a.b", "my-attr"), projection.topLevelNames());
    }

    @Test
    void overlappingOrConflictingPathsAreRefused() {
        assertEquals("Invalid ProjectionExpression: Two document paths overlap with each other; must remove or "
                + "rewrite one of these paths; path one: [doc], path two: [doc, b]", refused("doc, doc.b"));
        assertEquals("Invalid ProjectionExpression: Two document paths overlap with each other; must remove or "
                + "rewrite one of these paths; path one: [pk], path two: [pk]", refused("pk, #p", "#p", "pk"));
        assertEquals("Invalid ProjectionExpression: Two document paths conflict with each other; must remove or "
                + "rewrite one of these paths; path one: [l, [0]], path two: [l, y]", refused("l[0], l.y"));
    }

    @Test
    void projectionSyntaxErrorsNameTheToken() {
        assertEquals("Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\"", refused("a,"));
        assertEquals("Invalid ProjectionExpression: Syntax error; token: \"a\", near: \"[a]\"", refused("l[a]"));
        assertEquals("Invalid ProjectionExpression: Syntax error; token: \":v\", near: \":v\"", refused(":v"));
        assertEquals("Invalid ProjectionExpression: Syntax error; token: \"-\", near: \"[-1\"", refused("l[-1]"));
        assertEquals("Invalid ProjectionExpression: The expression can not be empty;", refused(""));
    }
}
