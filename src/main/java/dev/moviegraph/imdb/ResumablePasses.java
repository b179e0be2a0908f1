package dev.moviegraph.imdb;

import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.ImportCheckpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The passes of an import over its files, resumable: each row of a write phase becomes records, written in
 * chunks while the reading goes on, {@value #IN_FLIGHT} at a time; and the checkpoint records the phase and
 * the last line up to which every chunk is stored. A resumed run passes over what was written without
 * writing it again.
 */
final class ResumablePasses {
    /** Chunks being written while the files are read on. */
    static final int IN_FLIGHT = 2;
    private static final List<String> PHASES = List.of("titles", "ratings", "kept", "referenced", "people", "cast", "crew",
            "akas", "movies", "reconcile");

    /** A chunk handed to the target: stored once {@code written} completes, up to {@code line} of {@code phase}. */
    private record Pending(CompletableFuture<Void> written, String phase, long line) {
    }

    private final CatalogImport target;
    private final ImportProgress progress;
    private final SkipCounts skips;
    private final int chunkItems;
    private final String runArguments;
    /** Whether this import runs over a catalog an earlier one wrote: what its checkpoints say. */
    private final boolean update;
    /** The checkpoint of the run being resumed; null when this run starts afresh. */
    private final ImportCheckpoint resumeFrom;
    private final ArrayDeque<Pending> inFlight = new ArrayDeque<>();
    private long rowsRead;

    ResumablePasses(CatalogImport target, ImportProgress progress, SkipCounts skips, int chunkItems,
                    String runArguments, boolean update, ImportCheckpoint resumeFrom) {
        this.target = target;
        this.progress = progress;
        this.skips = skips;
        this.chunkItems = chunkItems;
        this.runArguments = runArguments;
        this.update = update;
        this.resumeFrom = resumeFrom;
    }

    /** Rows read so far, each file's counted once. */
    long rowsRead() {
        return rowsRead;
    }

    /** A new, empty chunk. */
    Chunk chunk() {
        return new Chunk();
    }

    /** Saves the checkpoint: every line of {@code phase} up to {@code line} is stored; {@code done}: all of the import. */
    void save(String phase, long line, boolean done) {
        target.save(new ImportCheckpoint(ImdbImport.NAME, runArguments, phase, line, done, update));
    }

    /** What a write phase makes of one row: the records to write, or null for none. */
    interface Writer<T> {
        List<? extends Record> records(T row, long line);
    }

    /** What a read-only phase does with one row. */
    interface Reader<T> {
        void accept(T row, long line);
    }

    <T> void read(Path file, RowParser<T> parser, String phase, boolean writes, Reader<T> reader) {
        read(file, parser, phase, writes, (Writer<T>) (row, line) -> {
            reader.accept(row, line);
            return null;
        });
    }

    <T> void read(Path file, RowParser<T> parser, String phase, boolean writes, Writer<T> writer) {
        read(file, parser, phase, writes, writer, () -> null);
    }

    /** A write phase whose last records come once the file is read ({@code atEnd}: the last title's titles). */
    <T> void read(Path file, RowParser<T> parser, String phase, Writer<T> writer,
                          java.util.function.Supplier<List<? extends Record>> atEnd) {
        read(file, parser, phase, true, writer, atEnd);
    }

    <T> void read(Path file, RowParser<T> parser, String phase, boolean writes, Writer<T> writer,
                          java.util.function.Supplier<List<? extends Record>> atEnd) {
        long done = writes ? resumeLine(phase) : 0;
        Chunk chunk = new Chunk();
        try (ImdbReader<T> reader = ImdbReader.open(file, parser)) {
            progress.phase(phase, reader);
            for (Parsed<T> parsed = reader.next(); parsed != null; parsed = reader.next()) {
                long line = reader.lineNumber();
                boolean counted = PHASES.indexOf(phase) == firstPass(parser);
                if (counted) {
                    rowsRead++;
                }
                if (!parsed.isRow()) {
                    if (counted) {
                        skips.add(parsed.skip());
                    }
                    continue;
                }
                List<? extends Record> records = writer.records(parsed.row(), line);
                if (records != null && line > done) {
                    records.forEach(chunk::add);
                    if (chunk.full()) {
                        flush(chunk, phase, line);
                    }
                }
                progress.tick(line, reader.bytesRead());
            }
            if (writes) {
                List<? extends Record> last = atEnd.get();
                if (last != null && reader.lineNumber() > done) {
                    last.forEach(chunk::add);
                }
                flush(chunk, phase, reader.lineNumber());
                settle(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The phase whose pass over a file counts its rows and skips (each file is counted once). */
    private static int firstPass(RowParser<?> parser) {
        if (parser instanceof TitleBasicsParser) {
            return PHASES.indexOf("titles");
        }
        if (parser instanceof TitlePrincipalsParser || parser instanceof TitleCrewParser) {
            return PHASES.indexOf("referenced");
        }
        if (parser instanceof TitleRatingsParser) {
            return PHASES.indexOf("ratings");
        }
        if (parser instanceof TitleAkasParser) {
            return PHASES.indexOf("akas");
        }
        return PHASES.indexOf("people");
    }

    /** The records read since the last flush, and the items they come to. */
    final class Chunk {
        private final List<Record> records = new ArrayList<>();
        private long items;

        void add(Record record) {
            records.add(record);
            items += target.itemsOf(record);
        }

        boolean full() {
            return items >= chunkItems;
        }

        void clear() {
            records.clear();
            items = 0;
        }
    }

    /**
     * Hands the chunk to the target and goes on reading while it is written, at most {@link #IN_FLIGHT}
     * chunks at a time; records in the checkpoint the last line up to which every chunk is written.
     */
    void flush(Chunk chunk, String phase, long line) {
        CompletableFuture<Void> written = chunk.records.isEmpty() ? CompletableFuture.completedFuture(null)
                : target.writeAsync(List.copyOf(chunk.records));
        chunk.clear();
        inFlight.add(new Pending(written, phase, line));
        settle(IN_FLIGHT);
    }

    /**
     * Waits until at most {@code max} chunks are in flight, taking the written ones in the order they were
     * read, then saves the checkpoint of the last of them: a line is only recorded once every chunk up to
     * it is stored.
     */
    void settle(int max) {
        Pending last = null;
        while (!inFlight.isEmpty() && (inFlight.size() > max || inFlight.peek().written().isDone())) {
            Pending head = inFlight.poll();
            try {
                head.written().join();
            } catch (CompletionException e) {
                inFlight.clear();
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            last = head;
        }
        if (last != null && !beforeResumed(last.phase(), last.line())) {
            save(last.phase(), last.line(), false);
        }
    }

    /**
     * Whether {@code line} of {@code phase} comes before where the run being resumed had got: the end of
     * an earlier phase this run passes over without writing. Saving it would move the checkpoint back, and
     * a second kill would then send the next run back to the start of the resumed phase.
     */
    private boolean beforeResumed(String phase, long line) {
        if (resumeFrom == null) {
            return false;
        }
        int resumed = PHASES.indexOf(resumeFrom.phase());
        int current = PHASES.indexOf(phase);
        return current < resumed || current == resumed && line < resumeFrom.line();
    }

    /** Lines of {@code phase} already written by the run being resumed (all, for an earlier phase). */
    long resumeLine(String phase) {
        if (resumeFrom == null) {
            return 0;
        }
        int resumed = PHASES.indexOf(resumeFrom.phase());
        int current = PHASES.indexOf(phase);
        return current < resumed ? Long.MAX_VALUE : current == resumed ? resumeFrom.line() : 0;
    }
}
