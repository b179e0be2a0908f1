package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Ordering;
import dev.moviegraph.engine.value.Wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates the legacy condition maps: ScanFilter, QueryFilter and KeyConditions (attribute to
 * ComparisonOperator with AttributeValueList) and Expected (the same, or the older Value / Exists form), with
 * DynamoDB's messages in DynamoDB's order.
 */
final class LegacyConditions {
    private static final String INVALID = "One or more parameter values were invalid: ";

    private LegacyConditions() {
    }

    /** The member constraints of a condition map: each ComparisonOperator present and one of the operators. */
    static void constrain(MemberConstraints constraints, String memberPath, JsonNode conditions) {
        Json.object(conditions).forEach((attribute, condition) -> {
            if (condition.isObject()) {
                constraints.requiredOneOf(memberPath + "." + attribute + ".member.comparisonOperator",
                        condition.get("ComparisonOperator"), MemberConstraints.COMPARISON_OPERATORS);
            }
        });
    }

    /** The member constraints of Expected, whose ComparisonOperator is optional. */
    static void constrainExpected(MemberConstraints constraints, JsonNode expected) {
        Json.object(expected).forEach((attribute, condition) -> {
            if (condition.isObject()) {
                constraints.oneOf("expected." + attribute + ".member.comparisonOperator",
                        condition.get("ComparisonOperator"), MemberConstraints.COMPARISON_OPERATORS);
            }
        });
    }

    /** A ScanFilter, QueryFilter or KeyConditions map, validated, in request order. */
    static List<Comparison> conditions(JsonNode conditions) {
        List<Comparison> comparisons = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : Json.object(conditions).entrySet()) {
            JsonNode condition = entry.getValue();
            if (!condition.isObject()) {
                throw Json.unexpected();
            }
            ComparisonOperator operator = ComparisonOperator.valueOf(Json.text(condition.get("ComparisonOperator")));
            comparisons.add(comparison(entry.getKey(), operator, Json.array(condition.get("AttributeValueList"))));
        }
        return comparisons;
    }

    /** An Expected map, validated, each entry as the comparison it means. */
    static List<Comparison> expected(JsonNode expected) {
        List<Comparison> comparisons = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : Json.object(expected).entrySet()) {
            JsonNode condition = entry.getValue();
            if (!condition.isObject()) {
                throw Json.unexpected();
            }
            comparisons.add(expectation(entry.getKey(), condition));
        }
        return comparisons;
    }

    private static Comparison expectation(String attribute, JsonNode condition) {
        boolean list = Json.present(condition, "AttributeValueList");
        boolean value = Json.present(condition, "Value");
        boolean exists = Json.present(condition, "Exists");
        String forAttribute = " for Attribute: " + attribute;
        if (list && value) {
            throw ApiException.validation(INVALID + "Value and AttributeValueList cannot be used together" + forAttribute);
        }
        if (Json.present(condition, "ComparisonOperator")) {
            if (exists) {
                throw ApiException.validation(INVALID + "Exists and ComparisonOperator cannot be used together"
                        + forAttribute);
            }
            ComparisonOperator operator = ComparisonOperator.valueOf(Json.text(condition.get("ComparisonOperator")));
            if (operator != ComparisonOperator.NULL && operator != ComparisonOperator.NOT_NULL && !list && !value) {
                throw ApiException.validation(INVALID + "Value or AttributeValueList must be used with ComparisonOperator: "
                        + operator + forAttribute);
            }
            List<JsonNode> values = list ? Json.array(condition.get("AttributeValueList")) : List.of(condition.get("Value"));
            return comparison(attribute, operator, values);
        }
        if (list) {
            throw ApiException.validation(INVALID + "AttributeValueList can only be used with a ComparisonOperator"
                    + forAttribute);
        }
        boolean mustExist = !exists || condition.get("Exists").asBoolean();
        if (mustExist && !value) {
            throw ApiException.validation(INVALID + "Value must be provided when Exists is " + (exists ? "true" : "null")
                    + forAttribute);
        }
        if (!mustExist && value) {
            throw ApiException.validation(INVALID + "Value cannot be used when Exists is false" + forAttribute);
        }
        if (!value) {
            return new Comparison(attribute, ComparisonOperator.NULL, List.of());
        }
        Wire.value(condition.get("Value"));
        return new Comparison(attribute, ComparisonOperator.EQ, List.of(condition.get("Value")));
    }

    /** DynamoDB's checks of one condition: valid values, their number, one type, a type the operator takes. */
    private static Comparison comparison(String attribute, ComparisonOperator operator, List<JsonNode> values) {
        for (JsonNode value : values) {
            Wire.value(value);
        }
        if (!operator.takes(values.size())) {
            throw ApiException.validation(INVALID + "Invalid number of argument(s) for the " + operator
                    + " ComparisonOperator");
        }
        if (!values.isEmpty()) {
            String type = type(values.get(0));
            for (JsonNode value : values) {
                if (!type(value).equals(type)) {
                    throw ApiException.validation(INVALID + "AttributeValues inside AttributeValueList must be of same type");
                }
            }
            if (!operator.accepts(type)) {
                throw ApiException.validation(INVALID + "ComparisonOperator " + operator + " is not valid for " + type
                        + " AttributeValue type");
            }
        }
        if (operator == ComparisonOperator.BETWEEN
                && Ordering.compareKeys(Wire.value(values.get(0)), Wire.value(values.get(1))) > 0) {
            throw ApiException.validation("The BETWEEN condition was provided a range where the lower bound is greater"
                    + " than the upper bound");
        }
        return new Comparison(attribute, operator, values);
    }

    /** The type name of a validated attribute value: its one member's name. */
    private static String type(JsonNode value) {
        return value.fieldNames().next();
    }
}
