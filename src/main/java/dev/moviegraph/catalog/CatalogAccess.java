package dev.moviegraph.catalog;

/**
 * The kinds of access the {@link CatalogReader} and {@link CatalogWriter} ports offer; every access
 * pattern of a store serves one, and every field of the schema is bound to the kinds it uses.
 */
public enum CatalogAccess {
    /** {@link CatalogReader#fetch}: items by key, any types mixed. */
    ITEMS_BY_KEY,
    /** {@link CatalogReader#read} of a movie: parts of its item collection. */
    MOVIE_COLLECTION,
    /** {@link CatalogReader#read} of a person: a page of their credits in one role. */
    PERSON_CREDITS,
    /** {@link CatalogReader#read} of a collection that belongs to one viewer (strongly consistent). */
    OWNED_COLLECTION,
    /** {@link CatalogWriter#addEntry}, {@link CatalogWriter#removeEntry}: one entry of a viewer's counted list. */
    LIST_ENTRY,
    /** {@link CatalogReader#search}: a page of search results by word prefix. */
    SEARCH,
    /** {@link CatalogReader#list}: a page of movies of a genre or year, or of the top rated. */
    MOVIE_LISTS,
    /** {@link CatalogReader#awardWinners}: an award's winners, of all categories or one. */
    AWARD_WINNERS,
    /** {@link CatalogWriter#recordAward}, {@link CatalogWriter#removeAward}. */
    AWARD,
    /** {@link CatalogWriter#putMovie}, {@link CatalogWriter#putPerson}: an item and its copies. */
    PUT_ENTITY,
    /** {@link CatalogWriter#credit}, {@link CatalogWriter#uncredit}. */
    CREDIT,
    /** {@link CatalogWriter#deleteMovie}: a whole item collection. */
    DELETE_MOVIE,
    /** {@link CatalogWriter#recordStream}. */
    RECORD_STREAM,
    /** {@link ChangeFeed}: the stream reader's lease, the changes it publishes and every replica's poll of them. */
    CHANGE_FEED
}
