package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The semantic errors found while parsing one expression. DynamoDB reads a whole expression before it judges
 * it, and when several things are wrong it reports them in a fixed order of kinds that differs between
 * expression languages (a reserved word before an undefined placeholder in updates, redundant parentheses
 * first in conditions...). So parsers note the first error of each kind and throw once the syntax is known
 * to be right, by the order their language ranks the kinds.
 */
final class Problems {
    enum Kind {
        PARENS, UNKNOWN_FUNCTION, MISUSED_FUNCTION, RESERVED, SECTION, UNDEFINED_NAME, UNDEFINED_VALUE,
        OVERLAP, CONFLICT, OPERAND_COUNT, DISTINCT, OPERAND_TYPE, FUNCTION
    }

    private final String expression;
    private final List<Kind> order;
    private final Map<Kind, String> first = new EnumMap<>(Kind.class);

    Problems(String expression, List<Kind> order) {
        this.expression = expression;
        this.order = List.copyOf(order);
    }

    void note(Kind kind, String message) {
        if (!order.contains(kind)) {
            throw new IllegalArgumentException(kind + " is not ranked for " + expression);
        }
        first.putIfAbsent(kind, message);
    }

    /** Throws the error DynamoDB would report, if anything was noted. */
    void throwFirst() {
        for (Kind kind : order) {
            String message = first.get(kind);
            if (message != null) {
                throw ApiException.validation("Invalid " + expression + ": " + message);
            }
        }
    }
}
