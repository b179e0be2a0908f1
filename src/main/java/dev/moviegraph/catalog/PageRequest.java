package dev.moviegraph.catalog;

/** A forward page: at most {@code first} entries after the opaque {@code after} cursor (null: from the start). */
public record PageRequest(int first, String after) {
    public static final int MAX_FIRST = 100;

    public PageRequest {
        Inputs.inRange("first", first, 1, MAX_FIRST);
    }

    /** Validates a page size as a client sent it (possibly null). */
    public static PageRequest of(Integer first, String after) {
        return new PageRequest(Inputs.inRange("first", first, 1, MAX_FIRST), after);
    }
}
