package dev.moviegraph.dynamo.client;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * How a wrapper of the client ({@link InFlightLimit}, {@link OutageBreaker}) hands back the SDK's call:
 * the caller's future ends only after the wrapper has seen the call end, and cancelling it cancels the
 * SDK's call (which aborts its HTTP exchange).
 */
final class Relay {
    private Relay() {
    }

    /** Ends {@code result} as {@code sent} ends, once {@code onEnd} has seen its failure (null on success). */
    static void relay(CompletableFuture<?> sent, CompletableFuture<Object> result, Consumer<Throwable> onEnd) {
        sent.whenComplete((value, failure) -> {
            onEnd.accept(failure);
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(failure);
            }
        });
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                sent.cancel(true);
            }
        });
    }
}
