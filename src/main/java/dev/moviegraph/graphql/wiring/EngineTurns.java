package dev.moviegraph.graphql.wiring;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's work inside graphql-java, one thread at a time, and never a batch's answer inside the
 * dispatch that sent it. graphql-java's per-level dispatch (with chaining) calls {@code dispatch()} on a
 * loader once per load made at the level, and attaches a field's continuation only after the dispatch its
 * last load started. An answer handed back inside that dispatch (already there when the batch returned,
 * the SDK having been quicker than the engine, or received meanwhile on an SDK thread) ran the earlier
 * fields' next level, and the dispatch's next call sent their keys before the later fields' next level
 * had loaded: one level in two requests (CI saw it; here, about one run in 150 of a query with two root
 * fields).
 *
 * <p>So answers re-enter the engine in turns. A batch's answer is handed over once the engine code
 * running now returns ({@link #answered}); while one thread runs the request's engine code (its first
 * run, or an earlier answer), an answer arriving on another thread waits in a queue, and the thread in its
 * turn runs it when done. Nothing blocks: the arriving thread goes back to its pool at once. A fetcher's
 * future completed in a turn is handed on at once ({@link #inTurn}), as without turns.
 */
public final class EngineTurns {
    private static final Logger LOG = LoggerFactory.getLogger(EngineTurns.class);

    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Thread> owner = new AtomicReference<>();

    /**
     * Runs {@code work} in this request's turn: now if this thread is in it or nobody is, else after the
     * thread in its turn is done with what it runs. A failure of {@code work} reaches the caller when the
     * caller ran it; one of work run for another thread has no caller left to reach, and is logged.
     */
    public void run(Runnable work) {
        if (owner.get() == Thread.currentThread()) {
            work.run();
        } else {
            handOver(work);
        }
    }

    /** Queues {@code work}, then runs the queue unless a thread is in its turn (this one included). */
    private void handOver(Runnable work) {
        Thread me = Thread.currentThread();
        waiting.add(work);
        Throwable failed = null;
        // Re-checked after letting go: work queued while the owner was leaving is never left behind.
        while (!waiting.isEmpty() && owner.compareAndSet(null, me)) {
            try {
                Runnable next;
                while ((next = waiting.poll()) != null) {
                    try {
                        next.run();
                    } catch (Throwable e) {
                        // Whatever one piece of work throws, the rest of the queue still runs.
                        if (next == work) {
                            failed = e;
                        } else {
                            LOG.error("An answer handed over in turn failed", e);
                        }
                    }
                }
            } finally {
                owner.set(null);
            }
        }
        if (failed instanceof RuntimeException e) {
            throw e;
        }
        if (failed instanceof Error e) {
            throw e;
        }
    }

    /**
     * Starts {@code work} in this request's turn (answers that arrive meanwhile, or are there at once, wait
     * until the start returns) and gives its outcome.
     */
    public <T> CompletableFuture<T> start(Supplier<CompletableFuture<T>> work) {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        run(() -> work.get().whenComplete((value, failure) -> complete(outcome, value, failure)));
        return outcome;
    }

    /**
     * A future completed with {@code batch}'s outcome in this request's turn, never inside the call that
     * sent the batch: an answer that is already there when the batch returns (the SDK was quicker than
     * the engine, or nothing had to be read) is handed over once the engine code running now returns.
     * graphql-java attaches a root field's continuation only after the dispatch that its last load started,
     * so an answer handed over inside that dispatch would let the earlier root fields' next level load
     * before the last one's had begun (the flaw above, on one thread).
     */
    public <T> CompletableFuture<T> answered(CompletableFuture<T> batch) {
        CompletableFuture<T> handed = new CompletableFuture<>();
        batch.whenComplete((value, failure) -> handOver(() -> complete(handed, value, failure)));
        return handed;
    }

    /**
     * {@code future}, or a future completed with its outcome in this request's turn. A future already done
     * is returned as it is: whoever waits on it runs now, on this thread, as with any answer at hand.
     */
    public <T> CompletableFuture<T> inTurn(CompletableFuture<T> future) {
        if (future.isDone()) {
            return future;
        }
        CompletableFuture<T> handed = new CompletableFuture<>();
        future.whenComplete((value, failure) -> run(() -> complete(handed, value, failure)));
        return handed;
    }

    private static <T> void complete(CompletableFuture<T> handed, T value, Throwable failure) {
        if (failure != null) {
            handed.completeExceptionally(failure);
        } else {
            handed.complete(value);
        }
    }

    /** A fetcher's value, its future (if it has one) completed in this request's turn. */
    public Object inTurn(Object fetched) {
        return fetched instanceof CompletableFuture<?> future ? inTurn(future) : fetched;
    }
}
