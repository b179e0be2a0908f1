package dev.moviegraph.catalog;

import java.util.List;

/** One page of a list; each entry has its own cursor, {@code hasNextPage} is exact. */
public record Page<T>(List<Entry<T>> entries, boolean hasNextPage) implements Paged {
    public record Entry<T>(String cursor, T node) {
    }

    public Page {
        entries = List.copyOf(entries);
    }

    @Override
    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
