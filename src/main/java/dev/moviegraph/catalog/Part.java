package dev.moviegraph.catalog;

/**
 * A list that lives in one item collection or index partition: a movie's cast, crew, awards and monthly
 * totals, a person's credits by role and awards, a month's totals by streams. A {@link CollectionRead} asks for
 * any parts of one collection together; the store answers them with the fewest requests.
 */
public enum Part {
    CAST(Collection.MOVIE, Role.CAST),
    DIRECTORS(Collection.MOVIE, Role.DIRECTOR),
    WRITERS(Collection.MOVIE, Role.WRITER),
    TOTALS(Collection.MOVIE, null),
    /** A movie's awards and nominations, newest first. */
    MOVIE_AWARDS(Collection.MOVIE, null),
    ACTED(Collection.PERSON, Role.CAST),
    DIRECTED(Collection.PERSON, Role.DIRECTOR),
    WROTE(Collection.PERSON, Role.WRITER),
    /** A person's awards and nominations, newest first. */
    PERSON_AWARDS(Collection.PERSON, null),
    TOP(Collection.MONTH, null);

    /** Whose list it is: a movie's item collection, a person's credits, a month's totals. */
    public enum Collection {
        MOVIE,
        PERSON,
        MONTH
    }

    private final Collection collection;
    private final Role role;

    Part(Collection collection, Role role) {
        this.collection = collection;
        this.role = role;
    }

    public Collection collection() {
        return collection;
    }

    /** The role of the credits it lists, or null when it lists monthly totals. */
    public Role role() {
        return role;
    }

    public boolean isCredits() {
        return role != null;
    }

    public boolean isAwards() {
        return this == MOVIE_AWARDS || this == PERSON_AWARDS;
    }

    /** The part of a movie's collection that lists credits of this role. */
    public static Part ofMovie(Role role) {
        return switch (role) {
            case CAST -> CAST;
            case DIRECTOR -> DIRECTORS;
            case WRITER -> WRITERS;
        };
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
