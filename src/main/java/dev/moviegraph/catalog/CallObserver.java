package dev.moviegraph.catalog;

/** Told about every store call once it has finished (a request's receipt, metrics). */
@FunctionalInterface
public interface CallObserver {
    CallObserver NONE = call -> { };

    void completed(StoreCall call);
}
