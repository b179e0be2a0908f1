package dev.moviegraph.imdb;

import java.util.List;

/**
 * One line after the header as {@link TsvFile} read it: its fields, or why they could not be read.
 * Values are raw text ({@code \N} is still {@code \N}); the parsers give them meaning.
 */
public sealed interface TsvRow permits TsvRow.Fields, TsvRow.Unreadable {
    /** The file's name (not its directory), for skips and messages. */
    String file();

    /** 1-based line number in the file; the header is line 1, so the first row is line 2. */
    long line();

    /** The tab-separated values of a line that decoded as UTF-8. */
    record Fields(String file, long line, List<String> values) implements TsvRow {
        public Fields {
            values = List.copyOf(values);
        }
    }

    /** A line that could not be decoded (invalid UTF-8) or was too long to keep. */
    record Unreadable(String file, long line, SkipReason reason, String detail) implements TsvRow {
        public Skip toSkip() {
            return new Skip(file, line, reason, detail);
        }
    }
}
