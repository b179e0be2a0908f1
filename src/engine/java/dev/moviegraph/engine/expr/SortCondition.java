package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

/** The sort key's part of a key condition; {@code high} is set for BETWEEN only. */
public record SortCondition(Op op, Value low, Value high /* BETWEEN only */) {
    public enum Op { EQ, LT, LE, GT, GE, BETWEEN, BEGINS_WITH }

    /** Whether a sort key value satisfies the condition; a value of another type never does. */
    public boolean matches(Value sortKeyValue) {
        if (sortKeyValue == null) {
            return false;
        }
        return switch (op) {
            case EQ -> sortKeyValue.equals(low);
            case LT -> Relation.LT.holds(sortKeyValue, low);
            case LE -> Relation.LE.holds(sortKeyValue, low);
            case GT -> Relation.GT.holds(sortKeyValue, low);
            case GE -> Relation.GE.holds(sortKeyValue, low);
            case BETWEEN -> Relation.GE.holds(sortKeyValue, low) && Relation.LE.holds(sortKeyValue, high);
            case BEGINS_WITH -> Values.beginsWith(sortKeyValue, low);
        };
    }

    static Op of(Relation relation) {
        return switch (relation) {
            case EQ -> Op.EQ;
            case LT -> Op.LT;
            case LE -> Op.LE;
            case GT -> Op.GT;
            case GE -> Op.GE;
            // Key conditions refuse <> before they get here.
            case NE -> throw new IllegalArgumentException("<> is no key condition");
        };
    }
}
