package dev.moviegraph.catalog;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;

/** One stream of a movie: its client-chosen id (the idempotency key) and when it happened. */
public record StreamRecord(MovieId movieId, String streamId, Instant at) {

    /** The month the stream counts in, in UTC. */
    public YearMonth month() {
        return YearMonth.from(at.atZone(ZoneOffset.UTC));
    }
}
