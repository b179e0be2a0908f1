package dev.moviegraph.dynamo.model;

import java.util.Map;

/**
 * The expressions of one request, rendered together so their placeholders are shared and distinct: an
 * update and a condition (either may be absent), with the names and values they use. The SDK's request
 * builders take each part: {@code .updateExpression(e.update()).conditionExpression(e.condition())
 * .expressionAttributeNames(e.names()).expressionAttributeValues(e.values())}; an absent part is null,
 * which leaves it unset.
 */
public record Expression(String update, String condition, Map<String, String> names,
                         Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> values) {

    public static Expression of(ItemUpdate update, Condition condition) {
        Placeholders placeholders = new Placeholders();
        String updateText = update == null || update.isEmpty() ? null : update.render(placeholders);
        String conditionText = condition == null ? null : condition.render(placeholders);
        return new Expression(updateText, conditionText,
                placeholders.names.isEmpty() ? null : Map.copyOf(placeholders.names),
                placeholders.values.isEmpty() ? null : Map.copyOf(placeholders.values));
    }

    public static Expression of(Condition condition) {
        return of(null, condition);
    }
}
