package dev.moviegraph.catalog;

import java.util.List;

/** One page of credits; each entry has its own cursor, {@code hasNextPage} is exact. */
public record CreditPage(List<Entry> entries, boolean hasNextPage) implements Paged {
    public record Entry(String cursor, Credit credit) {
    }

    public CreditPage {
        entries = List.copyOf(entries);
    }

    @Override
    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
