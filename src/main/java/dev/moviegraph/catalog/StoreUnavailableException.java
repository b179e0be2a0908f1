package dev.moviegraph.catalog;

/**
 * The store could not answer: it is unreachable or failing, still throttling after every retry, or still
 * leaving keys unprocessed after every round. The store adapter translates its client's exceptions into this one at
 * its boundary, so nothing above it knows the client library; the message is ours and safe to show, and
 * the client's exception stays as the cause, for the log only. Whether the store was throttling matters
 * to clients: it tells them to come back a little later rather than that something is down.
 */
public final class StoreUnavailableException extends RuntimeException {
    /** Why the store could not answer. */
    public enum Reason {
        /** The store is too busy: it kept throttling the call through every retry. */
        THROTTLED,
        /** The store is unreachable or failing, or could not complete the read in its rounds. */
        UNAVAILABLE
    }

    private final Reason reason;

    /** An unavailable store, with no cause of the client's to keep. */
    public StoreUnavailableException(String message) {
        this(Reason.UNAVAILABLE, message, null);
    }

    /** @param cause the store client's exception, kept for the log; may be null */
    public StoreUnavailableException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        if (reason == null) {
            throw new IllegalArgumentException("a StoreUnavailableException needs a reason");
        }
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** Whether the store was throttling (too busy) rather than down. */
    public boolean throttled() {
        return reason == Reason.THROTTLED;
    }
}
