package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * The legacy and the expression members of one operation, each list in the fixed order DynamoDB names them in
 * its refusal to mix the two, and the expressions that take ExpressionAttributeValues.
 */
record ParameterSets(List<String> legacy, List<String> expressions, List<String> valueExpressions) {
    static final ParameterSets GET_ITEM = new ParameterSets(List.of("AttributesToGet"),
            List.of("ProjectionExpression"), List.of());
    static final ParameterSets PUT_OR_DELETE = new ParameterSets(List.of("Expected", "ConditionalOperator"),
            List.of("ConditionExpression"), List.of("ConditionExpression"));
    static final ParameterSets UPDATE_ITEM = new ParameterSets(
            List.of("AttributeUpdates", "Expected", "ConditionalOperator"),
            List.of("UpdateExpression", "ConditionExpression"), List.of("UpdateExpression", "ConditionExpression"));
    static final ParameterSets QUERY = new ParameterSets(
            List.of("AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"),
            List.of("ProjectionExpression", "FilterExpression", "KeyConditionExpression"),
            List.of("FilterExpression", "KeyConditionExpression"));
    static final ParameterSets SCAN = new ParameterSets(List.of("AttributesToGet", "ScanFilter", "ConditionalOperator"),
            List.of("ProjectionExpression", "FilterExpression"), List.of("FilterExpression"));

    boolean anyLegacy(JsonNode request) {
        return !present(request, legacy).isEmpty();
    }

    /**
     * DynamoDB's refusals, in its order: legacy and expression members together (KeyConditions counts only against
     * KeyConditionExpression: with a FilterExpression or ProjectionExpression it is accepted), then placeholders
     * given with no expression to use them.
     */
    void checkUsage(JsonNode request) {
        List<String> expressionsGiven = present(request, expressions);
        if (!expressionsGiven.isEmpty()) {
            List<String> legacyGiven = new ArrayList<>(present(request, legacy));
            if (!Json.present(request, "KeyConditionExpression")) {
                legacyGiven.remove("KeyConditions");
            }
            if (!legacyGiven.isEmpty()) {
                throw ApiException.validation("Can not use both expression and non-expression parameters in the same"
                        + " request: Non-expression parameters: {" + String.join(", ", legacyGiven) + "} Expression"
                        + " parameters: {" + String.join(", ", expressionsGiven) + "}");
            }
        }
        if (Json.present(request, "ExpressionAttributeNames") && expressionsGiven.isEmpty()) {
            throw ApiException.validation("ExpressionAttributeNames can only be specified when using expressions");
        }
        if (!valueExpressions.isEmpty() && Json.present(request, "ExpressionAttributeValues")
                && present(request, valueExpressions).isEmpty()) {
            throw ApiException.validation("ExpressionAttributeValues can only be specified when using expressions: "
                    + String.join(" and ", valueExpressions) + (valueExpressions.size() > 1 ? " are" : " is") + " null");
        }
    }

    /** ConditionalOperator joins two or more conditions of {@code conditionsMember}; DynamoDB refuses it otherwise. */
    static void checkConditionalOperator(JsonNode request, String conditionsMember) {
        if (!Json.present(request, "ConditionalOperator")) {
            return;
        }
        JsonNode conditions = request.get(conditionsMember);
        int count = conditions != null && conditions.isObject() ? conditions.size() : 0;
        if (count == 0) {
            throw ApiException.validation("ConditionalOperator cannot be used without Filter or Expected");
        }
        if (count == 1) {
            throw ApiException.validation("ConditionalOperator can only be used when Filter or Expected has two or more"
                    + " elements");
        }
    }

    private static List<String> present(JsonNode request, List<String> members) {
        List<String> given = new ArrayList<>();
        for (String member : members) {
            if (Json.present(request, member)) {
                given.add(member);
            }
        }
        return given;
    }
}
