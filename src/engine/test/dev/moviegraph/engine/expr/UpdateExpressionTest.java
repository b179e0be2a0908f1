package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static dev.moviegraph.engine.expr.TestValues.bool;
import static dev.moviegraph.engine.expr.TestValues.bs;
import static dev.moviegraph.engine.expr.TestValues.item;
import static dev.moviegraph.engine.expr.TestValues.l;
import static dev.moviegraph.engine.expr.TestValues.m;
import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.ns;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static dev.moviegraph.engine.expr.TestValues.s;
import static dev.moviegraph.engine.expr.TestValues.ss;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class UpdateExpressionTest {
    private static Map<String, Value> apply(String text, Map<String, Value> item, Object... placeholders) {
        return Expressions.update(text, placeholders(placeholders)).apply(item);
    }

    private static String refused(String text, Object... placeholders) {
        return refusal(() -> Expressions.update(text, placeholders(placeholders)));
    }

    private static String failsOn(Map<String, Value> item, String text, Object... placeholders) {
        Update update = Expressions.update(text, placeholders(placeholders));
        return refusal(() -> update.apply(item));
    }

    @Test
    void setWritesTopLevelAndNestedAttributesAndLeavesTheInputAlone() {
        Map<String, Value> before = item("pk", s("k"), "doc", m("a", n("1")));
        Map<String, Value> after = apply("SET title = :t, doc.b = :b, doc.a = :b", before,
                ":t", s("Heat"), ":b", n("2"));
        assertEquals(item("pk", s("k"), "doc", m("a", n("2"), "b", n("2")), "title", s("Heat")), after);
        assertEquals(item("pk", s("k"), "doc", m("a", n("1"))), before);
        assertInstanceOf(LinkedHashMap.class, after);
    }

    @Test
    void setEvaluatesEveryOperandAgainstTheItemBeforeTheUpdate() {
        Map<String, Value> after = apply("SET a = b, b = a", item("a", n("1"), "b", n("2")));
        assertEquals(item("a", n("2"), "b", n("1")), after);
    }

    @Test
    void setAddsAndSubtractsNumbers() {
        Map<String, Value> item = item("price", n("52"), "stock", n("0.5"));
        assertEquals(n("37"), apply("SET price = price - :p", item, ":p", n("15")).get("price"));
        assertEquals(n("1"), apply("SET stock = stock + stock", item).get("stock"));
        assertEquals(n("-1"), apply("SET v = :a - :b", item, ":a", n("1"), ":b", n("2")).get("v"));
        assertEquals(n("53"), apply("SET price = (price + :one)", item, ":one", n("1")).get("price"));
    }

    @Test
    void arithmeticKeepsThirtyEightDigitsAndRefusesMore() {
        String big = "9".repeat(38);
        assertEquals(n("1" + "0".repeat(38)), apply("SET v = :a + :b", item(), ":a", n(big), ":b", n("1")).get("v"));
        assertEquals("Attempting to store more than 38 significant digits in a Number",
                failsOn(item(), "SET v = :a + :b", ":a", n(big), ":b", n("0.1")));
    }

    @Test
    void arithmeticOnAnythingButNumbersIsATypeError() {
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("s", s("x")), "SET v = s + :one", ":one", n("1")));
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator or function: +, operand type: S", refused("SET v = v + :s", ":s", s("x")));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"+\", near: \"c + d\"",
                refused("SET a = b + c + d"));
    }

    @Test
    void ifNotExistsKeepsAnExistingValue() {
        Map<String, Value> item = item("price", n("10"));
        assertEquals(n("10"), apply("SET price = if_not_exists(price, :p)", item, ":p", n("100")).get("price"));
        assertEquals(n("100"), apply("SET cost = if_not_exists(cost, :p)", item, ":p", n("100")).get("cost"));
        assertEquals(n("1"), apply("SET hits = if_not_exists(hits, :zero) + :one", item,
                ":zero", n("0"), ":one", n("1")).get("hits"));
        assertEquals("Invalid UpdateExpression: Operator or function requires a document path; "
                + "operator or function: if_not_exists", refused("SET a = if_not_exists(:p, :p)", ":p", n("1")));
    }

    @Test
    void listAppendJoinsTwoLists() {
        Map<String, Value> item = item("related", l(s("Hammer")));
        assertEquals(l(s("Hammer"), s("Nails")), apply("SET #i = list_append(#i, :v)", item,
                "#i", "related", ":v", l(s("Nails"))).get("related"));
        assertEquals(l(s("Chisel"), s("Hammer")), apply("SET related = list_append(:v, related)", item,
                ":v", l(s("Chisel"))).get("related"));
        assertEquals("The provided expression refers to an attribute that does not exist in the item",
                failsOn(item, "SET x = list_append(absent, :v)", ":v", l()));
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("ns", ns("1")), "SET x = list_append(ns, :v)", ":v", l()));
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator or function: list_append, operand type: S", refused("SET x = list_append(:v, x)", ":v", s("a")));
    }

    @Test
    void setPastTheEndOfAListAppendsInIndexOrder() {
        Map<String, Value> item = item("l", l(n("0"), n("1")));
        assertEquals(l(n("0"), s("x"), s("c"), s("a"), s("b")),
                apply("SET l[9] = :b, l[5] = :a, l[1] = :x, l[2] = :c", item,
                        ":a", s("a"), ":b", s("b"), ":c", s("c"), ":x", s("x")).get("l"));
    }

    @Test
    void setThroughAMissingOrWrongTypedParentIsRefused() {
        String invalid = "The document path provided in the update expression is invalid for update";
        Map<String, Value> item = item("s", s("x"), "doc", m("k", n("1")), "l", l(n("1")));
        assertEquals(invalid, failsOn(item, "SET absent.a = :v", ":v", n("1")));
        assertEquals(invalid, failsOn(item, "SET s.a = :v", ":v", n("1")));
        assertEquals(invalid, failsOn(item, "SET doc[0] = :v", ":v", n("1")));
        assertEquals(invalid, failsOn(item, "SET l.k = :v", ":v", n("1")));
        assertEquals(invalid, failsOn(item, "SET l[3].k = :v", ":v", n("1")));
        assertEquals(invalid, failsOn(item(), "SET doc.k = :v", ":v", n("1")));
    }

    @Test
    void readingAMissingAttributeIsRefused() {
        assertEquals("The provided expression refers to an attribute that does not exist in the item",
                failsOn(item("a", n("1")), "SET c = b"));
        assertEquals("The provided expression refers to an attribute that does not exist in the item",
                failsOn(item("a", n("1")), "SET c = if_not_exists(c, b)"));
    }

    @Test
    void removeDeletesAttributesAndShiftsListElements() {
        Map<String, Value> item = item("a", n("1"), "b", n("2"), "l", l(s("Chisel"), s("Hammer"), s("Nails"),
                s("Screwdriver")), "doc", m("x", n("1"), "y", n("2")));
        Map<String, Value> after = apply("REMOVE a, l[1], l[2], doc.x, absent, doc.absent, l[9]", item);
        assertEquals(item("b", n("2"), "l", l(s("Chisel"), s("Screwdriver")), "doc", m("y", n("2"))), after);
    }

    @Test
    void removeThroughAMissingParentIsRefused() {
        assertEquals("The document path provided in the update expression is invalid for update",
                failsOn(item(), "REMOVE absent.a"));
        assertEquals("The document path provided in the update expression is invalid for update",
                failsOn(item("doc", m("1", n("1"))), "REMOVE doc[1]"));
    }

    @Test
    void addSumsNumbersStartingFromZero() {
        assertEquals(n("5"), apply("ADD qty :q", item(), ":q", n("5")).get("qty"));
        assertEquals(n("7"), apply("ADD qty :q", item("qty", n("5")), ":q", n("2")).get("qty"));
        assertEquals(n("3"), apply("ADD qty :q", item("qty", n("5")), ":q", n("-2")).get("qty"));
        assertEquals(m("c", n("2")), apply("ADD doc.c :q", item("doc", m()), ":q", n("2")).get("doc"));
    }

    @Test
    void addJoinsSetsOfTheSameTypeOnly() {
        assertEquals(ss("Orange", "Purple"), apply("ADD color :c", item(), ":c", ss("Orange", "Purple")).get("color"));
        assertEquals(ss("a", "b", "c"), apply("ADD color :c", item("color", ss("a", "b")), ":c", ss("b", "c")).get("color"));
        assertEquals(ns("1", "2"), apply("ADD ids :c", item("ids", ns("1")), ":c", ns("2", "1.0")).get("ids"));
        assertEquals(bs("x", "y"), apply("ADD blobs :c", item("blobs", bs("x")), ":c", bs("y")).get("blobs"));
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("color", ss("a")), "ADD color :c", ":c", ns("1")));
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("qty", n("1")), "ADD qty :c", ":c", ss("a")));
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("doc", m()), "ADD doc :c", ":c", n("1")));
    }

    @Test
    void addAndDeleteTakeOnlyNumbersOrSets() {
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: ADD, operand type: STRING", refused("ADD a :v", ":v", s("x")));
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: ADD, operand type: LIST", refused("ADD a :v", ":v", l()));
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: DELETE, operand type: NUMBER", refused("DELETE a :v", ":v", n("1")));
        assertEquals("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: DELETE, operand type: BOOLEAN", refused("DELETE a :v", ":v", bool(true)));
    }

    @Test
    void deleteTakesMembersOutAndRemovesAnEmptiedSet() {
        assertEquals(ss("a", "c"), apply("DELETE color :c", item("color", ss("a", "b", "c")), ":c", ss("b", "x")).get("color"));
        assertEquals(item("pk", s("k")), apply("DELETE color :c", item("pk", s("k"), "color", ss("a")), ":c", ss("a")));
        assertEquals(item(), apply("DELETE color :c", item(), ":c", ss("a")));
        assertEquals("An operand in the update expression has an incorrect data type",
                failsOn(item("color", ss("a")), "DELETE color :c", ":c", ns("1")));
    }

    @Test
    void clausesComeInAnyOrderButEachOnce() {
        Map<String, Value> after = apply("REMOVE b DELETE c :c ADD d :d, e :e SET f = :f", item("b", n("1"), "c", ss("a", "b")),
                ":c", ss("a"), ":d", n("5"), ":e", ss("x"), ":f", l(s("a")));
        assertEquals(item("c", ss("b"), "d", n("5"), "e", ss("x"), "f", l(s("a"))), after);
        assertEquals("Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;",
                refused("SET a = :v REMOVE b set c = :v", ":v", n("1")));
        assertEquals("Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update expression;",
                refused("remove a remove b"));
    }

    @Test
    void overlappingOrConflictingPathsAreRefused() {
        assertEquals("Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite "
                + "one of these paths; path one: [a], path two: [a, b]", refused("SET a = :v REMOVE a.b", ":v", n("1")));
        assertEquals("Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite "
                + "one of these paths; path one: [c, [1], a], path two: [c]",
                refused("SET d[1] = :v, d.b = :v, c[1].a = :v, #c = :v", "#c", "c", ":v", n("1")));
        assertEquals("Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite "
                + "one of these paths; path one: [a, c], path two: [a, [1]]", refused("REMOVE a.c SET a[1] = :v", ":v", n("1")));
        assertEquals("Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite "
                + "one of these paths; path one: [a], path two: [a]", refused("SET a = :v ADD a :v", ":v", n("1")));
    }

    @Test
    void unknownFunctionsAndWrongArityAreRefused() {
        assertEquals("Invalid UpdateExpression: Invalid function name; function: size", refused("SET a = size(b)"));
        assertEquals("Invalid UpdateExpression: Incorrect number of operands for operator or function; "
                + "operator or function: if_not_exists, number of operands: 1", refused("SET a = if_not_exists(a)"));
    }

    @Test
    void updateSyntaxErrorsNameTheToken() {
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\"", refused("SET"));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"= \"", refused("SET a = "));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"b\", near: \"a b\"", refused("remove a b"));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"set\", near: \"=set\"", refused("set a=set"));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"whatever\", near: \"whatever\"", refused("whatever"));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \"\"\", near: \"= \"eight\"",
                refused("set a[1] = \"eight\""));
        assertEquals("Invalid UpdateExpression: Syntax error; token: \":a\", near: \"set :a =\"", refused("set :a = b"));
        assertEquals("Invalid UpdateExpression: The expression can not be empty;", refused(""));
    }

    @Test
    void topLevelNamesAreTheAttributesWritten() {
        Update update = Expressions.update("SET a.b = c, #d[0] = :v REMOVE e ADD f :v",
                placeholders("#d", "dee", ":v", n("1")));
        assertEquals(Set.of("a", "dee", "e", "f"), update.topLevelNames());
    }

    @Test
    void updatedPartKeepsOnlyTheTouchedPaths() {
        Map<String, Value> before = item("pk", s("k"), "b", m("a", n("1"), "b", n("2"), "c", n("3")),
                "c", l(n("1"), n("3")));
        Update update = Expressions.update("SET b.c = c[1] + b.a, b.a = pk, c[1] = pk, c[4] = b.a - b.b, c[2] = b.c "
                + "ADD c[8] :b, c[6] :a", placeholders(":a", n("2"), ":b", ss("a")));
        Map<String, Value> after = update.apply(before);
        assertEquals(item("pk", s("k"), "b", m("a", s("k"), "b", n("2"), "c", n("4")),
                "c", l(n("1"), s("k"), n("3"), n("-1"), n("2"), ss("a"))), after);
        assertEquals(item("b", m("c", n("4"), "a", s("k")), "c", l(s("k"), n("3"), n("2"))), update.updatedPart(after));
        assertEquals(item("b", m("c", n("3"), "a", n("1")), "c", l(n("3"))), update.updatedPart(before));
    }
}
