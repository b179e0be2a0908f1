package dev.moviegraph.catalog;

/**
 * A nomination for an award, won or not: an award body's prize ({@code award}, "Academy Award") in a
 * category, in a year (the ceremony's), for a person, a movie or both. One award is one nomination: the
 * same award, category, year, person and movie name the same award, so a nomination that later wins is
 * that award changed, and two nominations in one category and year for different movies are two awards.
 */
public record Award(String award, String category, int year, boolean won, PersonId personId, MovieId movieId) {
    public Award {
        if (personId == null && movieId == null) {
            throw new InvalidInputException("An award names a personId, a movieId or both");
        }
    }
}
