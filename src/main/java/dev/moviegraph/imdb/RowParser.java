package dev.moviegraph.imdb;

import java.util.List;

/**
 * Turns the lines of one IMDb file into rows. Implementations are stateless and thread-safe, so one
 * instance may parse lines for many threads.
 */
public interface RowParser<T> {
    /** The file's name in IMDb's dataset directory, e.g. {@code title.basics.tsv.gz}. */
    String fileName();

    /** The header IMDb's file has, in order. */
    List<String> columns();

    /** A row, or the reason the line is skipped. Never throws for bad content. */
    Parsed<T> parse(TsvRow line);
}
