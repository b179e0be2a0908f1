package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.List;

/**
 * A month's most streamed movies, best first, as one item: at most {@code KEPT} entries, each a movie's
 * total with its title. Every total of the month that is not an entry has fewer than {@code floor}
 * streams (or ranks below every entry), so the first {@code n} entries are the month's exact top {@code n}
 * for any {@code n} up to the number of entries.
 */
public record TopList(YearMonth month, long floor, List<MonthlyStreams> entries) {
    public TopList {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /** The first {@code limit} entries, each with the list's month. */
    public List<MonthlyStreams> top(int limit) {
        return entries.stream().limit(limit)
                .map(entry -> new MonthlyStreams(entry.movieId(), entry.movieTitle(), month, entry.streams())).toList();
    }
}
