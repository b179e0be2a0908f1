package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.moviegraph.engine.store.JournalRecords.END;
import static dev.moviegraph.engine.store.JournalRecords.HISTORY;
import static dev.moviegraph.engine.store.JournalRecords.STATE;

/**
 * A journal's compaction: once the segments written since the last snapshot outgrow it, seals the current
 * segment, writes the next snapshot ({@link History}, then the live tables) while writes go on, and deletes what
 * the snapshot replaces. One at a time, in the background or when asked.
 */
final class Compactor {
    private static final System.Logger LOG = System.getLogger(Journal.class.getName());
    private static final int START_COMPACT_FLOOR = 1 << 20;

    private final Journal journal;
    private final DataFolder folder;
    private final Journal.Options options;
    private final TableNumbers numbers;

    private final Object compaction = new Object();
    private final AtomicBoolean compacting = new AtomicBoolean();
    private volatile Thread compactor;
    /** The newest snapshot's generation (-1: none) and size; segments after it, sealed, and their bytes. */
    private volatile long snapshotGeneration = -1;
    private volatile long snapshotBytes;
    private volatile long sealedBytes;

    Compactor(Journal journal, DataFolder folder, Journal.Options options, TableNumbers numbers) {
        this.journal = journal;
        this.folder = folder;
        this.options = options;
        this.numbers = numbers;
    }

    /** What the replay found: the snapshot (-1: none) and its size, and the bytes of the segments sealed after it. */
    void replayed(long snapshotGeneration, long snapshotBytes, long sealedBytes) {
        this.snapshotGeneration = snapshotGeneration;
        this.snapshotBytes = snapshotBytes;
        this.sealedBytes = sealedBytes;
    }

    /** After the replay: compacts in the background when the segments outgrew the snapshot, or some are sealed. */
    void maybeCompactAtStart(LogWriter writer) {
        long segmentsNow = sealedBytes + writer.fileBytes();
        if (segmentsNow > Math.max(START_COMPACT_FLOOR, snapshotBytes) || sealedBytes > 0) {
            compactInBackground();
        }
    }

    /** After a write: compacts in the background once the segments outgrow the snapshot and the option's floor. */
    void maybeCompact(LogWriter w) {
        if (w == null || compacting.get()) {
            return;
        }
        long segments = sealedBytes + w.fileBytes();
        if (segments > Math.max(options.compactAfterBytes(), snapshotBytes)) {
            compactInBackground();
        }
    }

    private void compactInBackground() {
        if (journal.isClosed() || !compacting.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                compactNow();
            } catch (RuntimeException e) {
                if (!journal.isClosed()) {
                    LOG.log(System.Logger.Level.WARNING, "The journal's compaction in " + folder.dir() + " failed;"
                            + " it will be tried again", e);
                }
            } finally {
                compacting.set(false);
                compactor = null;
            }
        }, "engine-journal-compaction");
        thread.setDaemon(true);
        compactor = thread;
        thread.start();
    }

    /**
     * Seals the current segment and writes a snapshot replacing it and everything before it, while writes go
     * on; then deletes what it replaced. Synchronous (the background compaction calls it too).
     */
    void compactNow() {
        synchronized (compaction) {
            if (journal.isClosed()) {
                return;
            }
            LogWriter w = journal.requireWriter();
            long sealed;
            long previousSnapshot = snapshotGeneration;
            try {
                long next = w.generation() + 1;
                RandomAccessFile previous = w.switchTo(folder.newSegment(next, options.fsyncEveryWrite()), next);
                previous.close();
                sealed = next - 1;
            } catch (IOException e) {
                throw new UncheckedIOException("The journal in " + folder.dir() + " could not start a segment: " + e,
                        e);
            }
            Path target = folder.resolve(LogFile.snapshotName(sealed));
            Path temporary = folder.resolve(LogFile.snapshotName(sealed) + ".tmp");
            try {
                SnapshotWriter snapshot = new SnapshotWriter(temporary, sealed);
                try {
                    snapshot.section(HISTORY);
                    History history = new History(snapshot,
                            System.currentTimeMillis() - options.streamRetention().toMillis() - 60_000,
                            numbers);
                    if (previousSnapshot >= 0) {
                        history.readSnapshot(folder.resolve(LogFile.snapshotName(previousSnapshot)), previousSnapshot);
                    }
                    for (long generation : folder.generations(LogFile.SEGMENT)) {
                        if (generation > previousSnapshot && generation <= sealed) {
                            LogFile.read(folder.resolve(LogFile.segmentName(generation)), generation, history);
                        }
                    }
                    if (journal.streams() != null) {
                        snapshot.sequence(journal.streams().nextSequenceNumber(), System.currentTimeMillis());
                    }
                    snapshot.section(STATE);
                    writeState(snapshot);
                    snapshot.section(END);
                    snapshot.finish();
                } finally {
                    snapshot.close();
                }
                if (journal.isClosed()) {
                    Files.deleteIfExists(temporary);
                    return;
                }
                try {
                    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                }
                folder.syncDirectory();
                // the rows' checkpoint must stand past what goes now, or a restart could not replay from it
                journal.checkpoint();
                long bytes = Files.size(target);
                for (long generation : folder.generations(LogFile.SEGMENT)) {
                    if (generation <= sealed) {
                        Files.deleteIfExists(folder.resolve(LogFile.segmentName(generation)));
                    }
                }
                if (previousSnapshot >= 0) {
                    Files.deleteIfExists(folder.resolve(LogFile.snapshotName(previousSnapshot)));
                }
                snapshotGeneration = sealed;
                snapshotBytes = bytes;
                long remaining = 0;
                for (long generation : folder.generations(LogFile.SEGMENT)) {
                    if (generation > sealed && generation < w.generation()) {
                        remaining += Files.size(folder.resolve(LogFile.segmentName(generation)));
                    }
                }
                sealedBytes = remaining;
            } catch (IOException e) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the next start deletes it
                }
                throw new UncheckedIOException("The journal's compaction in " + folder.dir() + " failed: " + e, e);
            }
        }
    }

    /** The tables as they stand, read without locks: anything changed meanwhile is in the new segment too. */
    private void writeState(SnapshotWriter snapshot) throws IOException {
        for (Table table : journal.tables().all()) {
            TableSpec spec = table.spec();
            Integer number = numbers.of(spec);
            if (number == null) {
                continue; // never declared nor written: the new segment will say all there is
            }
            snapshot.declare(number, spec);
            for (StoredItem item : table.rows()) {
                if (journal.isClosed()) {
                    return;
                }
                snapshot.put(number, item);
            }
        }
    }

    /**
     * For the journal's close (the journal closed already, so a compaction stops early): waits up to 30 seconds
     * for a background compaction, then runs {@code closing} where no compaction runs.
     */
    void stopThen(Runnable closing) {
        awaitBackground();
        synchronized (compaction) {
            closing.run();
        }
    }

    private void awaitBackground() {
        Thread background = compactor;
        if (background == null) {
            return;
        }
        try {
            background.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
