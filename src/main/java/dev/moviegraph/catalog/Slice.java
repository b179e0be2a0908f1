package dev.moviegraph.catalog;

/**
 * How much of a {@link Part} a read wants: a page of credits, every credit (a movie's crew is short),
 * a range of months, or the first {@code limit} of a month's top list.
 */
public record Slice(PageRequest page, MonthRange months, int limit) {
    /** The most items {@link #all()} stands for in an estimate: no movie has more directors and writers. */
    public static final int ALL_ESTIMATE = 50;

    public static Slice page(PageRequest page) {
        return new Slice(page, null, 0);
    }

    public static Slice all() {
        return new Slice(null, null, 0);
    }

    public static Slice months(MonthRange months) {
        return new Slice(null, months, 0);
    }

    public static Slice top(int limit) {
        return new Slice(null, null, limit);
    }

    public boolean isAll() {
        return page == null && months == null && limit == 0;
    }

    /** At most how many items the slice holds, as estimates count them. */
    public int mostItems() {
        if (page != null) {
            return page.first();
        }
        if (months != null) {
            return months.monthsForEstimate();
        }
        return limit > 0 ? limit : ALL_ESTIMATE;
    }
}
