package dev.moviegraph.catalog;

import java.util.List;

/**
 * A title a movie is known by, as IMDb's title.akas lists it: in a region (ISO 3166-1, "FR", "DE"; null
 * for none) and a language (ISO 639-1; null for none), of some types ("imdbDisplay", "dvd", "festival",
 * "working"...) and attributes ("literal English title"...). {@code original} marks the title in the
 * movie's original language (IMDb's isOriginalTitle), whatever its primary title is. Kept in the movie's
 * item collection: a movie with its titles is one Query.
 */
public record MovieTitle(MovieId movieId, int ordering, String title, String region, String language,
                         List<String> types, List<String> attributes, boolean original) {
    public MovieTitle {
        types = types == null ? List.of() : List.copyOf(types);
        attributes = attributes == null ? List.of() : List.copyOf(attributes);
    }

    /**
     * A movie's titles as an import writes them, with what their search entries show and rank by: the
     * movie's own title (a word of it is found through the movie's own entries already), year and votes.
     */
    public record OfMovie(MovieId movieId, String movieTitle, Integer year, Integer numVotes, List<MovieTitle> titles) {
        public OfMovie {
            titles = List.copyOf(titles);
        }
    }
}
