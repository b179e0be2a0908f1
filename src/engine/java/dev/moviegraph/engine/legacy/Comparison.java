package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One validated legacy condition on one top-level attribute, and the condition expression that means the same.
 * Legacy and expression semantics agree (a missing attribute or a value of another type makes a comparison false,
 * NE true) except NOT_CONTAINS, which DynamoDB evaluates false on a missing attribute where NOT contains(...) is
 * true, so it is written with attribute_exists.
 */
record Comparison(String attribute, ComparisonOperator operator, List<JsonNode> values) {
    Comparison {
        values = List.copyOf(values);
    }

    /** Whether the expression is itself an AND, to be parenthesized when joined by OR. */
    boolean compound() {
        return operator == ComparisonOperator.NOT_CONTAINS;
    }

    String expression(GeneratedPlaceholders placeholders) {
        String name = placeholders.name(attribute);
        List<String> refs = new ArrayList<>();
        for (JsonNode value : values) {
            refs.add(placeholders.value(value));
        }
        return switch (operator) {
            case EQ -> name + " = " + refs.get(0);
            case NE -> name + " <> " + refs.get(0);
            case LE -> name + " <= " + refs.get(0);
            case LT -> name + " < " + refs.get(0);
            case GE -> name + " >= " + refs.get(0);
            case GT -> name + " > " + refs.get(0);
            case NOT_NULL -> "attribute_exists(" + name + ")";
            case NULL -> "attribute_not_exists(" + name + ")";
            case CONTAINS -> "contains(" + name + ", " + refs.get(0) + ")";
            case NOT_CONTAINS -> "attribute_exists(" + name + ") AND NOT contains(" + name + ", " + refs.get(0) + ")";
            case BEGINS_WITH -> "begins_with(" + name + ", " + refs.get(0) + ")";
            case IN -> name + " IN (" + String.join(", ", refs) + ")";
            case BETWEEN -> name + " BETWEEN " + refs.get(0) + " AND " + refs.get(1);
        };
    }

    /**
     * The conditions joined by ConditionalOperator ("AND" when null) as one expression, or null when there are
     * none.
     */
    static String join(List<Comparison> comparisons, String conditionalOperator, GeneratedPlaceholders placeholders) {
        if (comparisons.isEmpty()) {
            return null;
        }
        boolean or = "OR".equals(conditionalOperator);
        List<String> parts = new ArrayList<>();
        for (Comparison comparison : comparisons) {
            String part = comparison.expression(placeholders);
            parts.add(or && comparison.compound() && comparisons.size() > 1 ? "(" + part + ")" : part);
        }
        return String.join(or ? " OR " : " AND ", parts);
    }
}
