package dev.moviegraph.catalog;

/** Helpers for echoing user input back in error messages without echoing a megabyte of it. */
public final class Inputs {
    private static final int ECHO_LIMIT = 40;

    private Inputs() {
    }

    public static String shorten(String value) {
        if (value == null) {
            return "null";
        }
        return value.length() <= ECHO_LIMIT ? value : value.substring(0, ECHO_LIMIT) + "...";
    }

    /** Checks a page size or limit and returns it. */
    public static int inRange(String name, Integer value, int min, int max) {
        if (value == null || value < min || value > max) {
            throw new InvalidInputException("'" + name + "' must be between " + min + " and " + max
                    + ", got " + value);
        }
        return value;
    }
}
