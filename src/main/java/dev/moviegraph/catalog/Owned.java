package dev.moviegraph.catalog;

/**
 * Something that belongs to one signed-in viewer (a watchlist, its entries): only that viewer may read it.
 * The GraphQL layer compares {@link #ownerId()} with the request's viewer before any field of an owned
 * type is resolved (the schema's {@code @auth(owner: true)}).
 */
public interface Owned {
    /** The owner's subject: the {@code sub} of the tokens the owner signs in with. */
    String ownerId();
}
