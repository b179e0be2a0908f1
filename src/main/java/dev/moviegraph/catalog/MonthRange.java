package dev.moviegraph.catalog;

import java.time.YearMonth;

/** An inclusive range of months; either end may be open (null). */
public record MonthRange(YearMonth from, YearMonth to) {
    public static final MonthRange ALL = new MonthRange(null, null);

    public MonthRange {
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidInputException("'from' (" + from + ") is after 'to' (" + to + ")");
        }
    }

    public boolean contains(YearMonth month) {
        return (from == null || !month.isBefore(from)) && (to == null || !month.isAfter(to));
    }
}
