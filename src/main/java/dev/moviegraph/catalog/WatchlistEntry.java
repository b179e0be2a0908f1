package dev.moviegraph.catalog;

import java.time.Instant;

/**
 * One movie on a viewer's watchlist, added at {@code addedAt}. It names the movie by id only: a movie deleted
 * from the catalog leaves its entry (shown without the movie) until the viewer takes it out.
 */
public record WatchlistEntry(String viewerId, MovieId movieId, Instant addedAt) implements Owned {
    @Override
    public String ownerId() {
        return viewerId;
    }
}
