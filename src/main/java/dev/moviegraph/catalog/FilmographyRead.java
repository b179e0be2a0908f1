package dev.moviegraph.catalog;

/** An actor's filmography page, optionally with the actor item itself (both come from one index partition). */
public record FilmographyRead(ActorId id, boolean includeActor, PageRequest page) {
}
