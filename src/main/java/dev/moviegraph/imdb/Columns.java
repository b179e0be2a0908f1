package dev.moviegraph.imdb;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The value rules the parsers share. A bad value throws {@link BadValue}, which {@link #parse} turns
 * into a skip; that keeps each parser a straight list of columns. Bad lines are rare, and the exception
 * has no stack trace, so this costs nothing on good lines.
 */
final class Columns {
    static final String NULL = "\\N";
    /**
     * Any four-digit year from 0001: name.basics has real people born long before cinema (Shakespeare,
     * 1564), whom a narrower range would drop with every credit that names them.
     */
    static final int MIN_YEAR = 1;
    static final int MAX_YEAR = 2100;
    private static final int SHOWN_CHARS = 40;
    /** Trailing tokens are an error: {@code ["a"] x} is not an array of strings. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Columns() {
    }

    @FunctionalInterface
    interface Mapper<T> {
        T map(List<String> values);
    }

    /** Checks the line was readable and has as many fields as columns, then maps it. */
    static <T> Parsed<T> parse(TsvRow line, List<String> columns, Mapper<T> mapper) {
        if (line instanceof TsvRow.Unreadable unreadable) {
            return Parsed.skipped(unreadable.toSkip());
        }
        List<String> values = ((TsvRow.Fields) line).values();
        if (values.size() != columns.size()) {
            return Parsed.skipped(new Skip(line.file(), line.line(), SkipReason.WRONG_COLUMN_COUNT,
                    values.size() + " fields, expected " + columns.size()));
        }
        try {
            return Parsed.ok(mapper.map(values));
        } catch (BadValue e) {
            return Parsed.skipped(new Skip(line.file(), line.line(), e.reason, e.getMessage()));
        }
    }

    /** {@code tt} or {@code nm} and at least seven ASCII digits. */
    static String id(String column, String value, String prefix) {
        if (!isId(value, prefix)) {
            throw new BadValue(SkipReason.BAD_ID, column, value);
        }
        return value;
    }

    private static boolean isId(String value, String prefix) {
        if (value.length() < prefix.length() + 7 || !value.startsWith(prefix)) {
            return false;
        }
        return allDigits(value, prefix.length());
    }

    /** Non-empty and not {@code \N}; kept exactly as written. */
    static String required(String column, String value) {
        if (value.isEmpty() || NULL.equals(value)) {
            throw new BadValue(SkipReason.MISSING_REQUIRED, column, value);
        }
        return value;
    }

    /** {@code \N} is null; otherwise four digits in {@value #MIN_YEAR}..{@value #MAX_YEAR}. */
    static Integer year(String column, String value) {
        if (NULL.equals(value)) {
            return null;
        }
        if (value.length() != 4 || !allDigits(value, 0)) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        int year = Integer.parseInt(value);
        if (year < MIN_YEAR || year > MAX_YEAR) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        return year;
    }

    /** {@code \N} is null; otherwise a positive whole number. */
    static Integer positiveOrNull(String column, String value) {
        return NULL.equals(value) ? null : positive(column, value);
    }

    static int positive(String column, String value) {
        int n = nonNegative(column, value);
        if (n == 0) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        return n;
    }

    /**
     * ASCII digits only, at most nine of them (so no overflow). Integer.parseInt alone would accept
     * {@code +5} and non-ASCII digits such as {@code ٥}.
     */
    static int nonNegative(String column, String value) {
        if (value.isEmpty() || value.length() > 9 || !allDigits(value, 0)) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        return Integer.parseInt(value);
    }

    /** {@code 0} or {@code 1}. */
    static boolean flag(String column, String value) {
        return switch (value) {
            case "0" -> false;
            case "1" -> true;
            default -> throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        };
    }

    /**
     * A rating such as {@code 9.3}: digits, optionally a point and digits, 0 to 10. Checked by hand because
     * Double.parseDouble also takes {@code NaN}, {@code 1e1} and {@code 5d}.
     */
    static double rating(String column, String value) {
        int point = value.indexOf('.');
        String whole = point < 0 ? value : value.substring(0, point);
        String fraction = point < 0 ? "1" : value.substring(point + 1);
        if (whole.isEmpty() || whole.length() > 2 || !allDigits(whole, 0)
                || fraction.isEmpty() || fraction.length() > 6 || !allDigits(fraction, 0)) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        double rating = Double.parseDouble(value);
        if (rating > 10.0) {
            throw new BadValue(SkipReason.BAD_NUMBER, column, value);
        }
        return rating;
    }

    /**
     * A comma-separated list; {@code \N} and the empty string (IMDb writes both for "none") are the empty
     * list, and empty items are dropped rather than kept as blank genres or professions.
     */
    static List<String> list(String value) {
        if (value.isEmpty() || NULL.equals(value)) {
            return List.of();
        }
        List<String> items = new ArrayList<>(4);
        int start = 0;
        while (start <= value.length()) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? value.length() : comma;
            if (end > start) {
                items.add(value.substring(start, end));
            }
            start = end + 1;
        }
        return List.copyOf(items);
    }

    /** A list of ids, each checked; one bad id skips the line, since a crew list is all or nothing. */
    static List<String> ids(String column, String value, String prefix) {
        List<String> items = list(value);
        for (String item : items) {
            if (!isId(item, prefix)) {
                throw new BadValue(SkipReason.BAD_ID, column, item);
            }
        }
        return items;
    }

    /** {@code \N} is the empty list; otherwise a JSON array whose every element is a string. */
    static List<String> characters(String column, String value) {
        if (NULL.equals(value)) {
            return List.of();
        }
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new BadValue(SkipReason.BAD_CHARACTERS_JSON, column, value);
        }
        if (node == null || !node.isArray()) {
            throw new BadValue(SkipReason.BAD_CHARACTERS_JSON, column, value);
        }
        List<String> names = new ArrayList<>(node.size());
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw new BadValue(SkipReason.BAD_CHARACTERS_JSON, column, value);
            }
            names.add(element.textValue());
        }
        return List.copyOf(names);
    }

    private static boolean allDigits(String value, int from) {
        for (int i = from; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The value quoted and cut short, so a skip's detail stays one readable line. */
    static String show(String value) {
        if (value.length() <= SHOWN_CHARS) {
            return "\"" + value + "\"";
        }
        int cut = Character.isHighSurrogate(value.charAt(SHOWN_CHARS - 1)) ? SHOWN_CHARS - 1 : SHOWN_CHARS;
        return "\"" + value.substring(0, cut) + "...\"";
    }

    /** A bad value in a column; no stack trace, as it is expected input handled at once. */
    static final class BadValue extends RuntimeException {
        private final SkipReason reason;

        BadValue(SkipReason reason, String column, String value) {
            super(column + " " + show(value), null, false, false);
            this.reason = reason;
        }
    }
}
