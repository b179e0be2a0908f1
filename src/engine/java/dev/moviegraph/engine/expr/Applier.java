package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the actions of an update to an item. Every operand is evaluated against the item as it was before
 * the update (so {@code SET a = b, b = a} swaps), then the actions are applied along a {@link PathTree}: list
 * indexes refer to the list as it was, so {@code REMOVE l[1], l[2]} removes two original elements and the
 * rest shift down, and SET or ADD past a list's end appends, in index order.
 */
final class Applier {
    /** An action with the operand it evaluated to. */
    private record Step(Action action, Value operand) {
        Value applyTo(Value existing) {
            return action.applyTo(existing, operand);
        }
    }

    private Applier() {
    }

    static Map<String, Value> apply(List<Action> actions, Map<String, Value> item) {
        List<Step> steps = new ArrayList<>(actions.size());
        for (Action action : actions) {
            steps.add(new Step(action, operand(action, item)));
        }
        Map<String, Value> result = new LinkedHashMap<>(item);
        applyKeys(result, PathTree.of(steps, step -> step.action().path(), step -> step));
        return result;
    }

    private static Value operand(Action action, Map<String, Value> item) {
        if (action instanceof Action.Assign assign) {
            return Values.required(assign.value().value(item));
        }
        if (action instanceof Action.Add add) {
            return add.value().value();
        }
        if (action instanceof Action.Delete delete) {
            return delete.value().value();
        }
        return null;
    }

    private static void applyKeys(Map<String, Value> map, PathTree<Step> node) {
        for (Map.Entry<String, PathTree<Step>> child : node.keys().entrySet()) {
            Value changed = change(map.get(child.getKey()), child.getValue());
            if (changed == null) {
                map.remove(child.getKey());
            } else {
                map.put(child.getKey(), changed);
            }
        }
    }

    /** The new value where a path ends ({@code node} is a leaf), or the value with its parts changed. */
    private static Value change(Value existing, PathTree<Step> node) {
        if (node.leaf() != null) {
            return node.leaf().applyTo(existing);
        }
        if (existing instanceof Value.M map && !node.keys().isEmpty()) {
            Map<String, Value> copy = new LinkedHashMap<>(map.values());
            applyKeys(copy, node);
            return new Value.M(copy);
        }
        if (existing instanceof Value.L list && !node.indexes().isEmpty()) {
            return new Value.L(applyIndexes(list.values(), node));
        }
        // The path goes through something absent, or through a value of another type than it assumes.
        throw invalidPath();
    }

    private static List<Value> applyIndexes(List<Value> list, PathTree<Step> node) {
        List<Value> out = new ArrayList<>(list.size() + node.indexes().size());
        for (int i = 0; i < list.size(); i++) {
            PathTree<Step> child = node.indexes().get(i);
            Value value = child == null ? list.get(i) : change(list.get(i), child);
            if (value != null) {
                out.add(value);
            }
        }
        for (PathTree<Step> child : node.indexes().tailMap(list.size(), true).values()) {
            if (child.leaf() == null) {
                throw invalidPath();
            }
            Value appended = child.leaf().applyTo(null);
            if (appended != null) {
                out.add(appended);
            }
        }
        return out;
    }

    private static ApiException invalidPath() {
        return ApiException.validation("The document path provided in the update expression is invalid for update");
    }
}
