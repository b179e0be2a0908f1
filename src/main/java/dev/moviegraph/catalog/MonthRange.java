package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.time.temporal.ChronoUnit;

/** An inclusive range of months; either end may be open (null). */
public record MonthRange(YearMonth from, YearMonth to) {
    public static final MonthRange ALL = new MonthRange(null, null);
    /** What an estimate assumes an open range spans: a year of monthly totals. */
    public static final int OPEN_RANGE_MONTHS = 12;

    public MonthRange {
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidInputException("'from' (" + from + ") is after 'to' (" + to + ")");
        }
    }

    public boolean contains(YearMonth month) {
        return (from == null || !month.isBefore(from)) && (to == null || !month.isAfter(to));
    }

    /** How many months the range spans, or {@link #OPEN_RANGE_MONTHS} when an end is open. */
    public int monthsForEstimate() {
        return from == null || to == null ? OPEN_RANGE_MONTHS
                : (int) Math.min(Integer.MAX_VALUE, ChronoUnit.MONTHS.between(from, to) + 1);
    }
}
