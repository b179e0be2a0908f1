package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What stands for a value in an expression: a path, a {@code :value}, or a function that yields one (size in
 * conditions; if_not_exists, list_append, + and - in updates).
 */
sealed interface Operand permits Operand.PathRef, Operand.Literal, Operand.Size, Operand.IfNotExists,
        Operand.ListAppend, Operand.Arithmetic, Operand.Call {

    /**
     * The operand's value in the item, or null when it names nothing there. Update functions throw DynamoDB's
     * errors instead (a missing or wrong-typed argument).
     */
    Value value(Map<String, Value> item);

    /** The type known without an item (a literal's, size's N), or null. DynamoDB checks these at parse time. */
    default String staticType() {
        return null;
    }

    record PathRef(Path path) implements Operand {
        public Value value(Map<String, Value> item) {
            return path.resolve(item);
        }
    }

    /** An expression attribute value; {@code value} is null only in expressions refused for it. */
    record Literal(String ref, Value value) implements Operand {
        public Value value(Map<String, Value> item) {
            return value;
        }

        @Override
        public String staticType() {
            return value == null ? null : value.type();
        }
    }

    /** {@code size(operand)}: null for types without a size, so comparisons with it are false. */
    record Size(Operand of) implements Operand {
        public Value value(Map<String, Value> item) {
            Value value = of.value(item);
            return value == null ? null : Values.size(value);
        }

        @Override
        public String staticType() {
            return "N";
        }
    }

    record IfNotExists(Path path, Operand fallback) implements Operand {
        public Value value(Map<String, Value> item) {
            Value existing = path.resolve(item);
            return existing != null ? existing : fallback.value(item);
        }

        @Override
        public String staticType() {
            return fallback.staticType();
        }
    }

    record ListAppend(Operand first, Operand second) implements Operand {
        public Value value(Map<String, Value> item) {
            Value a = Values.required(first.value(item));
            Value b = Values.required(second.value(item));
            if (!(a instanceof Value.L x) || !(b instanceof Value.L y)) {
                throw Values.incorrectType();
            }
            List<Value> joined = new ArrayList<>(x.values());
            joined.addAll(y.values());
            return new Value.L(joined);
        }

        @Override
        public String staticType() {
            return "L";
        }
    }

    /** {@code left + right} or {@code left - right}, numbers only. */
    record Arithmetic(boolean plus, Operand left, Operand right) implements Operand {
        public Value value(Map<String, Value> item) {
            Value a = Values.required(left.value(item));
            Value b = Values.required(right.value(item));
            return plus ? Values.plus(a, b) : Values.minus(a, b);
        }

        @Override
        public String staticType() {
            return "N";
        }
    }

    /**
     * A function call that cannot stand where it was written (unknown, wrong arity, or a condition function used
     * as a value). Only expressions that are refused contain one, so it is never evaluated.
     */
    record Call(String name, List<Operand> args) implements Operand {
        public Value value(Map<String, Value> item) {
            throw new IllegalStateException("refused expression evaluated: " + name);
        }
    }
}
