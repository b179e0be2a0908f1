package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * The member constraints of the legacy parameters (enum values, required members, list lengths), checked before
 * anything else as DynamoDB checks its model's constraints: every violation is collected, then all are reported
 * in one "N validation error(s) detected: ..." message.
 */
final class MemberConstraints {
    static final List<String> COMPARISON_OPERATORS = List.of("IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT",
            "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS");
    static final List<String> CONDITIONAL_OPERATORS = List.of("OR", "AND");
    static final List<String> ACTIONS = List.of("ADD", "PUT", "DELETE");

    private final List<String> violations = new ArrayList<>();

    /** A text member that, when present, must be one of {@code allowed}. */
    void oneOf(String path, JsonNode value, List<String> allowed) {
        if (value == null || value.isNull()) {
            return;
        }
        String text = Json.text(value);
        if (!allowed.contains(text)) {
            violations.add("Value '" + text + "' at '" + path + "' failed to satisfy constraint: Member must satisfy"
                    + " enum value set: [" + String.join(", ", allowed) + "]");
        }
    }

    /** A text member that must be present and one of {@code allowed}. */
    void requiredOneOf(String path, JsonNode value, List<String> allowed) {
        if (value == null || value.isNull()) {
            violations.add("Value null at '" + path + "' failed to satisfy constraint: Member must not be null");
            return;
        }
        oneOf(path, value, allowed);
    }

    /** A list member that, when present, must hold at least one element. */
    void notEmptyList(String path, JsonNode list) {
        if (list != null && list.isArray() && list.isEmpty()) {
            violations.add("Value '[]' at '" + path + "' failed to satisfy constraint: Member must have length greater"
                    + " than or equal to 1");
        }
    }

    void throwIfAny() {
        if (!violations.isEmpty()) {
            throw ApiException.validation(violations.size() + " validation error" + (violations.size() > 1 ? "s" : "")
                    + " detected: " + String.join("; ", violations));
        }
    }
}
