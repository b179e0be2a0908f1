package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Ordering;
import dev.moviegraph.engine.value.Value;

/** The six comparators of conditions. */
enum Relation {
    EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

    private final String symbol;

    Relation(String symbol) {
        this.symbol = symbol;
    }

    String symbol() {
        return symbol;
    }

    /** The comparator whose token is {@code text}, or null. */
    static Relation of(String text) {
        for (Relation relation : values()) {
            if (relation.symbol.equals(text)) {
                return relation;
            }
        }
        return null;
    }

    /** The same test with its operands swapped ({@code :v < k} is {@code k > :v}). */
    Relation flipped() {
        return switch (this) {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> this;
        };
    }

    /**
     * Whether {@code a relation b} holds. A missing operand or operands of different types make every test false
     * (DynamoDB does not raise an error for them), except {@code <>}, which is then true.
     */
    boolean holds(Value a, Value b) {
        boolean present = a != null && b != null;
        if (this == EQ) {
            return present && a.equals(b);
        }
        if (this == NE) {
            return !(present && a.equals(b));
        }
        if (!present || !Ordering.comparable(a, b)) {
            return false;
        }
        int order = Ordering.compareKeys(a, b);
        return switch (this) {
            case LT -> order < 0;
            case LE -> order <= 0;
            case GT -> order > 0;
            default -> order >= 0;
        };
    }
}
