package dev.moviegraph.graphql;

import java.util.Locale;
import java.util.Optional;

/** What the Moviegraph-Trace request header asks for. */
public enum TraceMode {
    /** Only the receipt ({@code extensions.cost}), which every response carries. */
    OFF,
    /** The receipt and every DynamoDB call ({@code extensions.trace}). */
    ON,
    /** Do not execute; answer with the calls the query would make ({@code extensions.plan}). */
    PLAN;

    public static final String HEADER = "Moviegraph-Trace";

    /** The mode a header value asks for; empty when the value is none of off, on and plan. */
    public static Optional<TraceMode> fromHeader(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of(OFF);
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "off" -> Optional.of(OFF);
            case "on" -> Optional.of(ON);
            case "plan" -> Optional.of(PLAN);
            default -> Optional.empty();
        };
    }
}
