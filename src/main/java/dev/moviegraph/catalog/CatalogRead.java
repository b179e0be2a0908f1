package dev.moviegraph.catalog;

/** The kinds of read the {@link CatalogReader} port offers; every access pattern of a store serves one. */
public enum CatalogRead {
    /** {@link CatalogReader#fetch}: items by key, any types mixed. */
    ITEMS_BY_KEY,
    /** {@link CatalogReader#readMovie}: parts of one movie's item collection. */
    MOVIE_COLLECTION,
    /** {@link CatalogReader#readFilmography}: an actor's page of movies. */
    FILMOGRAPHY,
    /** {@link CatalogReader#topMovies}: the most streamed movies of a month. */
    TOP_MOVIES
}
