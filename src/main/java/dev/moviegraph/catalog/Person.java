package dev.moviegraph.catalog;

/** A person's own details (an actor, director or writer alike), as held by the person item. */
public record Person(PersonId id, String name, Integer birthYear, Integer deathYear) {
}
