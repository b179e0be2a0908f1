package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the parts of an item that some paths reach, nested structure included: {@code a.b} of
 * {@code {a: {b: 1, c: 2}}} is {@code {a: {b: 1}}}, {@code l[1]} of {@code {l: [x, y, z]}} is {@code {l: [y]}}.
 * A path that reaches nothing contributes nothing (not even an empty map or list).
 */
final class Projector {
    private final PathTree<Boolean> tree;

    Projector(List<Path> paths) {
        this.tree = PathTree.of(paths, path -> path, path -> Boolean.TRUE);
    }

    Map<String, Value> project(Map<String, Value> item) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (Map.Entry<String, PathTree<Boolean>> child : tree.keys().entrySet()) {
            Value kept = keep(item.get(child.getKey()), child.getValue());
            if (kept != null) {
                out.put(child.getKey(), kept);
            }
        }
        return out;
    }

    private static Value keep(Value value, PathTree<Boolean> node) {
        if (value == null || node.leaf() != null) {
            return value;
        }
        if (value instanceof Value.M map && !node.keys().isEmpty()) {
            Map<String, Value> kept = new LinkedHashMap<>();
            for (Map.Entry<String, PathTree<Boolean>> child : node.keys().entrySet()) {
                Value part = keep(map.values().get(child.getKey()), child.getValue());
                if (part != null) {
                    kept.put(child.getKey(), part);
                }
            }
            return kept.isEmpty() ? null : new Value.M(kept);
        }
        if (value instanceof Value.L list && !node.indexes().isEmpty()) {
            List<Value> kept = new ArrayList<>();
            for (Map.Entry<Integer, PathTree<Boolean>> child : node.indexes().entrySet()) {
                if (child.getKey() < list.values().size()) {
                    Value part = keep(list.values().get(child.getKey()), child.getValue());
                    if (part != null) {
                        kept.add(part);
                    }
                }
            }
            return kept.isEmpty() ? null : new Value.L(kept);
        }
        return null;
    }
}
