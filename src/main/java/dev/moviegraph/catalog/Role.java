package dev.moviegraph.catalog;

/** What a person did in a movie. A person may hold several roles in one movie, each its own credit. */
public enum Role {
    CAST,
    DIRECTOR,
    WRITER
}
