package dev.moviegraph.engine.legacy;

import java.util.Set;

/**
 * The legacy ComparisonOperator values, with DynamoDB's rules for each: how many values its AttributeValueList
 * takes, which value types it accepts (anything else is a ValidationException, not a false condition), and
 * whether a Query may use it on a key (KeyConditions).
 */
enum ComparisonOperator {
    EQ(1, 1, Types.ANY, true),
    NE(1, 1, Types.ANY, false),
    LE(1, 1, Types.SCALAR, true),
    LT(1, 1, Types.SCALAR, true),
    GE(1, 1, Types.SCALAR, true),
    GT(1, 1, Types.SCALAR, true),
    NOT_NULL(0, 0, Types.ANY, false),
    NULL(0, 0, Types.ANY, false),
    CONTAINS(1, 1, Types.ELEMENT, false),
    NOT_CONTAINS(1, 1, Types.ELEMENT, false),
    BEGINS_WITH(1, 1, Set.of("S", "B"), true),
    IN(1, Integer.MAX_VALUE, Types.SCALAR, false),
    BETWEEN(2, 2, Types.SCALAR, true);

    private final int fewest;
    private final int most;
    private final Set<String> types;
    private final boolean indexable;

    ComparisonOperator(int fewest, int most, Set<String> types, boolean indexable) {
        this.fewest = fewest;
        this.most = most;
        this.types = types;
        this.indexable = indexable;
    }

    boolean takes(int count) {
        return count >= fewest && count <= most;
    }

    boolean accepts(String type) {
        return types.contains(type);
    }

    /** Whether a Query can use it in KeyConditions. */
    boolean indexable() {
        return indexable;
    }

    /** Value type sets; a nested class because enum constants cannot refer to the enum's own static fields. */
    private static final class Types {
        static final Set<String> ANY = Set.of("S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M");
        /** What orders: strings, numbers, binaries. */
        static final Set<String> SCALAR = Set.of("S", "N", "B");
        /** What can be a substring or a member: CONTAINS refuses sets, lists and maps as its operand. */
        static final Set<String> ELEMENT = Set.of("S", "N", "B", "BOOL", "NULL");
    }
}
