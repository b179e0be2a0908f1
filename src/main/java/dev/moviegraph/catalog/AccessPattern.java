package dev.moviegraph.catalog;

/**
 * How a store answers one kind of read, described for people: the operation, the index and the key
 * template ({@code pk = mov#{id} AND lsi1sk > billing#0000}). Stores derive these from the same
 * definitions that build their requests, so a description cannot drift from what is sent.
 */
public record AccessPattern(String name, CatalogAccess serves, String operation, String index, String keyTemplate) {
}
