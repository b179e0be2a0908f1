package dev.moviegraph.catalog;

import java.util.regex.Pattern;

/** An IMDB-style name id such as {@code nm0000209}; the only way to make one checks its form. */
public record ActorId(String value) {
    private static final Pattern FORM = Pattern.compile("nm\\d{7,8}");

    public ActorId {
        if (value == null || !FORM.matcher(value).matches()) {
            throw new InvalidInputException("'" + Inputs.shorten(value)
                    + "' is not an actor id: expected 'nm' followed by 7 or 8 digits, e.g. nm0000209");
        }
    }

    public static ActorId of(String value) {
        return new ActorId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
