package dev.moviegraph.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One response written in pieces as they come (multipart parts, server-sent events), straight to the
 * servlet's stream: no compression and no buffer in the way, each batch of pieces flushed as soon as it
 * is written. Pieces are written in order by one writer at a time on a thread of {@link #WRITERS}, never
 * on the thread that produced them (a DataLoader's or the SDK's, which a slow client must not hold up).
 * A client that stops reading is cut off once {@link #MAX_WAITING} pieces wait; a client that went away
 * is noticed at the next write, and {@link #onGone} hears of it (the producer stops). {@link #done} completes
 * when the last piece is out or the client is gone: the request ends there.
 */
final class ResponseStream {
    private static final Logger LOG = LoggerFactory.getLogger(ResponseStream.class);
    /** Pieces waiting for a client that does not read, after which it is cut off. */
    static final int MAX_WAITING = 256;
    /** The threads that write streamed responses: as many as are writing, idle ones gone after a minute. */
    static final ExecutorService WRITERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), new DaemonThreads("moviegraph-stream-"));

    private final OutputStream out;
    private final Executor writers;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final ArrayDeque<byte[]> waiting = new ArrayDeque<>();
    private final List<Runnable> gone = new CopyOnWriteArrayList<>();
    private boolean writing;
    private boolean ending;
    private boolean closed;
    private boolean lost;

    private ResponseStream(OutputStream out, Executor writers) {
        this.out = out;
        this.writers = writers;
    }

    /**
     * Starts the response: status 200 and {@code contentType}, never stored by a cache nor buffered by a
     * proxy ({@code X-Accel-Buffering: no}, nginx's switch), then its pieces.
     */
    static ResponseStream open(HttpServletResponse response, String contentType, String vary) throws IOException {
        response.setStatus(200);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", CacheHeaders.NO_STORE);
        response.setHeader("X-Accel-Buffering", "no");
        response.setHeader("Vary", vary);
        return new ResponseStream(response.getOutputStream(), WRITERS);
    }

    /** Runs when the client went away before the end (a failed write): the producer should stop. */
    void onGone(Runnable stop) {
        gone.add(stop);
        boolean already;
        synchronized (this) {
            already = lost;
        }
        if (already) {
            stop.run(); // gone before it was registered (stops are idempotent: it may run twice)
        }
    }

    /** Completes once the last piece is written or the client is gone. */
    CompletableFuture<Void> done() {
        return done;
    }

    /** Whether the stream still takes pieces. */
    synchronized boolean open() {
        return !closed && !ending;
    }

    void send(String piece) {
        enqueue(piece.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The last piece: the response ends after it. */
    void end(String piece) {
        enqueue(piece.getBytes(StandardCharsets.UTF_8), true);
    }

    private void enqueue(byte[] piece, boolean last) {
        boolean cutOff = false;
        synchronized (this) {
            if (closed || ending) {
                return;
            }
            if (waiting.size() >= MAX_WAITING) {
                cutOff = true;
            } else {
                waiting.add(piece);
                ending = last;
                if (writing) {
                    return;
                }
                writing = true;
            }
        }
        if (cutOff) {
            LOG.debug("A streamed response's client stopped reading: {} pieces waiting", MAX_WAITING);
            fail();
            return;
        }
        writers.execute(this::drain);
    }

    /** Writes what waits, flushes, and again until nothing waits; the writer's turn ends there. */
    private void drain() {
        while (true) {
            boolean finished;
            try {
                while (true) {
                    byte[] piece;
                    synchronized (this) {
                        piece = waiting.poll();
                    }
                    if (piece == null) {
                        break;
                    }
                    out.write(piece);
                }
                out.flush();
            } catch (IOException | RuntimeException e) {
                LOG.debug("A streamed response's client went away", e);
                fail();
                return;
            }
            synchronized (this) {
                if (!waiting.isEmpty()) {
                    continue;
                }
                writing = false;
                finished = ending && !closed;
                if (finished) {
                    closed = true;
                }
            }
            if (finished) {
                done.complete(null);
            }
            return;
        }
    }

    /** The client is gone (or cut off): nothing more is written, the producer is told, the request ends. */
    void fail() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            lost = true;
            waiting.clear();
        }
        for (Runnable stop : gone) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                LOG.warn("Stopping a streamed response's producer failed", e);
            }
        }
        done.complete(null);
    }
}
