package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.List;
import java.util.Map;

/** A document path with placeholders resolved: a top-level name, then map keys and list indexes. */
record Path(List<Step> steps) {
    sealed interface Step permits Key, Index {
    }

    record Key(String name) implements Step {
        @Override
        public String toString() {
            return name;
        }
    }

    record Index(int index) implements Step {
        @Override
        public String toString() {
            return "[" + index + "]";
        }
    }

    enum Clash { NONE, OVERLAP, CONFLICT }

    Path {
        steps = List.copyOf(steps);
        if (steps.isEmpty() || !(steps.get(0) instanceof Key)) {
            throw new IllegalArgumentException("a path starts with a name");
        }
    }

    String top() {
        return ((Key) steps.get(0)).name();
    }

    boolean nested() {
        return steps.size() > 1;
    }

    /** The value at this path in the item, or null when any step finds nothing (or the wrong type). */
    Value resolve(Map<String, Value> item) {
        Value value = item.get(top());
        for (int i = 1; i < steps.size() && value != null; i++) {
            Step step = steps.get(i);
            if (step instanceof Key key) {
                value = value instanceof Value.M map ? map.values().get(key.name()) : null;
            } else {
                int index = ((Index) step).index();
                value = value instanceof Value.L list && index < list.values().size() ? list.values().get(index) : null;
            }
        }
        return value;
    }

    /**
     * How two paths of one expression relate: OVERLAP when one is the other or leads into it, CONFLICT when at
     * the first step where they part one reads a map key and the other a list index (they assume different
     * types for the same attribute).
     */
    static Clash clash(Path a, Path b) {
        int shared = Math.min(a.steps.size(), b.steps.size());
        for (int i = 0; i < shared; i++) {
            Step x = a.steps.get(i);
            Step y = b.steps.get(i);
            if (x.getClass() != y.getClass()) {
                return Clash.CONFLICT;
            }
            if (!x.equals(y)) {
                return Clash.NONE;
            }
        }
        return Clash.OVERLAP;
    }

    /** Notes every pair of paths that overlap or conflict (update and projection expressions refuse both). */
    static void noteClashes(List<Path> paths, Problems problems) {
        for (int j = 1; j < paths.size(); j++) {
            for (int i = 0; i < j; i++) {
                Clash clash = clash(paths.get(i), paths.get(j));
                if (clash == Clash.NONE) {
                    continue;
                }
                String what = clash == Clash.OVERLAP ? "overlap" : "conflict";
                problems.note(clash == Clash.OVERLAP ? Problems.Kind.OVERLAP : Problems.Kind.CONFLICT,
                        "Two document paths " + what + " with each other; must remove or rewrite one of these paths; "
                                + "path one: " + paths.get(i) + ", path two: " + paths.get(j));
            }
        }
    }

    /** DynamoDB's rendering in error messages: {@code [a, b, [2]]}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("[");
        for (Step step : steps) {
            text.append(text.length() > 1 ? ", " : "").append(step);
        }
        return text.append(']').toString();
    }
}
