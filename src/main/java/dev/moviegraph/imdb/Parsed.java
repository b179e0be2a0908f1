package dev.moviegraph.imdb;

/**
 * What parsing one line gives: a row or a skip, exactly one of them non-null. A record rather than a
 * sealed pair so that callers on Java 17 can branch with a null check and no casts.
 */
public record Parsed<T>(T row, Skip skip) {
    public Parsed {
        if ((row == null) == (skip == null)) {
            throw new IllegalArgumentException("exactly one of row and skip must be given");
        }
    }

    public static <T> Parsed<T> ok(T row) {
        return new Parsed<>(row, null);
    }

    public static <T> Parsed<T> skipped(Skip skip) {
        return new Parsed<>(null, skip);
    }

    public boolean isRow() {
        return row != null;
    }
}
