package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.List;
import java.util.Map;

/** A node of a parsed condition: comparisons, BETWEEN, IN, the boolean functions, AND, OR, NOT. */
sealed interface Check permits Check.Compare, Check.Between, Check.In, Check.And, Check.Or, Check.Not,
        Check.Exists, Check.NotExists, Check.TypeIs, Check.BeginsWith, Check.Contains, Check.Refused {

    boolean test(Map<String, Value> item);

    record Compare(Relation relation, Operand left, Operand right) implements Check {
        public boolean test(Map<String, Value> item) {
            return relation.holds(left.value(item), right.value(item));
        }
    }

    record Between(Operand subject, Operand low, Operand high) implements Check {
        public boolean test(Map<String, Value> item) {
            Value value = subject.value(item);
            return Relation.GE.holds(value, low.value(item)) && Relation.LE.holds(value, high.value(item));
        }
    }

    record In(Operand subject, List<Operand> candidates) implements Check {
        public In {
            candidates = List.copyOf(candidates);
        }

        public boolean test(Map<String, Value> item) {
            Value value = subject.value(item);
            for (Operand candidate : candidates) {
                if (Relation.EQ.holds(value, candidate.value(item))) {
                    return true;
                }
            }
            return false;
        }
    }

    record And(List<Check> parts) implements Check {
        public And {
            parts = List.copyOf(parts);
        }

        public boolean test(Map<String, Value> item) {
            for (Check part : parts) {
                if (!part.test(item)) {
                    return false;
                }
            }
            return true;
        }
    }

    record Or(List<Check> parts) implements Check {
        public Or {
            parts = List.copyOf(parts);
        }

        public boolean test(Map<String, Value> item) {
            for (Check part : parts) {
                if (part.test(item)) {
                    return true;
                }
            }
            return false;
        }
    }

    record Not(Check inner) implements Check {
        public boolean test(Map<String, Value> item) {
            return !inner.test(item);
        }
    }

    record Exists(Path path) implements Check {
        public boolean test(Map<String, Value> item) {
            return path.resolve(item) != null;
        }
    }

    record NotExists(Path path) implements Check {
        public boolean test(Map<String, Value> item) {
            return path.resolve(item) == null;
        }
    }

    record TypeIs(Operand subject, String type) implements Check {
        public boolean test(Map<String, Value> item) {
            Value value = subject.value(item);
            return value != null && value.type().equals(type);
        }
    }

    record BeginsWith(Operand subject, Operand prefix) implements Check {
        public boolean test(Map<String, Value> item) {
            return Values.beginsWith(subject.value(item), prefix.value(item));
        }
    }

    record Contains(Operand subject, Operand member) implements Check {
        public boolean test(Map<String, Value> item) {
            return Values.contains(subject.value(item), member.value(item));
        }
    }

    /** A function call that is no condition; only refused expressions contain one, so it is never tested. */
    record Refused(String function) implements Check {
        public boolean test(Map<String, Value> item) {
            throw new IllegalStateException("refused expression evaluated: " + function);
        }
    }
}
