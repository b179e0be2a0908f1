package dev.moviegraph.catalog;

import java.util.List;
import java.util.function.Supplier;

/**
 * One page of a list, the one page type of every list the catalog reads: a cast, a filmography, search
 * results, a movie list, award winners, a movie's awards or months, a month's top list. Each entry has
 * its own cursor (null for a list read whole), {@code hasNextPage} is exact, and {@code totalCount} is
 * the list's whole length when its owner item counts it (else null).
 */
public record Page<T>(List<Entry<T>> entries, boolean hasNextPage, Integer totalCount) implements Paged {
    /**
     * One node with the cursor after it, made only when asked for: a cursor is signed (an HMAC), and
     * most queries ask for no cursor of most lists they read (null for a list read whole).
     */
    public record Entry<T>(Supplier<String> cursorSource, T node) {
        public String cursor() {
            return cursorSource == null ? null : cursorSource.get();
        }
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
    public String startCursor() {
        return entries.isEmpty() ? null : entries.get(0).cursor();
    }

    @Override
    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
