package dev.moviegraph.catalog;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Watches the store calls of one request: told about each call once it has finished (the receipt,
 * metrics), and, for a request with limits, the one that sends each of its read requests, so it can
 * refuse new ones and cancel those in flight when the request is stopped.
 */
@FunctionalInterface
public interface CallObserver {
    CallObserver NONE = call -> { };

    void completed(StoreCall call);

    /** Sends one store request of a read (every page and batch round goes through here). */
    default <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
        return request.get();
    }

    /** The read units one response consumed, told as soon as it arrives. */
    default void consumed(double readUnits) {
    }

    /** This observer, with {@code first} told of each completed call before it; sending and units stay this one's. */
    default CallObserver tellingFirst(java.util.function.Consumer<StoreCall> first) {
        CallObserver self = this;
        return new CallObserver() {
            @Override
            public void completed(StoreCall call) {
                first.accept(call);
                self.completed(call);
            }

            @Override
            public <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
                return self.send(request);
            }

            @Override
            public void consumed(double readUnits) {
                self.consumed(readUnits);
            }
        };
    }
}
