package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * DynamoDB's checks of a request's members against its API model, before anything is looked up: every
 * member's constraint that fails is reported in one ValidationException, "N validation errors detected:
 * Value 'x' at 'member' failed to satisfy constraint: ...; ...", as DynamoDB's front end reports them. The
 * table name is checked first and alone: DynamoDB stops at a bad one without looking further.
 */
final class Members {
    static final List<String> CONSUMED_CAPACITY = List.of("INDEXES", "TOTAL", "NONE");
    static final List<String> COLLECTION_METRICS = List.of("SIZE", "NONE");
    static final List<String> RETURN_VALUES = List.of("ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW");
    static final List<String> SELECT = List.of("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
            "ALL_PROJECTED_ATTRIBUTES");
    static final List<String> CONDITIONAL_OPERATOR = List.of("AND", "OR");
    static final List<String> ON_CONDITION_FAILURE = List.of("ALL_OLD", "NONE");

    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]+");
    private static final int MAX_TABLE_NAME = 255;

    private final JsonNode request;
    private final List<String> problems = new ArrayList<>();

    private Members(JsonNode request) {
        this.request = request;
    }

    /** Starts the checks of a request whose TableName names one table (item operations, Query, Scan). */
    static Members of(JsonNode request) {
        JsonNode name = request.get("TableName");
        tableName(name == null || name.isNull() ? null : Fields.text(request, "TableName"), "tableName");
        return new Members(request);
    }

    /** Starts the checks of a request that names its tables elsewhere (batches, transactions). */
    static Members unnamed(JsonNode request) {
        return new Members(request);
    }

    /**
     * A table name as the item operations take it: present, 1 to 255 characters of [a-zA-Z0-9_.-]. (CreateTable
     * asks 3 at least; the item operations say 1, and then answer ResourceNotFoundException for a name of 2.)
     */
    static void tableName(String name, String path) {
        String problem = tableNameProblem(name, path);
        if (problem != null) {
            throw ApiException.validation("1 validation error detected: " + problem);
        }
    }

    static String tableNameProblem(String name, String path) {
        if (name == null) {
            return "Value null at '" + path + "' failed to satisfy constraint: Member must not be null";
        }
        if (name.isEmpty()) {
            return "Value '' at '" + path + "' failed to satisfy constraint: Member must have length greater than or"
                    + " equal to 1";
        }
        if (name.length() > MAX_TABLE_NAME) {
            return "Value '" + name + "' at '" + path + "' failed to satisfy constraint: Member must have length less"
                    + " than or equal to " + MAX_TABLE_NAME;
        }
        if (!TABLE_NAME.matcher(name).matches()) {
            return "Value '" + name + "' at '" + path + "' failed to satisfy constraint: Member must satisfy regular"
                    + " expression pattern: " + TABLE_NAME.pattern();
        }
        return null;
    }

    /** A member that must be one of an enumeration, named as DynamoDB names it in its message. */
    Members oneOf(String member, String path, List<String> allowed) {
        JsonNode node = request.get(member);
        if (node != null && !node.isNull()) {
            String value = Fields.text(request, member);
            if (!allowed.contains(value)) {
                problems.add("Value '" + value + "' at '" + path + "' failed to satisfy constraint: Member must"
                        + " satisfy enum value set: " + allowed);
            }
        }
        return this;
    }

    /** ReturnConsumedCapacity, asked of every operation that reads or writes items. */
    Members consumedCapacity() {
        return oneOf("ReturnConsumedCapacity", "returnConsumedCapacity", CONSUMED_CAPACITY);
    }

    /** An integer member with a least value; {@code shown} is false where DynamoDB leaves the value out. */
    Members atLeast(String member, String path, int least, boolean shown) {
        Integer value = Fields.integer(request, member);
        if (value != null && value < least) {
            problems.add("Value " + (shown ? "'" + value + "' " : "") + "at '" + path + "' failed to satisfy"
                    + " constraint: Member must have value greater than or equal to " + least);
        }
        return this;
    }

    /** A problem found by a check of the operation's own, reported with the others. */
    Members problem(String text) {
        problems.add(text);
        return this;
    }

    /** Throws what was found, all of it in one ValidationException. */
    void check() {
        if (!problems.isEmpty()) {
            throw ApiException.validation(problems.size() + " validation error" + (problems.size() == 1 ? "" : "s")
                    + " detected: " + String.join("; ", problems));
        }
    }
}
