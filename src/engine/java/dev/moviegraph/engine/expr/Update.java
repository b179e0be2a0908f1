package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.Map;
import java.util.Set;

/** A parsed UpdateExpression. */
public interface Update {
    /**
     * A new mutable item (LinkedHashMap) with the update applied to a copy of {@code item}; throws
     * ApiException.validation on a type error, a path through a missing or wrong-typed parent, etc.
     */
    Map<String, Value> apply(Map<String, Value> item);

    /**
     * Top-level attribute names this update sets or removes (the gateway refuses updates to key attributes with
     * "Cannot update attribute pk. This attribute is part of the key").
     */
    Set<String> topLevelNames();

    /** The item restricted to the paths this update touched (for ReturnValues UPDATED_OLD / UPDATED_NEW). */
    Map<String, Value> updatedPart(Map<String, Value> item);
}
