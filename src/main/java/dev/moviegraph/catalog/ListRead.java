package dev.moviegraph.catalog;

/** A page of one {@link MovieList}. */
public record ListRead(MovieList list, PageRequest page) {
}
