package dev.moviegraph.imdb;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The import's progress: phase, rows read, items written, items/s and, from the compressed bytes read
 * of the phase's file, an ETA for the phase. On a terminal one status line is redrawn every second (the
 * text handed on starts with a carriage return, {@link #REDRAW}); otherwise (a log, a pipe) a plain
 * line is written every 10 seconds, so a log stays readable.
 */
final class ImportProgress {
    /** Starts a status line that replaces the one before it on a terminal. */
    static final String REDRAW = "\r";

    private final Consumer<String> out;
    private final boolean terminal;
    private final LongSupplier written;
    private final long intervalNanos;

    private String phase = "";
    private ImdbReader<?> reader;
    private long phaseStarted;
    private long writtenAtPhaseStart;
    private long lastReport;

    ImportProgress(Consumer<String> out, boolean terminal, LongSupplier written) {
        this(out, terminal, written, terminal ? 1_000_000_000L : 10_000_000_000L);
    }

    ImportProgress(Consumer<String> out, boolean terminal, LongSupplier written, long intervalNanos) {
        this.out = out;
        this.terminal = terminal;
        this.written = written;
        this.intervalNanos = intervalNanos;
    }

    void line(String text) {
        out.accept(text);
    }

    void phase(String name, ImdbReader<?> file) {
        phase = name;
        reader = file;
        phaseStarted = System.nanoTime();
        writtenAtPhaseStart = written.getAsLong();
        lastReport = phaseStarted;
        line("phase " + name + (file == null ? "" : " (" + file.name() + ")"));
    }

    void tick(long rows, long bytesRead) {
        long now = System.nanoTime();
        if (now - lastReport < intervalNanos) {
            return;
        }
        lastReport = now;
        double seconds = (now - phaseStarted) / 1e9;
        long items = written.getAsLong();
        double rate = (items - writtenAtPhaseStart) / Math.max(seconds, 0.001);
        StringBuilder status = new StringBuilder(String.format("  %s: %,d rows, %,d items written, %,.0f items/s",
                phase, rows, items, rate));
        if (reader != null && bytesRead > 0 && reader.size() > 0) {
            double fraction = Math.min(1.0, (double) bytesRead / reader.size());
            long eta = fraction <= 0 ? 0 : Math.round(seconds / fraction - seconds);
            status.append(String.format(", %.0f%% of the file, ETA %dm%02ds", fraction * 100, eta / 60, eta % 60));
        }
        out.accept(terminal ? REDRAW + status : status.toString());
    }
}
