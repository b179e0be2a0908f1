package dev.moviegraph.catalog;

/** A call a read would make, and at most how many of it. */
public record PlannedCall(AccessPattern pattern, int calls) {
}
