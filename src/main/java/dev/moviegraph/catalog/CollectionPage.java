package dev.moviegraph.catalog;

import java.util.List;
import java.util.Map;

/**
 * The answer to a {@link CollectionRead}: the owner item (null when not asked for or unknown), a page
 * of each credit part asked for, the totals (a movie's months, or a month's top list) and the awards
 * (a movie's or a person's, newest first), each null when not asked for.
 */
public record CollectionPage(Record owner, Map<Part, CreditPage> credits, List<MonthlyStreams> totals,
                             List<Award> awards) {
    public CollectionPage {
        credits = Map.copyOf(credits);
        totals = totals == null ? null : List.copyOf(totals);
        awards = awards == null ? null : List.copyOf(awards);
    }

    public CollectionPage(Record owner, Map<Part, CreditPage> credits, List<MonthlyStreams> totals) {
        this(owner, credits, totals, null);
    }

    public <T extends Record> T owner(Class<T> type) {
        return owner == null ? null : type.cast(owner);
    }
}
