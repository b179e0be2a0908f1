package dev.moviegraph.catalog;

/**
 * A list that lives in one item collection or index partition: a movie's cast, crew, awards, titles and
 * monthly totals, a person's credits by role and awards. A {@link CollectionRead} asks for
 * any parts of one collection together; the store answers them with the fewest requests.
 */
public enum Part {
    CAST(Collection.MOVIE, Credit.class, Role.CAST),
    DIRECTORS(Collection.MOVIE, Credit.class, Role.DIRECTOR),
    WRITERS(Collection.MOVIE, Credit.class, Role.WRITER),
    TOTALS(Collection.MOVIE, MonthlyStreams.class, null),
    /** A movie's awards and nominations, newest first. */
    MOVIE_AWARDS(Collection.MOVIE, Award.class, null),
    /** The titles a movie is known by in other regions and languages, in IMDb's order. */
    TITLES(Collection.MOVIE, MovieTitle.class, null),
    ACTED(Collection.PERSON, Credit.class, Role.CAST),
    DIRECTED(Collection.PERSON, Credit.class, Role.DIRECTOR),
    WROTE(Collection.PERSON, Credit.class, Role.WRITER),
    /** A person's awards and nominations, newest first. */
    PERSON_AWARDS(Collection.PERSON, Award.class, null),
    /** A viewer's watchlist, newest first. */
    WATCHLIST(Collection.VIEWER, WatchlistEntry.class, null);

    /** Whose list it is: a movie's item collection, a person's credits, a signed-in viewer's own lists. */
    public enum Collection {
        MOVIE,
        PERSON,
        VIEWER
    }

    private final Collection collection;
    private final Class<? extends Record> itemType;
    private final Role role;

    Part(Collection collection, Class<? extends Record> itemType, Role role) {
        this.collection = collection;
        this.itemType = itemType;
        this.role = role;
    }

    public Collection collection() {
        return collection;
    }

    /** The record type of the items it lists. */
    public Class<? extends Record> itemType() {
        return itemType;
    }

    /** The role of the credits it lists, or null when it lists monthly totals. */
    public Role role() {
        return role;
    }

    /** The part of a person's credits in this role. */
    public static Part ofPerson(Role role) {
        return switch (role) {
            case CAST -> ACTED;
            case DIRECTOR -> DIRECTED;
            case WRITER -> WROTE;
        };
    }
}
