package dev.moviegraph.catalog;

import java.util.List;
import java.util.Map;

/**
 * The answer to a {@link CollectionRead}: the owner item (null when not asked for or unknown), a page
 * of each credit part asked for, and the totals (a movie's months, or a month's top list).
 */
public record CollectionPage(Record owner, Map<Part, CreditPage> credits, List<MonthlyStreams> totals) {
    public CollectionPage {
        credits = Map.copyOf(credits);
        totals = totals == null ? null : List.copyOf(totals);
    }

    public <T extends Record> T owner(Class<T> type) {
        return owner == null ? null : type.cast(owner);
    }
}
