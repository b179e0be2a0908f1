package dev.moviegraph.imdb;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One IMDb file read through its parser: {@link #next()} gives a row or a skip per line, and the
 * file's progress is at hand for an ETA. Resuming is the caller's: count the lines read and call
 * {@link #next()} that many times again (the files have no index to seek by).
 */
public final class ImdbReader<T> implements Closeable {
    private final TsvFile file;
    private final RowParser<T> parser;

    private ImdbReader(TsvFile file, RowParser<T> parser) {
        this.file = file;
        this.parser = parser;
    }

    /**
     * Opens {@code file} and checks its header against {@code parser}'s columns.
     *
     * @throws TsvHeaderException if the header is not the parser's
     */
    public static <T> ImdbReader<T> open(Path file, RowParser<T> parser) throws IOException {
        return new ImdbReader<>(TsvFile.open(file, parser.columns()), parser);
    }

    /** The next line as a row or a skip, or null at the end of the file. */
    public Parsed<T> next() throws IOException {
        TsvRow line = file.next();
        return line == null ? null : parser.parse(line);
    }

    /** Number of the last line read (the header is line 1). */
    public long lineNumber() {
        return file.lineNumber();
    }

    /** Compressed bytes read so far; with {@link #size()}, the share of the file done. Any thread. */
    public long bytesRead() {
        return file.bytesRead();
    }

    /** The compressed file's size in bytes. Any thread. */
    public long size() {
        return file.size();
    }

    public String name() {
        return file.name();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
