package dev.moviegraph.catalog;

import java.util.Map;
import java.util.Set;

/**
 * The outcome of a read by key. A key is either found, absent (in neither set: the item does not
 * exist) or unavailable: the store still refused it after the whole retry budget, which is an error
 * for the fields that asked for it only.
 */
public record Fetched(Map<ItemRef<?>, Record> found, Set<ItemRef<?>> unavailable) {
    public Fetched {
        found = Map.copyOf(found);
        unavailable = Set.copyOf(unavailable);
    }

    /** The item found for {@code ref}, or null when there is none. */
    public <T extends Record> T get(ItemRef<T> ref) {
        return ref.type().cast(found.get(ref));
    }
}
