package dev.moviegraph.catalog;

/**
 * The request this store call belonged to was stopped: it ran out of time, or it read more than its
 * budget. Every call of the request still in flight is cancelled and no new one is sent.
 */
public final class RequestStoppedException extends RuntimeException {
    /** Why a request was stopped. */
    public enum Reason {
        /** Past the request's time limit. */
        TIME_LIMIT,
        /** Past the read units one request may consume. */
        READ_BUDGET
    }

    private final Reason reason;

    public RequestStoppedException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
