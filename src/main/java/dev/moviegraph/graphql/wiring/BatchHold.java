package dev.moviegraph.graphql.wiring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Holds one request's DataLoader batches while many deferred fragments start, so that every instance of a
 * fragment at one level loads in one batch. graphql-java dispatches each deferred fragment instance on its
 * own (one call stack each): the fragments of a list of ten would make ten BatchGetItems where the same
 * query without {@code @defer} makes one. While the hold is taken ({@link #hold()}, by the code that starts
 * the deferred fragments and by the completion of a held batch), a loader's batch is noted, not run; when
 * the last holder lets go, each loader's noted batches run as one, and their results are handed back to
 * each in its own order under a new hold, so that the next level's loads, made as those results complete,
 * batch together too. Without a hold (every request that defers nothing) a batch runs at once, as before.
 * Either way its answer re-enters the engine in the request's {@link EngineTurns}: an answer at once is
 * handed over after the dispatch that sent it, and a held batch's answers are handed back in one turn.
 */
public final class BatchHold {
    /** One loader's batch function over keys and their contexts (the GraphQL paths they serve). */
    @FunctionalInterface
    public interface Batch<K, V> {
        CompletableFuture<List<V>> load(List<K> keys, List<Object> contexts);
    }

    /** A batch noted while held: its keys, and what its DataLoader waits on. */
    private record Noted<K, V>(List<K> keys, List<Object> contexts, CompletableFuture<List<V>> result) {
    }

    private final Map<Batch<?, ?>, List<Noted<?, ?>>> noted = new LinkedHashMap<>();
    private final EngineTurns turns;
    private int holders;

    public BatchHold(EngineTurns turns) {
        this.turns = turns;
    }

    /**
     * Runs {@code work} (the start of the deferred fragments) in the request's turn under the hold: its
     * batches are noted, and run together once it returns.
     */
    public void whileHeld(Runnable work) {
        turns.run(() -> {
            hold();
            try {
                work.run();
            } finally {
                release();
            }
        });
    }

    /** Takes the hold: batches wait until every holder has let go. */
    private synchronized void hold() {
        holders++;
    }

    /** Lets go; the last holder runs what waited, each loader's batches as one. */
    private void release() {
        Map<Batch<?, ?>, List<Noted<?, ?>>> waiting;
        synchronized (this) {
            if (--holders > 0 || noted.isEmpty()) {
                return;
            }
            waiting = new LinkedHashMap<>(noted);
            noted.clear();
        }
        waiting.forEach(this::runTogether);
    }

    /** Runs {@code batch} now (its answer handed over in turn), or notes it until the hold is let go. */
    public <K, V> CompletableFuture<List<V>> load(Batch<K, V> batch, List<K> keys, List<Object> contexts) {
        synchronized (this) {
            if (holders > 0) {
                CompletableFuture<List<V>> result = new CompletableFuture<>();
                noted.computeIfAbsent(batch, ignored -> new ArrayList<>()).add(new Noted<>(keys, contexts, result));
                return result;
            }
        }
        return turns.answered(batch.load(keys, contexts));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void runTogether(Batch<?, ?> batch, List<Noted<?, ?>> batches) {
        // A key asked for by two fragments is read once (a loader's cache already keeps most such twins apart).
        Map<Object, Integer> positions = new LinkedHashMap<>();
        List<Object> contexts = new ArrayList<>();
        for (Noted<?, ?> one : batches) {
            for (int i = 0; i < one.keys().size(); i++) {
                if (positions.putIfAbsent(one.keys().get(i), positions.size()) == null) {
                    contexts.add(i < one.contexts().size() ? one.contexts().get(i) : null);
                }
            }
        }
        CompletableFuture<List<Object>> together;
        try {
            together = ((Batch) batch).load(new ArrayList<>(positions.keySet()), contexts);
        } catch (RuntimeException e) {
            together = CompletableFuture.failedFuture(e);
        }
        // Handed back as an unheld batch's answer is: after the code running now, in the request's turn.
        turns.answered(together).whenComplete((values, failure) -> {
            hold();
            try {
                for (Noted<?, ?> one : batches) {
                    CompletableFuture<List<Object>> result = (CompletableFuture) one.result();
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else {
                        result.complete(one.keys().stream().map(key -> values.get(positions.get(key))).toList());
                    }
                }
            } finally {
                release();
            }
        });
    }
}
