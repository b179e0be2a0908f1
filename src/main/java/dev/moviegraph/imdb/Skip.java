package dev.moviegraph.imdb;

import java.util.Objects;

/**
 * One line left out: the file's name, the 1-based line number (the header is line 1), the reason and a
 * short detail naming the column and value, enough to find and judge the line by hand.
 */
public record Skip(String file, long line, SkipReason reason, String detail) {
    public Skip {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }

    /** {@code title.basics.tsv.gz:17: BAD_NUMBER startYear "19x4"}. */
    @Override
    public String toString() {
        return file + ":" + line + ": " + reason + " " + detail;
    }
}
