package dev.moviegraph.catalog;

/**
 * The kinds of access the {@link CatalogReader} and {@link CatalogWriter} ports offer; every access
 * pattern of a store serves one, and every field of the schema is bound to the kinds it uses.
 */
public enum CatalogAccess {
    /** {@link CatalogReader#fetch}: items by key, any types mixed. */
    ITEMS_BY_KEY,
    /** {@link CatalogReader#readMovie}: parts of one movie's item collection. */
    MOVIE_COLLECTION,
    /** {@link CatalogReader#readFilmography}: an actor's page of movies. */
    FILMOGRAPHY,
    /** {@link CatalogReader#topMovies}: the most streamed movies of a month. */
    TOP_MOVIES,
    /** {@link CatalogWriter#putMovie}, {@link CatalogWriter#putActor}: an item and its copies. */
    PUT_ENTITY,
    /** {@link CatalogWriter#castActor}, {@link CatalogWriter#uncastActor}. */
    CAST,
    /** {@link CatalogWriter#deleteMovie}: a whole item collection. */
    DELETE_MOVIE,
    /** {@link CatalogWriter#recordStream}. */
    RECORD_STREAM
}
