package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.Map;
import java.util.Set;

/** A parsed ProjectionExpression. */
public interface Projection {
    /** A new item holding only the projected paths, nested structure kept. */
    Map<String, Value> apply(Map<String, Value> item);

    /** Top-level attribute names the projection reads. */
    Set<String> topLevelNames();
}
