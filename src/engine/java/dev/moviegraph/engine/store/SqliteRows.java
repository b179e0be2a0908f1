package dev.moviegraph.engine.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The rows on disk: one SQLite file of {@code (store, key, value)} rows, a B-tree clustered on the store and
 * the key ({@code WITHOUT ROWID}), so a range of one store is a walk of adjacent pages. Only {@link DiskRows}'s
 * flush writes, a layer at a time in one transaction; readers each borrow a connection of their own, and in
 * WAL mode a reader sees the last committed flush and never waits for the one being written.
 *
 * <p>Durability is the journal's: commits are not synced ({@code synchronous=NORMAL} in WAL mode: a power loss
 * loses the latest commits, never the file's consistency); a restart
 * trusts it up to the checkpoint written with its last layer and replays the journal after that, or rebuilds it
 * from the journal when there is none.
 */
final class SqliteRows implements AutoCloseable {
    private static final String UPSERT = "INSERT OR REPLACE INTO rows(store, k, v) VALUES (?, ?, ?)";
    private static final String DELETE = "DELETE FROM rows WHERE store = ? AND k = ?";
    /** Rows per call into SQLite when a layer is written. */
    private static final int BATCH = 1024;

    private final Path file;
    private final Connection writer;
    private final PreparedStatement upsert;
    private final PreparedStatement delete;
    private final PreparedStatement dropStore;
    private final BlockingQueue<Reader> readers;

    private SqliteRows(Path file, Connection writer, int readers, int cacheKib) throws SQLException {
        this.file = file;
        this.writer = writer;
        int readerKib = Math.max(1024, cacheKib / 2 / readers);
        this.upsert = writer.prepareStatement(UPSERT);
        this.delete = writer.prepareStatement(DELETE);
        this.dropStore = writer.prepareStatement("DELETE FROM rows WHERE store = ?");
        this.readers = new ArrayBlockingQueue<>(readers);
        for (int i = 0; i < readers; i++) {
            this.readers.add(new Reader(connect(file, readerKib)));
        }
    }

    /**
     * A new, empty file (what was there is removed: the journal rebuilds it). {@code cacheKib} is SQLite's page
     * cache, outside the heap: half for the writer (a flush touches pages all over the tree), half shared out
     * among the readers.
     */
    static SqliteRows create(Path file, int readers, int cacheKib) throws SQLException {
        try {
            for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
            }
        } catch (java.io.IOException e) {
            throw new SQLException("cannot clear " + file + ": " + e, e);
        }
        // 16 KB pages: a flush's rows land on a third as many pages as with 4 KB (measured: 84,000 random rows a
        // second into a million-row file against 58,000); set before the first table, and before WAL mode
        try (Connection init = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = init.createStatement()) {
            statement.execute("PRAGMA page_size=16384");
            statement.execute("CREATE TABLE rows (store INTEGER NOT NULL, k BLOB NOT NULL, v BLOB NOT NULL, "
                    + "PRIMARY KEY (store, k)) WITHOUT ROWID");
        }
        Connection writer = connect(file, Math.max(1024, cacheKib / 2));
        writer.setAutoCommit(false);
        return new SqliteRows(file, writer, readers, cacheKib);
    }

    /**
     * The file as a checkpoint left it (the journal decides whether to trust it, {@link DiskRows#checkpoint}), or a
     * new one when there is none or it cannot be opened.
     */
    static SqliteRows open(Path file, int readers, int cacheKib) throws SQLException {
        if (!Files.exists(file)) {
            return create(file, readers, cacheKib);
        }
        Connection writer = null;
        try {
            writer = connect(file, Math.max(1024, cacheKib / 2));
            try (Statement statement = writer.createStatement();
                 ResultSet tables = statement.executeQuery(
                         "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'rows'")) {
                if (!tables.next() || tables.getInt(1) != 1) {
                    throw new SQLException("no rows table");
                }
            }
            writer.setAutoCommit(false);
            return new SqliteRows(file, writer, readers, cacheKib);
        } catch (SQLException e) {
            if (writer != null) {
                closeQuietly(writer);
            }
            System.getLogger(SqliteRows.class.getName()).log(System.Logger.Level.WARNING, "The rows file " + file
                    + " cannot be opened (" + e.getMessage() + "): it is made again from the journal");
            return create(file, readers, cacheKib);
        }
    }

    private static Connection connect(Path file, int cacheKib) throws SQLException {
        // The driver otherwise follows every INSERT with a statement of its own for last_insert_rowid(), prepared
        // and finalized each time: a third of a flush's Java time (JFR), for keys no one asks for.
        org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
        config.setGetGeneratedKeys(false);
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            // NORMAL: in WAL mode a commit is not synced, but a power loss leaves the file as of an earlier commit,
            // never damaged, so its checkpoint still holds (OFF could leave pages half written under a readable one)
            statement.execute("PRAGMA synchronous=NORMAL");
            statement.execute("PRAGMA cache_size=-" + cacheKib);
            statement.execute("PRAGMA busy_timeout=10000");
            statement.execute("PRAGMA temp_store=MEMORY");
        }
        return connection;
    }

    /** Whether SQLite's native library loads on this machine (it ships for the platforms the jar names). */
    static boolean available() {
        try {
            Class.forName("org.sqlite.JDBC");
            return org.sqlite.SQLiteJDBCLoader.initialize();
        } catch (Exception | LinkageError e) {
            return false;
        }
    }

    Path file() {
        return file;
    }

    /** The value under the key, or null. */
    byte[] get(int store, byte[] key) {
        Reader reader = borrow();
        try {
            PreparedStatement get = reader.get;
            get.setInt(1, store);
            get.setBytes(2, key);
            try (ResultSet result = get.executeQuery()) {
                return result.next() ? result.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading the rows file failed: " + e.getMessage(), e);
        } finally {
            readers.add(reader);
        }
    }

    /**
     * Up to {@code limit} rows with {@code low <= key < high} (high null: unbounded), ascending or descending, as
     * pairs of key and value.
     */
    List<byte[][]> range(int store, byte[] low, byte[] high, boolean descending, int limit) {
        Reader reader = borrow();
        try {
            PreparedStatement statement = descending
                    ? (high == null ? reader.descendingOpen : reader.descending)
                    : (high == null ? reader.ascendingOpen : reader.ascending);
            int i = 1;
            statement.setInt(i++, store);
            statement.setBytes(i++, low);
            if (high != null) {
                statement.setBytes(i++, high);
            }
            statement.setInt(i, limit);
            List<byte[][]> rows = new ArrayList<>(Math.min(limit, 64));
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(new byte[][] {result.getBytes(1), result.getBytes(2)});
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("reading the rows file failed: " + e.getMessage(), e);
        } finally {
            readers.add(reader);
        }
    }

    /**
     * Writes a layer's rows (an empty value deletes), after removing every row of the stores dropped meanwhile, in
     * one transaction, in batches (one call into SQLite per
     * batch, not per row). A layer holds a key once, so its deletions and upserts commute.
     */
    void write(Iterable<Change> changes, java.util.Collection<Integer> droppedStores) {
        try {
            for (int store : droppedStores) {
                dropStore.setInt(1, store);
                dropStore.executeUpdate();
            }
            int upserts = 0;
            int deletes = 0;
            for (Change change : changes) {
                if (change.value().length == 0) {
                    delete.setInt(1, change.store());
                    delete.setBytes(2, change.key());
                    delete.addBatch();
                    if (++deletes == BATCH) {
                        delete.executeBatch();
                        deletes = 0;
                    }
                } else {
                    upsert.setInt(1, change.store());
                    upsert.setBytes(2, change.key());
                    upsert.setBytes(3, change.value());
                    upsert.addBatch();
                    if (++upserts == BATCH) {
                        upsert.executeBatch();
                        upserts = 0;
                    }
                }
            }
            if (upserts > 0) {
                upsert.executeBatch();
            }
            if (deletes > 0) {
                delete.executeBatch();
            }
            writer.commit();
        } catch (SQLException e) {
            try {
                upsert.clearBatch();
                delete.clearBatch();
                writer.rollback();
            } catch (SQLException ignored) {
                // the first failure is the one to report
            }
            throw new IllegalStateException("writing the rows file failed: " + e.getMessage(), e);
        }
    }

    /** The file's size and its write-ahead log's, in bytes. */
    long bytesOnDisk() {
        long total = 0;
        for (String suffix : new String[] {"", "-wal"}) {
            try {
                total += Files.size(file.resolveSibling(file.getFileName() + suffix));
            } catch (java.io.IOException e) {
                // not there (yet)
            }
        }
        return total;
    }

    private Reader borrow() {
        try {
            return readers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for a connection to the rows file", e);
        }
    }

    @Override
    public void close() {
        List<Reader> all = new ArrayList<>();
        readers.drainTo(all);
        for (Reader reader : all) {
            closeQuietly(reader.connection);
        }
        closeQuietly(writer);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing
        }
    }

    /** A change to write: an empty value removes the row. */
    record Change(int store, byte[] key, byte[] value) {
    }

    /** A reading connection and its statements. */
    private static final class Reader {
        final Connection connection;
        final PreparedStatement get;
        final PreparedStatement ascending;
        final PreparedStatement ascendingOpen;
        final PreparedStatement descending;
        final PreparedStatement descendingOpen;

        Reader(Connection connection) throws SQLException {
            this.connection = connection;
            this.get = connection.prepareStatement("SELECT v FROM rows WHERE store = ? AND k = ?");
            this.ascending = connection.prepareStatement(
                    "SELECT k, v FROM rows WHERE store = ? AND k >= ? AND k < ? ORDER BY k LIMIT ?");
            this.ascendingOpen = connection.prepareStatement(
                    "SELECT k, v FROM rows WHERE store = ? AND k >= ? ORDER BY k LIMIT ?");
            this.descending = connection.prepareStatement(
                    "SELECT k, v FROM rows WHERE store = ? AND k >= ? AND k < ? ORDER BY k DESC LIMIT ?");
            this.descendingOpen = connection.prepareStatement(
                    "SELECT k, v FROM rows WHERE store = ? AND k >= ? ORDER BY k DESC LIMIT ?");
        }
    }
}
