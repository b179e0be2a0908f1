package dev.moviegraph.catalog;

/** What a search finds: movies, people, or both ranked together. */
public enum SearchKind {
    MOVIE,
    PERSON
}
