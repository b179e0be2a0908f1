package dev.moviegraph.engine.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends framed records to the current segment with group commit: a writer copies its record into the
 * shared buffer (a short critical section), then makes sure the buffer is written up to its record.
 * Whoever gets the flush lock first writes everything appended so far in one {@code write()} (and, when
 * asked, one {@code fsync}), so threads arriving meanwhile find their record written already. A record is
 * handed to the operating system before {@link #flush} returns.
 *
 * <p>Files are written through {@link RandomAccessFile}, not a {@code FileChannel}: an interrupted thread
 * (a pool shutting down, a request cancelled) would close a channel under everyone's feet; these writes
 * are not interruptible.
 */
final class LogWriter implements AutoCloseable {
    private static final int INITIAL = 1 << 20;

    private final ReentrantLock appendLock = new ReentrantLock();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final boolean syncEveryWrite;

    /** Guarded by appendLock: what is appended and not yet taken by a flusher. */
    private byte[] pending = new byte[INITIAL];
    private int pendingSize;
    /** Guarded by flushLock: what the flusher writes from while appenders fill {@link #pending}. */
    private byte[] writing = new byte[INITIAL];
    /** Bytes appended since this writer started (a logical position); guarded by appendLock. */
    private long appended;
    /** Bytes handed to the OS; only grows. */
    private volatile long written;
    /** Set once a write failed: nothing is accepted after it. */
    private volatile IOException failure;

    private volatile RandomAccessFile file;
    private volatile long generation;
    /** Size of the current segment, as it will be once everything appended is written. */
    private volatile long fileBytes;
    private volatile boolean closed;

    /** {@code file} positioned where appends go. */
    LogWriter(RandomAccessFile file, long generation, boolean syncEveryWrite) throws IOException {
        this.file = file;
        this.generation = generation;
        this.fileBytes = file.length();
        this.syncEveryWrite = syncEveryWrite;
    }

    /** A daemon thread that syncs the file every {@code interval} until this writer closes (or it is interrupted). */
    Thread syncEvery(java.time.Duration interval) {
        long millis = Math.max(1, interval.toMillis());
        Thread thread = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    return;
                }
                if (!closed) {
                    force();
                }
            }
        }, "engine-journal-fsync");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    long generation() {
        return generation;
    }

    long fileBytes() {
        return fileBytes;
    }

    /**
     * Holds off every other appender (reentrant): what the holder does and appends meanwhile is one step in
     * the journal's order. Never wait for a flush while holding it.
     */
    void lockAppends() {
        appendLock.lock();
    }

    void unlockAppends() {
        appendLock.unlock();
    }

    /** Throws when the journal can take no more records (closed, or a write failed). */
    void checkOpen() {
        check();
    }

    /** {@link #lockAppends} held: adds framed records; returns the logical position to {@link #flush} to. */
    long addLocked(byte[] bytes, int offset, int length) {
        check();
        if (pending.length - pendingSize < length) {
            byte[] grown = new byte[Math.max(pending.length * 2, pendingSize + length)];
            System.arraycopy(pending, 0, grown, 0, pendingSize);
            pending = grown;
        }
        System.arraycopy(bytes, offset, pending, pendingSize, length);
        pendingSize += length;
        appended += length;
        fileBytes += length;
        return appended;
    }

    /** Returns once everything appended up to the logical position {@code upTo} is written. */
    void flush(long upTo) {
        if (written >= upTo) {
            return;
        }
        flushLock.lock();
        try {
            if (written >= upTo) {
                return;
            }
            check();
            writeOut();
        } finally {
            flushLock.unlock();
        }
    }

    /** Everything appended so far, written. */
    void flushAll() {
        long upTo;
        appendLock.lock();
        try {
            upTo = appended;
        } finally {
            appendLock.unlock();
        }
        flush(upTo);
    }

    /** flushLock held: swaps the buffers and writes what was pending. */
    private void writeOut() {
        long upTo;
        int size;
        appendLock.lock();
        try {
            byte[] full = pending;
            size = pendingSize;
            pending = writing;
            pendingSize = 0;
            writing = full;
            upTo = appended;
        } finally {
            appendLock.unlock();
        }
        try {
            RandomAccessFile target = file;
            target.write(writing, 0, size);
            if (syncEveryWrite) {
                target.getFD().sync();
            }
        } catch (IOException e) {
            failure = e;
            throw new UncheckedIOException("The journal could not be written: " + e.getMessage(), e);
        } finally {
            if (writing.length > 8 * INITIAL) {
                writing = new byte[INITIAL]; // a burst of big records is over
            }
        }
        written = upTo;
    }

    /**
     * Writes out what is pending to the current segment, then makes {@code next} (positioned at its end) the file
     * appends go to; returns the previous one, which the caller closes.
     */
    RandomAccessFile switchTo(RandomAccessFile next, long nextGeneration) throws IOException {
        flushLock.lock();
        try {
            appendLock.lock();
            try {
                check();
                writeOutLocked();
                RandomAccessFile previous = file;
                if (syncEveryWrite) {
                    previous.getFD().sync();
                }
                file = next;
                generation = nextGeneration;
                fileBytes = next.length();
                return previous;
            } finally {
                appendLock.unlock();
            }
        } finally {
            flushLock.unlock();
        }
    }

    /** Both locks held. */
    private void writeOutLocked() throws IOException {
        if (pendingSize > 0) {
            try {
                file.write(pending, 0, pendingSize);
            } catch (IOException e) {
                failure = e;
                throw e;
            } finally {
                pendingSize = 0;
            }
        }
        written = appended;
    }

    /** fsync of the current segment (an interval sync's tick). */
    void force() {
        RandomAccessFile current = file;
        if (closed) {
            return;
        }
        try {
            current.getFD().sync(); // without a lock: writers go on meanwhile
        } catch (IOException e) {
            if (current == file && !closed) { // not a segment a compaction closed meanwhile
                failure = e;
            }
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("The journal is closed");
        }
        IOException failed = failure;
        if (failed != null) {
            throw new IllegalStateException("The journal failed earlier (" + failed.getMessage()
                    + "); the engine accepts no more writes", failed);
        }
    }

    /** Writes out what is pending, syncs, and closes the file. */
    @Override
    public void close() throws IOException {
        flushLock.lock();
        try {
            appendLock.lock();
            try {
                if (closed) {
                    return;
                }
                try {
                    if (failure == null) {
                        writeOutLocked();
                        file.getFD().sync();
                    }
                } finally {
                    closed = true;
                    file.close();
                }
            } finally {
                appendLock.unlock();
            }
        } finally {
            flushLock.unlock();
        }
    }
}
