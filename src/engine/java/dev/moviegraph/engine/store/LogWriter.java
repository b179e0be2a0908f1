package dev.moviegraph.engine.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends framed records to the current generation file with group commit: a writer copies its record
 * into the shared buffer (a short critical section), then makes sure the buffer is written up to its
 * record. Whoever gets the flush lock first writes everything appended so far in one {@code write()}
 * (and, when asked, one {@code fsync}), so threads arriving meanwhile find their record written already.
 * A record is handed to the operating system before {@link #append} returns.
 */
final class LogWriter implements AutoCloseable {
    private static final int INITIAL = 1 << 20;

    private final ReentrantLock appendLock = new ReentrantLock();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final boolean syncEveryWrite;

    /** Guarded by appendLock. */
    private ByteBuffer pending = ByteBuffer.allocateDirect(INITIAL);
    /** Guarded by flushLock: what the flusher writes from while appenders fill {@link #pending}. */
    private ByteBuffer writing = ByteBuffer.allocateDirect(INITIAL);
    /** Bytes appended since this writer started (a logical position); guarded by appendLock. */
    private long appended;
    /** Bytes handed to the OS; only grows. */
    private volatile long written;
    /** Set once a write failed: nothing is accepted after it. */
    private volatile IOException failure;

    private volatile FileChannel channel;
    private volatile long generation;
    /** Size of the current generation file, as it will be once everything appended is written. */
    private volatile long fileBytes;
    private volatile boolean closed;

    LogWriter(FileChannel channel, long generation, long fileBytes, boolean syncEveryWrite) {
        this.channel = channel;
        this.generation = generation;
        this.fileBytes = fileBytes;
        this.syncEveryWrite = syncEveryWrite;
    }

    long generation() {
        return generation;
    }

    long fileBytes() {
        return fileBytes;
    }

    FileChannel channel() {
        return channel;
    }

    /** Appends one framed record (or several, back to back) and returns once it is written. */
    void append(byte[] bytes, int offset, int length) {
        long mine = add(bytes, offset, length);
        flush(mine);
    }

    /** Appends without waiting for the write; {@link #flush} later. */
    long add(byte[] bytes, int offset, int length) {
        appendLock.lock();
        try {
            return addLocked(bytes, offset, length);
        } finally {
            appendLock.unlock();
        }
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

    boolean holdsAppends() {
        return appendLock.isHeldByCurrentThread();
    }

    /** Throws when the journal can take no more records (closed, or a write failed). */
    void checkOpen() {
        check();
    }

    /** {@link #lockAppends} held: adds a framed record; returns the logical position to {@link #flush} to. */
    long addLocked(byte[] bytes, int offset, int length) {
        check();
        if (pending.remaining() < length) {
            ByteBuffer grown = ByteBuffer.allocateDirect(Math.max(pending.capacity() * 2, pending.position() + length));
            pending.flip();
            grown.put(pending);
            pending = grown;
        }
        pending.put(bytes, offset, length);
        appended += length;
        fileBytes += length;
        return appended;
    }

    /** Returns once everything appended up to the logical position {@code upTo} is written. */
    void flush(long upTo) {
        if (written >= upTo) {
            check();
            return;
        }
        flushLock.lock();
        try {
            if (written >= upTo) {
                check();
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
        appendLock.lock();
        try {
            ByteBuffer full = pending;
            pending = writing;
            writing = full;
            upTo = appended;
        } finally {
            appendLock.unlock();
        }
        writing.flip();
        try {
            FileChannel target = channel;
            while (writing.hasRemaining()) {
                target.write(writing);
            }
            if (syncEveryWrite) {
                target.force(false);
            }
        } catch (IOException e) {
            failure = e;
            throw new UncheckedIOException("The journal could not be written: " + e.getMessage(), e);
        } finally {
            writing.clear();
            if (writing.capacity() > 8 * INITIAL) {
                writing = ByteBuffer.allocateDirect(INITIAL); // a burst of big records is over
            }
        }
        written = upTo;
    }

    /**
     * Writes out what is pending to the current file, then makes {@code next} the file appends go to, and
     * runs {@code first} (which may {@link #addLocked}) before any other appender gets in.
     */
    void switchTo(FileChannel next, long nextGeneration, Runnable first) {
        flushLock.lock();
        try {
            appendLock.lock();
            try {
                check();
                if (pending.position() > 0) {
                    writeOutLocked();
                }
                FileChannel previous = channel;
                if (syncEveryWrite) {
                    previous.force(false);
                }
                channel = next;
                generation = nextGeneration;
                fileBytes = next.size();
                first.run();
            } catch (IOException e) {
                failure = e;
                throw new UncheckedIOException("The journal could not be written: " + e.getMessage(), e);
            } finally {
                appendLock.unlock();
            }
        } finally {
            flushLock.unlock();
        }
    }

    /** Both locks held. */
    private void writeOutLocked() throws IOException {
        pending.flip();
        try {
            while (pending.hasRemaining()) {
                channel.write(pending);
            }
        } finally {
            pending.clear();
        }
        written = appended;
    }

    /** fsync of the current file (an interval sync's tick). */
    void force() {
        FileChannel current = channel;
        if (closed || !current.isOpen()) {
            return;
        }
        try {
            current.force(false);
        } catch (IOException e) {
            if (!closed) {
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
                    if (failure == null && pending.position() > 0) {
                        writeOutLocked();
                    }
                    if (failure == null) {
                        channel.force(false);
                    }
                } finally {
                    closed = true;
                    channel.close();
                }
            } finally {
                appendLock.unlock();
            }
        } finally {
            flushLock.unlock();
        }
    }
}
