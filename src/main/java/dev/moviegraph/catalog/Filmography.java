package dev.moviegraph.catalog;

/** The answer to a {@link FilmographyRead}; actor is null when not asked for or unknown. */
public record Filmography(Actor actor, CastPage movies) {
}
