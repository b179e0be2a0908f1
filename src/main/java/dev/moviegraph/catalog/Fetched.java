package dev.moviegraph.catalog;

import java.util.Map;
import java.util.Set;

/**
 * The outcome of a read by key. A key is either found, absent (in neither set: the item does not
 * exist) or unavailable: the store still refused it after the whole retry budget, which is an error
 * for the fields that asked for it only.
 */
public record Fetched(Map<EntityRef<?>, Object> found, Set<EntityRef<?>> unavailable) {
    public Fetched {
        found = Map.copyOf(found);
        unavailable = Set.copyOf(unavailable);
    }
}
