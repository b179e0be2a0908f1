package dev.moviegraph.catalog;

/**
 * A person with their best-known title (null when none is known), as an import writes them: the store
 * writes the person item and the person's search entries, ranked by that title's votes.
 */
public record RankedPerson(Person person, KnownFor knownFor) {
}
