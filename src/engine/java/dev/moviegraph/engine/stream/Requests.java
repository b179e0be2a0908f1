package dev.moviegraph.engine.stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * Reading a Streams request's members and checking them the way DynamoDB does: every broken constraint
 * is collected and reported at once ("2 validation errors detected: ...; ...").
 */
final class Requests {
    private final JsonNode request;
    private final List<String> violations = new ArrayList<>(2);

    Requests(JsonNode request) {
        this.request = request == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : request;
    }

    /** A string member, null when absent. */
    String text(String member) {
        JsonNode node = request.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.serialization("Unexpected value type in payload for " + member);
        }
        return node.textValue();
    }

    /** A string member that must be there, within lengths; {@code field} is its name in DynamoDB's messages. */
    String required(String member, String field, int minLength, int maxLength) {
        String value = text(member);
        if (value == null) {
            violations.add("Value null at '" + field + "' failed to satisfy constraint: Member must not be null");
            return null;
        }
        return length(value, field, minLength, maxLength);
    }

    String optional(String member, String field, int minLength, int maxLength) {
        String value = text(member);
        return value == null ? null : length(value, field, minLength, maxLength);
    }

    private String length(String value, String field, int minLength, int maxLength) {
        if (value.length() < minLength) {
            violations.add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have"
                    + " length greater than or equal to " + minLength);
            return null;
        }
        if (value.length() > maxLength) {
            violations.add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have"
                    + " length less than or equal to " + maxLength);
            return null;
        }
        return value;
    }

    /** An integer member within a range, or {@code absent} when it is not given. */
    int integer(String member, String field, int min, int max, int absent) {
        JsonNode node = request.get(member);
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw ApiException.serialization("Unexpected value type in payload for " + member);
        }
        int value = node.intValue();
        if (value < min) {
            violations.add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have"
                    + " value greater than or equal to " + min);
        } else if (value > max) {
            violations.add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have"
                    + " value less than or equal to " + max);
        }
        return value;
    }

    /** A member that must be one of {@code allowed}. */
    String oneOf(String member, String field, List<String> allowed) {
        String value = text(member);
        if (value == null) {
            violations.add("Value null at '" + field + "' failed to satisfy constraint: Member must not be null");
            return null;
        }
        if (!allowed.contains(value)) {
            violations.add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must satisfy"
                    + " enum value set: " + allowed);
            return null;
        }
        return value;
    }

    /** Throws what was collected, if anything. */
    void check() {
        if (violations.isEmpty()) {
            return;
        }
        String count = violations.size() == 1 ? "1 validation error detected: "
                : violations.size() + " validation errors detected: ";
        throw ApiException.validation(count + String.join("; ", violations));
    }
}
