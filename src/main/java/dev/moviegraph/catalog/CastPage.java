package dev.moviegraph.catalog;

import java.util.List;

/** One page of cast members; each entry has its own cursor, {@code hasNextPage} is exact. */
public record CastPage(List<Entry> entries, boolean hasNextPage) {
    public record Entry(String cursor, CastMember member) {
    }

    public CastPage {
        entries = List.copyOf(entries);
    }

    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
