package dev.moviegraph.catalog;

import java.util.List;

/**
 * One page of a list, the one page type of every list the catalog reads: a cast, a filmography, search
 * results, a movie list, award winners, a movie's awards or months, a month's top list. Each entry has
 * its own cursor (null for a list read whole), {@code hasNextPage} is exact, and {@code totalCount} is
 * the list's whole length when its owner item counts it (else null).
 */
public record Page<T>(List<Entry<T>> entries, boolean hasNextPage, Integer totalCount) implements Paged {
    public record Entry<T>(String cursor, T node) {
    }

    public Page {
        entries = List.copyOf(entries);
    }

    public Page(List<Entry<T>> entries, boolean hasNextPage) {
        this(entries, hasNextPage, null);
    }

    /** The nodes alone, for a list field that shows no page. */
    public List<T> nodes() {
        return entries.stream().map(Entry::node).toList();
    }

    @Override
    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
