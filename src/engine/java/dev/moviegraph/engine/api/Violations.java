package dev.moviegraph.engine.api;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * The member constraints a request breaks, collected and reported at once as DynamoDB reports them:
 * "1 validation error detected: X" or "3 validation errors detected: X; Y; Z".
 */
final class Violations {
    private final List<String> found = new ArrayList<>(2);

    void add(String violation) {
        found.add(violation);
    }

    void addAll(List<String> violations) {
        found.addAll(violations);
    }

    void notNull(String field) {
        add("Value null at '" + field + "' failed to satisfy constraint: Member must not be null");
    }

    /** The member is a string of {@code min..max} characters (null is not checked here). */
    void length(String field, String value, int min, int max) {
        if (value == null) {
            return;
        }
        if (value.length() < min) {
            add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have length greater"
                    + " than or equal to " + min);
        } else if (value.length() > max) {
            add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have length less"
                    + " than or equal to " + max);
        }
    }

    void enumeration(String field, String value, String allowed) {
        add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must satisfy enum value set: "
                + allowed);
    }

    void atLeast(String field, long value, long min) {
        if (value < min) {
            add("Value '" + value + "' at '" + field + "' failed to satisfy constraint: Member must have value greater"
                    + " than or equal to " + min);
        }
    }

    /** Throws DynamoDB's ValidationException naming every violation, if there is any. */
    void check() {
        if (found.isEmpty()) {
            return;
        }
        String count = found.size() == 1 ? "1 validation error detected: "
                : found.size() + " validation errors detected: ";
        throw ApiException.validation(count + String.join("; ", found));
    }
}
