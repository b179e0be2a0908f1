package dev.moviegraph.catalog;

import java.util.regex.Pattern;

/** An IMDB-style title id such as {@code tt0111161}; the only way to make one checks its form. */
public record MovieId(String value) {
    private static final Pattern FORM = Pattern.compile("tt\\d{7,8}");

    public MovieId {
        if (value == null || !FORM.matcher(value).matches()) {
            throw new InvalidInputException("'" + Inputs.shorten(value)
                    + "' is not a movie id: expected 'tt' followed by 7 or 8 digits, e.g. tt0111161");
        }
    }

    public static MovieId of(String value) {
        return new MovieId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
