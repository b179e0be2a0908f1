package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.List;
import java.util.Map;

/**
 * DynamoDB's legacy (pre-expression) parameters: Expected with ConditionalOperator, AttributeUpdates,
 * AttributesToGet, KeyConditions, QueryFilter and ScanFilter. Each request that carries them is validated as
 * DynamoDB validates them (its messages, its order) and rewritten into the expression parameters the operations
 * read, with generated placeholders; the legacy members are removed from the request returned. A request without
 * legacy members is returned as it came, once checked for ExpressionAttributeNames or ExpressionAttributeValues
 * given with no expression to use them (DynamoDB's rule for every request of these operations).
 */
public final class LegacyParameters {
    private LegacyParameters() {
    }

    /**
     * The request with its legacy parameters rewritten as expressions, or the request itself when it has none.
     * {@code operation} is DynamoDB's operation name ("GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
     * "Scan", "BatchGetItem").
     */
    public static JsonNode translate(String operation, JsonNode request) {
        if (!(request instanceof ObjectNode object)) {
            return request;
        }
        return switch (operation) {
            case "GetItem" -> getItem(object);
            case "PutItem", "DeleteItem" -> putOrDelete(object);
            case "UpdateItem" -> updateItem(object);
            case "Query" -> query(object);
            case "Scan" -> scan(object);
            case "BatchGetItem" -> batchGetItem(object);
            default -> request;
        };
    }

    private static JsonNode getItem(ObjectNode request) {
        if (!ParameterSets.GET_ITEM.anyLegacy(request)) {
            ParameterSets.GET_ITEM.checkUsage(request);
            return request;
        }
        MemberConstraints constraints = new MemberConstraints();
        constraints.notEmptyList("attributesToGet", request.get("AttributesToGet"));
        constraints.throwIfAny();
        ParameterSets.GET_ITEM.checkUsage(request);
        ObjectNode rewritten = request.deepCopy();
        project(rewritten, LegacyProjection.names(rewritten.remove("AttributesToGet")));
        return rewritten;
    }

    private static JsonNode batchGetItem(ObjectNode request) {
        JsonNode tables = request.get("RequestItems");
        if (tables == null || !tables.isObject()) {
            return request;
        }
        ObjectNode rewritten = null;
        for (Map.Entry<String, JsonNode> entry : Json.object(tables).entrySet()) {
            JsonNode perTable = entry.getValue();
            if (!(perTable instanceof ObjectNode)) {
                continue;
            }
            if (!ParameterSets.GET_ITEM.anyLegacy(perTable)) {
                ParameterSets.GET_ITEM.checkUsage(perTable);
                continue;
            }
            MemberConstraints constraints = new MemberConstraints();
            constraints.notEmptyList("requestItems." + entry.getKey() + ".member.attributesToGet",
                    perTable.get("AttributesToGet"));
            constraints.throwIfAny();
            ParameterSets.GET_ITEM.checkUsage(perTable);
            if (rewritten == null) {
                rewritten = request.deepCopy();
            }
            ObjectNode table = (ObjectNode) rewritten.get("RequestItems").get(entry.getKey());
            project(table, LegacyProjection.names(table.remove("AttributesToGet")));
        }
        return rewritten == null ? request : rewritten;
    }

    private static JsonNode putOrDelete(ObjectNode request) {
        if (!ParameterSets.PUT_OR_DELETE.anyLegacy(request)) {
            ParameterSets.PUT_OR_DELETE.checkUsage(request);
            return request;
        }
        MemberConstraints constraints = new MemberConstraints();
        LegacyConditions.constrainExpected(constraints, request.get("Expected"));
        conditionalOperator(constraints, request);
        constraints.throwIfAny();
        ParameterSets.PUT_OR_DELETE.checkUsage(request);
        ParameterSets.checkConditionalOperator(request, "Expected");
        ObjectNode rewritten = request.deepCopy();
        GeneratedPlaceholders placeholders = new GeneratedPlaceholders(rewritten);
        List<Comparison> expected = LegacyConditions.expected(rewritten.remove("Expected"));
        put(rewritten, "ConditionExpression", Comparison.join(expected, operator(rewritten), placeholders));
        return rewritten;
    }

    private static JsonNode updateItem(ObjectNode request) {
        if (!ParameterSets.UPDATE_ITEM.anyLegacy(request)) {
            ParameterSets.UPDATE_ITEM.checkUsage(request);
            return request;
        }
        MemberConstraints constraints = new MemberConstraints();
        LegacyUpdates.constrain(constraints, request.get("AttributeUpdates"));
        LegacyConditions.constrainExpected(constraints, request.get("Expected"));
        conditionalOperator(constraints, request);
        constraints.throwIfAny();
        ParameterSets.UPDATE_ITEM.checkUsage(request);
        ParameterSets.checkConditionalOperator(request, "Expected");
        ObjectNode rewritten = request.deepCopy();
        GeneratedPlaceholders placeholders = new GeneratedPlaceholders(rewritten);
        put(rewritten, "UpdateExpression", LegacyUpdates.expression(rewritten.remove("AttributeUpdates"), placeholders));
        List<Comparison> expected = LegacyConditions.expected(rewritten.remove("Expected"));
        put(rewritten, "ConditionExpression", Comparison.join(expected, operator(rewritten), placeholders));
        return rewritten;
    }

    private static JsonNode query(ObjectNode request) {
        if (!ParameterSets.QUERY.anyLegacy(request)) {
            ParameterSets.QUERY.checkUsage(request);
            return request;
        }
        MemberConstraints constraints = new MemberConstraints();
        LegacyConditions.constrain(constraints, "keyConditions", request.get("KeyConditions"));
        LegacyConditions.constrain(constraints, "queryFilter", request.get("QueryFilter"));
        conditionalOperator(constraints, request);
        constraints.notEmptyList("attributesToGet", request.get("AttributesToGet"));
        constraints.throwIfAny();
        ParameterSets.QUERY.checkUsage(request);
        ParameterSets.checkConditionalOperator(request, "QueryFilter");
        ObjectNode rewritten = request.deepCopy();
        List<Comparison> filter = LegacyConditions.conditions(rewritten.remove("QueryFilter"));
        List<String> attributes = LegacyProjection.names(rewritten.remove("AttributesToGet"));
        if (attributes != null) {
            LegacyProjection.checkSelect(rewritten.get("Select"), true);
        }
        JsonNode keyConditions = rewritten.remove("KeyConditions");
        List<Comparison> keys = keyConditions == null || keyConditions.isNull() ? null
                : LegacyConditions.conditions(keyConditions);
        if (keys != null) {
            checkKeyConditions(keys);
        }
        GeneratedPlaceholders placeholders = new GeneratedPlaceholders(rewritten);
        if (keys != null) {
            put(rewritten, "KeyConditionExpression", Comparison.join(keys, "AND", placeholders));
        }
        put(rewritten, "FilterExpression", Comparison.join(filter, operator(rewritten), placeholders));
        project(rewritten, attributes, placeholders);
        return rewritten;
    }

    /** What DynamoDB checks of KeyConditions before it knows the table's key: their number, their operators. */
    private static void checkKeyConditions(List<Comparison> keys) {
        if (keys.isEmpty() || keys.size() > 2) {
            throw ApiException.validation("Conditions can be of length 1 or 2 only");
        }
        for (Comparison key : keys) {
            if (!key.operator().indexable()) {
                throw ApiException.validation("Attempted conditional constraint is not an indexable operation");
            }
        }
    }

    private static JsonNode scan(ObjectNode request) {
        if (!ParameterSets.SCAN.anyLegacy(request)) {
            ParameterSets.SCAN.checkUsage(request);
            return request;
        }
        MemberConstraints constraints = new MemberConstraints();
        LegacyConditions.constrain(constraints, "scanFilter", request.get("ScanFilter"));
        conditionalOperator(constraints, request);
        constraints.notEmptyList("attributesToGet", request.get("AttributesToGet"));
        constraints.throwIfAny();
        ParameterSets.SCAN.checkUsage(request);
        ParameterSets.checkConditionalOperator(request, "ScanFilter");
        ObjectNode rewritten = request.deepCopy();
        List<String> attributes = LegacyProjection.names(rewritten.remove("AttributesToGet"));
        if (attributes != null) {
            LegacyProjection.checkSelect(rewritten.get("Select"), false);
        }
        List<Comparison> filter = LegacyConditions.conditions(rewritten.remove("ScanFilter"));
        GeneratedPlaceholders placeholders = new GeneratedPlaceholders(rewritten);
        put(rewritten, "FilterExpression", Comparison.join(filter, operator(rewritten), placeholders));
        project(rewritten, attributes, placeholders);
        return rewritten;
    }

    private static void conditionalOperator(MemberConstraints constraints, JsonNode request) {
        constraints.oneOf("conditionalOperator", request.get("ConditionalOperator"), MemberConstraints.CONDITIONAL_OPERATORS);
    }

    /** Removes ConditionalOperator (validated before) and returns it, null when absent. */
    private static String operator(ObjectNode request) {
        JsonNode operator = request.remove("ConditionalOperator");
        return operator == null || operator.isNull() ? null : operator.textValue();
    }

    private static void project(ObjectNode request, List<String> attributes) {
        if (attributes != null) {
            project(request, attributes, new GeneratedPlaceholders(request));
        }
    }

    private static void project(ObjectNode request, List<String> attributes, GeneratedPlaceholders placeholders) {
        if (attributes != null) {
            request.put("ProjectionExpression", LegacyProjection.expression(attributes, placeholders));
        }
    }

    private static void put(ObjectNode request, String member, String expression) {
        if (expression != null) {
            request.put(member, expression);
        }
    }
}
