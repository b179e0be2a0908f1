package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.Map;
import java.util.Set;

/** A parsed ConditionExpression or FilterExpression. */
public interface Condition {
    /** Whether the item (an empty map when there is none) satisfies the condition. */
    boolean test(Map<String, Value> item);

    /** Top-level attribute names the condition reads. */
    Set<String> topLevelNames();
}
