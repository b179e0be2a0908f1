package dev.moviegraph.catalog;

import java.time.YearMonth;

/**
 * What recording a stream did: {@code counted} is false when the stream id was already recorded (a
 * client retry), in which case nothing changed; {@code total} is the movie's total for the month as it
 * stands (in stream mode, as aggregated so far).
 */
public record StreamReceipt(String streamId, YearMonth month, boolean counted, long total) {
}
