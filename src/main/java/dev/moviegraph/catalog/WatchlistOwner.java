package dev.moviegraph.catalog;

/**
 * A signed-in viewer as the owner of their watchlist: {@code viewerId} is their token's subject. The item
 * keeps the count of entries ({@code watchCount}), moved by every add and remove in the same transaction;
 * a viewer with no item yet has listed nothing. The GraphQL {@code Viewer} is this record (count unknown,
 * null, until read), made from the token or a node id alone: who may read it is decided before any read.
 */
public record WatchlistOwner(String viewerId, Integer watchCount) implements Owned {
    public static WatchlistOwner of(String viewerId) {
        return new WatchlistOwner(viewerId, null);
    }

    @Override
    public String ownerId() {
        return viewerId;
    }
}
