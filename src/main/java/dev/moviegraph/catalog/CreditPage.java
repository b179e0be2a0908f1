package dev.moviegraph.catalog;

import java.util.List;

/**
 * One page of credits; each entry has its own cursor, {@code hasNextPage} is exact; {@code totalCount} is
 * the whole list's length as its owner item counts it, null when the owner item was not read with it.
 */
public record CreditPage(List<Entry> entries, boolean hasNextPage, Integer totalCount) implements Paged {
    public record Entry(String cursor, Credit credit) {
    }

    public CreditPage {
        entries = List.copyOf(entries);
    }

    public CreditPage(List<Entry> entries, boolean hasNextPage) {
        this(entries, hasNextPage, null);
    }

    public CreditPage withTotalCount(Integer count) {
        return new CreditPage(entries, hasNextPage, count);
    }

    @Override
    public String endCursor() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1).cursor();
    }
}
