package dev.moviegraph.catalog;

/**
 * How much of a {@link Part} a read wants: a page of credits, every credit (a movie's crew is short),
 * or a range of months.
 */
public record Slice(PageRequest page, MonthRange months) {
    /** The most items {@link #all()} stands for in an estimate: no movie has more directors and writers. */
    public static final int ALL_ESTIMATE = 50;

    public static Slice page(PageRequest page) {
        return new Slice(page, null);
    }

    public static Slice all() {
        return new Slice(null, null);
    }

    public static Slice months(MonthRange months) {
        return new Slice(null, months);
    }

    public boolean isAll() {
        return page == null && months == null;
    }

    /** At most how many items the slice holds, as estimates count them. */
    public int mostItems() {
        if (page != null) {
            return page.first();
        }
        if (months != null) {
            return months.monthsForEstimate();
        }
        return ALL_ESTIMATE;
    }
}
