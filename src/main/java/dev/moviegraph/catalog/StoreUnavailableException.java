package dev.moviegraph.catalog;

/** The store could not answer part of a read in time (still throttled after every retry). */
public final class StoreUnavailableException extends RuntimeException {
    public StoreUnavailableException(String message) {
        super(message);
    }
}
