package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

/** One action of an update expression, on one path. */
sealed interface Action permits Action.Assign, Action.Remove, Action.Add, Action.Delete {
    Path path();

    /**
     * What the action does to the value now at its path (null when absent), given the operand it evaluated
     * against the item as it was before the update; null removes the value.
     */
    Value applyTo(Value existing, Value operand);

    /** SET path = value. */
    record Assign(Path path, Operand value) implements Action {
        public Value applyTo(Value existing, Value operand) {
            return operand;
        }
    }

    record Remove(Path path) implements Action {
        public Value applyTo(Value existing, Value operand) {
            return null;
        }
    }

    /** ADD path :value — a number added (to 0 when absent) or set members joined (a new set when absent). */
    record Add(Path path, Operand.Literal value) implements Action {
        public Value applyTo(Value existing, Value operand) {
            return existing == null ? operand : Values.add(existing, operand);
        }
    }

    /** DELETE path :set — members taken out; nothing happens when the attribute is absent. */
    record Delete(Path path, Operand.Literal value) implements Action {
        public Value applyTo(Value existing, Value operand) {
            return existing == null ? null : Values.delete(existing, operand);
        }
    }
}
