package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ExpressionTest {
    private static final AttributeValue ONE = AttributeValue.fromN("1");
    private static final AttributeValue TWO = AttributeValue.fromN("2");

    @Test
    void everyNameAndValueGoesThroughAPlaceholderSharedByUpdateAndCondition() {
        Expression expression = Expression.of(ItemUpdate.create().set("title", AttributeValue.fromS("Heat"))
                        .add("streams", ONE),
                Condition.exists("pk").and(Condition.compare("streams", "<", TWO)));

        assertEquals("SET #n0 = :v0 ADD #n1 :v1", expression.update());
        assertEquals("attribute_exists(#n2) AND #n1 < :v2", expression.condition());
        assertEquals(Map.of("#n0", "title", "#n1", "streams", "#n2", "pk"), expression.names());
        assertEquals(Map.of(":v0", AttributeValue.fromS("Heat"), ":v1", ONE, ":v2", TWO), expression.values());
    }

    @Test
    void anOrInsideAnAndKeepsItsParentheses() {
        Condition copyIsOlder = Condition.exists("pk")
                .and(Condition.notExists("copied").or(Condition.compare("copied", "<", TWO)));

        assertEquals("attribute_exists(#n0) AND (attribute_not_exists(#n1) OR #n1 < :v0)",
                Expression.of(copyIsOlder).condition());
        assertEquals("attribute_not_exists(#n0) OR #n0 = :v0 AND #n1 = :v1", Expression.of(
                Condition.notExists("a").or(Condition.equal("a", ONE).and(Condition.equal("b", TWO)))).condition());
    }

    @Test
    void clausesAreGroupedWhateverTheOrderOfTheirActions() {
        Expression expression = Expression.of(ItemUpdate.create().set("a", ONE).remove("old").setIfAbsent("key", TWO)
                .setSum("rank", "streams", AttributeValue.fromN("0"), ONE), null);

        assertEquals("SET #n0 = :v0, #n2 = if_not_exists(#n2, :v1), #n3 = if_not_exists(#n4, :v2) + :v3 REMOVE #n1",
                expression.update());
        assertNull(expression.condition());
    }

    @Test
    void aConditionWithoutValuesLeavesTheValuesUnset() {
        Expression expression = Expression.of(Condition.notExists("pk"));

        assertEquals("attribute_not_exists(#n0)", expression.condition());
        assertNull(expression.values());
        assertNull(expression.update());
    }

    @Test
    void onlyComparisonsAreComparisons() {
        assertThrows(IllegalArgumentException.class, () -> Condition.compare("a", "= 1 OR", ONE));
    }
}
