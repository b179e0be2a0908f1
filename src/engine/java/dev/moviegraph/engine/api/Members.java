package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * DynamoDB's checks of a request's members against its API model, before anything is looked up: every
 * member's constraint that fails is reported in one ValidationException, "N validation errors detected:
 * Value 'x' at 'member' failed to satisfy constraint: ...; ...", as DynamoDB's front end reports them
 * ({@link Violations}). The table name is checked first and alone ({@link TableNames}): DynamoDB stops at a bad
 * one without looking further.
 */
final class Members {
    static final List<String> CONSUMED_CAPACITY = List.of("INDEXES", "TOTAL", "NONE");
    static final List<String> COLLECTION_METRICS = List.of("SIZE", "NONE");
    static final List<String> RETURN_VALUES = List.of("ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW");
    static final List<String> SELECT = List.of("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
            "ALL_PROJECTED_ATTRIBUTES");
    static final List<String> ON_CONDITION_FAILURE = List.of("ALL_OLD", "NONE");

    private final JsonNode request;
    private final Violations violations = new Violations();

    private Members(JsonNode request) {
        this.request = request;
    }

    /**
     * Starts the checks of a request whose TableName names one table (item operations, Query, Scan): the name is
     * checked first, alone (1 to 255 characters: the item operations then answer ResourceNotFoundException for a
     * name shorter than CreateTable's 3).
     */
    static Members of(JsonNode request) {
        TableNames.check(Fields.text(request, "TableName"));
        return new Members(request);
    }

    /** Starts the checks of a request that names its tables elsewhere (batches, transactions). */
    static Members unnamed(JsonNode request) {
        return new Members(request);
    }

    /** A member that must be one of an enumeration, named as DynamoDB names it in its message. */
    Members oneOf(String member, String path, List<String> allowed) {
        JsonNode node = request.get(member);
        if (node != null && !node.isNull()) {
            String value = Fields.text(request, member);
            if (!allowed.contains(value)) {
                violations.enumeration(path, value, allowed.toString());
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
            violations.add("Value " + (shown ? "'" + value + "' " : "") + "at '" + path + "' failed to satisfy"
                    + " constraint: Member must have value greater than or equal to " + least);
        }
        return this;
    }

    /** Throws what was found, all of it in one ValidationException. */
    void check() {
        violations.check();
    }
}
