package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * DynamoDB's checks of a TableName member, with its messages: the pattern [a-zA-Z0-9_.-]+ and the length, both
 * reported when both fail ("2 validation errors detected: ..."). The item operations accept a name of 1 to 255
 * characters (a shorter one is simply not found); CreateTable and the other table operations want 3 to 255.
 */
public final class TableNames {
    /** The shortest name CreateTable accepts, and the table operations. */
    public static final int MIN_DECLARED = 3;
    public static final int MAX = 255;

    private TableNames() {
    }

    /** A table name in an item operation: not null, 1 to 255 characters of the pattern. */
    public static void check(String name) {
        check(name, 1);
    }

    /** A table name of at least {@code minLength} characters (at most 255), of the pattern; null is refused. */
    public static void check(String name, int minLength) {
        Violations violations = new Violations();
        if (name == null) {
            violations.notNull("tableName");
        } else {
            violations.addAll(violations(name, minLength));
        }
        violations.check();
    }

    /**
     * The TableName of a table operation (DescribeTable, DeleteTable, UpdateTable, the time to live ones): present,
     * else DynamoDB's "is required" message, and 3 to 255 characters of the pattern.
     */
    static String required(JsonNode request) {
        String name = Fields.text(request, "TableName");
        if (name == null) {
            throw ApiException.validation("The parameter 'TableName' is required but was not present in the request");
        }
        check(name, MIN_DECLARED);
        return name;
    }

    /** What is wrong with a (not null) name, pattern first, as DynamoDB lists it; empty when nothing is. */
    static List<String> violations(String name, int minLength) {
        List<String> found = new ArrayList<>(2);
        if (!name.isEmpty() && !matchesPattern(name)) {
            found.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: Member must satisfy regular"
                    + " expression pattern: [a-zA-Z0-9_.-]+");
        }
        if (name.length() < minLength) {
            found.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: Member must have length"
                    + " greater than or equal to " + minLength);
        } else if (name.length() > MAX) {
            found.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: Member must have length"
                    + " less than or equal to " + MAX);
        }
        return found;
    }

    /** Whether a name is one a table could have: 3 to 255 of a-z A-Z 0-9 _ . - */
    static boolean isValid(String name) {
        return name.length() >= MIN_DECLARED && name.length() <= MAX && matchesPattern(name);
    }

    private static boolean matchesPattern(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
                    || c == '-' || c == '.';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
