package dev.moviegraph.catalog;

/** An actor's own details, as held by the actor item. */
public record Actor(ActorId id, String name, Integer birthYear) {
}
