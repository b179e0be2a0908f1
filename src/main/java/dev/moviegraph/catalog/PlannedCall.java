package dev.moviegraph.catalog;

/**
 * A call a read would make, at most how many of it, and the read units all of them together would
 * consume at most, as the store estimates them from the items the arguments allow.
 */
public record PlannedCall(AccessPattern pattern, int calls, double readUnits) {
}
