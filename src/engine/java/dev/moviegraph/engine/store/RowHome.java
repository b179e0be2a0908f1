package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.RecordLog;
import dev.moviegraph.engine.table.Storage;

import java.nio.file.Path;

/**
 * Where an engine keeps its rows and stream records: in memory ({@link RowFiles}) without a data folder, in the
 * folder's {@code rows.db} ({@link DiskRows}) with one, where SQLite's native library loads (the jar carries it
 * for Linux x86-64 and ARM64 and macOS ARM64; elsewhere the rows stay in memory and a warning says so).
 *
 * <p>{@code DYNAMODB_ROWS=memory} keeps the rows in memory with a data folder too (its journal alone on disk):
 * a restart then replays into memory, faster than into the file, for a heap that holds the data.
 *
 * <p>{@code DYNAMODB_WRITE_BUFFER_MB} (default 32) sizes each of the two in-memory layers of recent writes;
 * {@code DYNAMODB_FILE_CACHE_MB} (default 64) is SQLite's page cache outside the heap, half for the
 * connection that writes, half shared out among those that read.
 */
public record RowHome(Storage storage, RecordLog.Logs records, AutoCloseable closer, String description) {
    private static final System.Logger LOG = System.getLogger(RowHome.class.getName());
    private static final int READERS = 4;

    public static RowHome of(Path dataDir) {
        String choice = setting("DYNAMODB_ROWS");
        if (choice != null && !choice.equals("disk") && !choice.equals("memory")) {
            throw new IllegalArgumentException("DYNAMODB_ROWS must be disk or memory, not '" + choice + "'");
        }
        if (dataDir != null && !"memory".equals(choice)) {
            if (DiskRows.available()) {
                long layer = megabytes("DYNAMODB_WRITE_BUFFER_MB", 32);
                long cache = megabytes("DYNAMODB_FILE_CACHE_MB", 64);
                DiskRows disk = DiskRows.open(dataDir, layer, READERS, (int) (cache / 1024));
                return new RowHome(disk, disk.records(), disk, "rows on disk (rows.db), "
                        + (layer >> 20) + " MB write layers, " + (cache >> 20) + " MB file cache");
            }
            LOG.log(System.Logger.Level.WARNING, "SQLite's native library does not load on this machine ("
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + "): rows stay in memory; the journal still keeps them across restarts");
        }
        RowFiles memory = RowFiles.inMemory();
        return new RowHome(memory, memory.records(), memory, "rows in memory");
    }

    /** An environment variable, or the system property of that name (tests set those). */
    private static String setting(String name) {
        String value = System.getenv(name);
        if (value == null) {
            value = System.getProperty(name);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static long megabytes(String name, long fallback) {
        String value = setting(name);
        long mb = fallback;
        if (value != null) {
            try {
                mb = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a number of megabytes, not '" + value + "'");
            }
            if (mb < 1) {
                throw new IllegalArgumentException(name + " must be at least 1 (megabytes), not " + mb);
            }
        }
        return mb << 20;
    }

    public void close() {
        try {
            closer.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "Closing the rows failed: " + e);
        }
    }
}
