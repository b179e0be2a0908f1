package dev.moviegraph.engine.expr;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Paths merged into a tree, a payload at the end of each: projections and updates walk an item along it once,
 * so that several paths into one map or list build or change that map or list together. List indexes are kept
 * in ascending order because DynamoDB applies them in that order (SET a[5], a[3] past the end appends a[3]'s
 * value first) and projects list elements in it. Built once, then only read.
 */
final class PathTree<T> {
    private final Map<String, PathTree<T>> keys = new LinkedHashMap<>();
    private final NavigableMap<Integer, PathTree<T>> indexes = new TreeMap<>();
    private T leaf;

    private PathTree() {
    }

    /** The tree of {@code paths}; a path's payload is {@code leafOf(path)}. Overlapping paths are refused earlier. */
    static <P, T> PathTree<T> of(List<P> items, Function<P, Path> pathOf, Function<P, T> leafOf) {
        PathTree<T> root = new PathTree<>();
        for (P item : items) {
            PathTree<T> node = root;
            for (Path.Step step : pathOf.apply(item).steps()) {
                node = step instanceof Path.Key key
                        ? node.keys.computeIfAbsent(key.name(), k -> new PathTree<>())
                        : node.indexes.computeIfAbsent(((Path.Index) step).index(), k -> new PathTree<>());
            }
            node.leaf = leafOf.apply(item);
        }
        return root;
    }

    /** The payload when a path ends here, else null. */
    T leaf() {
        return leaf;
    }

    Map<String, PathTree<T>> keys() {
        return Collections.unmodifiableMap(keys);
    }

    NavigableMap<Integer, PathTree<T>> indexes() {
        return Collections.unmodifiableNavigableMap(indexes);
    }
}
