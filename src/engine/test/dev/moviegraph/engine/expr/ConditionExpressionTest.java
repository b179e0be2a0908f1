package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static dev.moviegraph.engine.expr.TestValues.b;
import static dev.moviegraph.engine.expr.TestValues.bool;
import static dev.moviegraph.engine.expr.TestValues.bs;
import static dev.moviegraph.engine.expr.TestValues.item;
import static dev.moviegraph.engine.expr.TestValues.l;
import static dev.moviegraph.engine.expr.TestValues.m;
import static dev.moviegraph.engine.expr.TestValues.n;
import static dev.moviegraph.engine.expr.TestValues.ns;
import static dev.moviegraph.engine.expr.TestValues.nul;
import static dev.moviegraph.engine.expr.TestValues.placeholders;
import static dev.moviegraph.engine.expr.TestValues.refusal;
import static dev.moviegraph.engine.expr.TestValues.s;
import static dev.moviegraph.engine.expr.TestValues.ss;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConditionExpressionTest {
    private static final Map<String, Value> ITEM = item(
            "pk", s("p1"),
            "n", n("5"),
            "s", s("hello world"),
            "bin", b("abcdef"),
            "flag", bool(true),
            "nul", nul(),
            "tags", ss("red", "blue"),
            "nums", ns("1", "2", "3"),
            "blobs", bs("x", "yz"),
            "lst", l(s("a"), n("2"), m("k", s("v"))),
            "doc", m("child", m("deep", n("7")), "arr", l(n("10"), n("20"))));

    private static boolean test(String text, Object... placeholders) {
        return Expressions.condition(text, placeholders(placeholders)).test(ITEM);
    }

    private static String refused(String text, Object... placeholders) {
        return refusal(() -> Expressions.condition(text, placeholders(placeholders)));
    }

    @Test
    void comparesNumbersNumericallyAndStringsByUtf8Order() {
        assertTrue(test("n = :v", ":v", n("5.0")));
        assertTrue(test("n < :v", ":v", n("10")));
        assertTrue(test("n <= :v AND n >= :v", ":v", n("5")));
        assertTrue(test("s > :v", ":v", s("hello"))); // a longer string with the same prefix sorts after
        assertTrue(test("bin < :v", ":v", b("abd")));
        assertFalse(test("n <> :v", ":v", n("5")));
    }

    @Test
    void comparingDifferentTypesOrAMissingAttributeIsFalseButNotEqualIsTrue() {
        assertFalse(test("n = :v", ":v", s("5")));
        assertFalse(test("n < :v", ":v", s("9")));
        assertFalse(test("absent = :v", ":v", s("x")));
        assertFalse(test("absent < :v", ":v", n("1")));
        assertTrue(test("absent <> :v", ":v", s("x")));
        assertTrue(test("n <> :v", ":v", s("5")));
        // Ordering is defined for S, N and B only.
        assertFalse(test("flag >= :v", ":v", bool(true)));
    }

    @Test
    void comparesDocumentsAndSetsByContent() {
        assertTrue(test("tags = :v", ":v", ss("blue", "red")));
        assertTrue(test("doc.child = :v", ":v", m("deep", n("7.00"))));
        assertTrue(test("lst[2].k = :v", ":v", s("v")));
        assertTrue(test("doc.arr[1] = :v", ":v", n("20")));
        assertFalse(test("doc.arr[2] = :v", ":v", n("20")));
    }

    @Test
    void comparesTwoValuesAndTwoPathsDirectly() {
        assertTrue(test(":a = :b", ":a", s("x"), ":b", s("x")));
        assertFalse(test(":a < :b", ":a", n("2"), ":b", n("1")));
        assertTrue(test("n < doc.child.deep"));
    }

    @Test
    void betweenIsInclusiveAndFalseAcrossTypes() {
        assertTrue(test("n BETWEEN :lo AND :hi", ":lo", n("5"), ":hi", n("6")));
        assertTrue(test("n between :lo and :hi", ":lo", n("1"), ":hi", n("5")));
        assertFalse(test("n BETWEEN :lo AND :hi", ":lo", n("6"), ":hi", n("9")));
        assertFalse(test("s BETWEEN :lo AND :hi", ":lo", n("1"), ":hi", n("9")));
        assertFalse(test("absent BETWEEN :lo AND :hi", ":lo", n("1"), ":hi", n("9")));
    }

    @Test
    void inMatchesAnyListedValue() {
        assertTrue(test("n IN (:a, :b)", ":a", n("4"), ":b", n("5")));
        assertFalse(test("n IN (:a)", ":a", n("4")));
        assertTrue(test("s IN (pk, :v)", ":v", s("hello world")));
        assertFalse(test("absent IN (:v)", ":v", s("x")));
    }

    @Test
    void inTakesAtMostOneHundredOperands() {
        StringBuilder list = new StringBuilder();
        Object[] values = new Object[202];
        for (int i = 0; i < 101; i++) {
            list.append(i == 0 ? "" : ", ").append(":v").append(i);
            values[2 * i] = ":v" + i;
            values[2 * i + 1] = n(String.valueOf(i));
        }
        assertEquals("Invalid ConditionExpression: The IN operator is provided with too many operands; "
                + "number of operands: 101", refused("n IN (" + list + ")", values));
        String hundred = list.substring(0, list.lastIndexOf(", "));
        assertTrue(test("n IN (" + hundred + ")", values));
    }

    @Test
    void andBindsTighterThanOrAndNotTighterThanAnd() {
        // true OR (true AND false) is true; (true OR true) AND false is false.
        assertTrue(test("n = :five OR n = :five AND n = :six", ":five", n("5"), ":six", n("6")));
        assertFalse(test("(n = :five OR n = :five) AND n = :six", ":five", n("5"), ":six", n("6")));
        // (NOT false) AND false is false; NOT (false AND false) would be true.
        assertFalse(test("NOT n = :six AND n = :six", ":six", n("6")));
        assertTrue(test("NOT (n = :six AND n = :six)", ":six", n("6")));
        assertTrue(test("NOT NOT n = :five", ":five", n("5")));
        assertTrue(test("not n = :six or n = :six", ":six", n("6")));
    }

    @Test
    void parenthesesMayWrapOperands() {
        assertTrue(test("(n) = :five", ":five", n("5")));
        assertTrue(test("(size(s)) > :v AND (n) BETWEEN (:v) AND :w", ":v", n("5"), ":w", n("11")));
    }

    @Test
    void redundantParenthesesAreRefused() {
        assertEquals("Invalid ConditionExpression: The expression has redundant parentheses;",
                refused("(n = :v) AND ((attribute_exists(s) OR n = :v))", ":v", n("1")));
        assertEquals("Invalid ConditionExpression: The expression has redundant parentheses;",
                refused("((n)) = :v", ":v", n("1")));
    }

    @Test
    void keywordsAreCaseInsensitiveButFunctionNamesAreNot() {
        assertTrue(test("n = :v aNd NoT s = :v oR n = :v", ":v", n("5")));
        assertEquals("Invalid ConditionExpression: Invalid function name; function: Attribute_Exists",
                refused("Attribute_Exists(n)"));
    }

    @Test
    void attributeExistsAndNotExistsFollowNestedPaths() {
        assertTrue(test("attribute_exists(doc.child.deep)"));
        assertTrue(test("attribute_exists(lst[2])"));
        assertTrue(test("attribute_not_exists(lst[3])"));
        assertTrue(test("attribute_not_exists(n.x)")); // through a number: nothing there
        assertTrue(test("attribute_exists(#m.#i)", "#m", "doc", "#i", "child"));
        assertTrue(Expressions.condition("attribute_not_exists(pk)", placeholders()).test(Map.of()));
    }

    @Test
    void attributeExistsNeedsADocumentPath() {
        assertEquals("Invalid ConditionExpression: Operator or function requires a document path; "
                + "operator or function: attribute_exists", refused("attribute_exists(:v)", ":v", s("x")));
    }

    @Test
    void attributeTypeKnowsEveryTypeName() {
        Object[][] cases = {{"s", "S"}, {"n", "N"}, {"bin", "B"}, {"flag", "BOOL"}, {"nul", "NULL"}, {"lst", "L"},
                {"doc", "M"}, {"tags", "SS"}, {"nums", "NS"}, {"blobs", "BS"}};
        for (Object[] c : cases) {
            assertTrue(test("attribute_type(" + c[0] + ", :t)", ":t", s((String) c[1])), (String) c[0]);
            assertFalse(test("attribute_type(" + c[0] + ", :t)", ":t", s("SS".equals(c[1]) ? "S" : "SS")));
        }
        assertFalse(test("attribute_type(absent, :t)", ":t", s("S")));
    }

    @Test
    void attributeTypeRefusesAnUnknownTypeOrANonStringOperand() {
        assertEquals("Invalid ConditionExpression: Invalid attribute type name found; type: STRING, "
                + "valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}", refused("attribute_type(s, :t)", ":t", s("STRING")));
        assertEquals("Invalid ConditionExpression: Incorrect operand type for operator or function; "
                + "operator or function: attribute_type, operand type: N", refused("attribute_type(s, :t)", ":t", n("1")));
    }

    @Test
    void beginsWithWorksOnStringsAndBinaries() {
        assertTrue(test("begins_with(s, :p)", ":p", s("hell")));
        assertFalse(test("begins_with(s, :p)", ":p", s("world")));
        assertTrue(test("begins_with(bin, :p)", ":p", b("abc")));
        assertFalse(test("begins_with(n, :p)", ":p", s("5")));
        assertFalse(test("begins_with(absent, :p)", ":p", s("x")));
        assertEquals("Invalid ConditionExpression: Incorrect operand type for operator or function; "
                + "operator or function: begins_with, operand type: N", refused("begins_with(s, :p)", ":p", n("1")));
    }

    @Test
    void containsFindsSubstringsMembersElementsAndBytes() {
        assertTrue(test("contains(s, :v)", ":v", s("lo wo")));
        assertTrue(test("contains(tags, :v)", ":v", s("red")));
        assertFalse(test("contains(tags, :v)", ":v", s("re")));
        assertTrue(test("contains(nums, :v)", ":v", n("2.0")));
        assertTrue(test("contains(blobs, :v)", ":v", b("yz")));
        assertTrue(test("contains(lst, :v)", ":v", n("2")));
        assertTrue(test("contains(lst, :v)", ":v", m("k", s("v"))));
        assertTrue(test("contains(bin, :v)", ":v", b("cde")));
        assertFalse(test("contains(n, :v)", ":v", n("5")));
        assertFalse(test("contains(tags, :v)", ":v", n("1")));
    }

    @Test
    void sizeCountsCharactersBytesMembersAndElements() {
        assertTrue(test("size(s) = :v", ":v", n("11")));
        assertTrue(test("size(bin) = :v", ":v", n("6")));
        assertTrue(test("size(tags) = :v", ":v", n("2")));
        assertTrue(test("size(nums) = :v", ":v", n("3")));
        assertTrue(test("size(lst) = :v", ":v", n("3")));
        assertTrue(test("size(doc) = :v", ":v", n("2")));
        assertTrue(test("size(doc.arr) < size(lst)"));
        Map<String, Value> emoji = item("e", s("\uD83D\uDE00x"));
        assertTrue(Expressions.condition("size(e) = :v", placeholders(":v", n("2"))).test(emoji));
    }

    @Test
    void sizeOfATypeWithoutSizeMakesComparisonsFalse() {
        assertFalse(test("size(n) = :v", ":v", n("1")));
        assertFalse(test("size(flag) >= :v", ":v", n("0")));
        assertFalse(test("size(absent) >= :v", ":v", n("0")));
        assertEquals("Invalid ConditionExpression: Incorrect operand type for operator or function; "
                + "operator or function: size, operand type: N", refused("size(:v) = :v", ":v", n("1")));
    }

    @Test
    void functionsAreRefusedWhereTheyDoNotFit() {
        assertEquals("Invalid ConditionExpression: The function is not allowed to be used this way in an expression; "
                + "function: size", refused("size(s)"));
        assertEquals("Invalid ConditionExpression: The function is not allowed to be used this way in an expression; "
                + "function: attribute_exists", refused("attribute_exists(s) = :v", ":v", bool(true)));
        assertEquals("Invalid ConditionExpression: Invalid function name; function: if_not_exists",
                refused("if_not_exists(s, :v) = :v", ":v", s("x")));
        assertEquals("Invalid ConditionExpression: Incorrect number of operands for operator or function; "
                + "operator or function: contains, number of operands: 1", refused("contains(s)"));
    }

    @Test
    void anOperandCannotBeComparedWithItself() {
        assertEquals("Invalid ConditionExpression: The first operand must be distinct from the remaining operands "
                + "for this operator or function; operator: =, first operand: [doc, arr, [1]]", refused("doc.arr[1] = doc.arr[1]"));
        assertEquals("Invalid ConditionExpression: The first operand must be distinct from the remaining operands "
                + "for this operator or function; operator: contains, first operand: [s]", refused("contains(s, s)"));
        assertEquals("Invalid ConditionExpression: The first operand must be distinct from the remaining operands "
                + "for this operator or function; operator: IN, first operand: [n]", refused("n IN (:v, n)", ":v", n("1")));
    }

    @Test
    void betweenBoundsGivenAsValuesMustBeOrderedAndOfOneType() {
        assertEquals("Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper "
                        + "bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}",
                refused("n BETWEEN :lo AND :hi", ":lo", n("1"), ":hi", s("a")));
        assertEquals("Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
                        + "equal to lower bound; lower bound operand: AttributeValue: {N:9}, upper bound operand: "
                        + "AttributeValue: {N:1}",
                refused("n BETWEEN :lo AND :hi", ":lo", n("9"), ":hi", n("1")));
    }

    @Test
    void topLevelNamesListEveryAttributeRead() {
        Condition condition = Expressions.condition("#a.b = :v AND size(c[0]) > :v OR attribute_exists(d)",
                placeholders("#a", "alpha", ":v", n("1")));
        assertEquals(Set.of("alpha", "c", "d"), condition.topLevelNames());
    }

    @Test
    void filterExpressionErrorsNameTheirParameter() {
        assertEquals("Invalid FilterExpression: The expression can not be empty;",
                refusal(() -> Expressions.filter("", placeholders())));
        assertTrue(Expressions.filter("n = :v", placeholders(":v", n("5"))).test(ITEM));
    }

    @Test
    void anEmptyOrBlankConditionIsRefused() {
        assertEquals("Invalid ConditionExpression: The expression can not be empty;", refused(""));
        assertEquals("Invalid ConditionExpression: The expression can not be empty;", refused("   "));
    }
}
