package dev.moviegraph.catalog;

import java.util.regex.Pattern;

/**
 * An IMDb-style name id such as {@code nm0000209}. IMDb calls everyone a "name": actors, directors and
 * writers are all people with one id. The only way to make one checks its form.
 */
public record PersonId(String value) {
    private static final Pattern FORM = Pattern.compile("nm\\d{7,8}");

    public PersonId {
        if (value == null || !FORM.matcher(value).matches()) {
            throw new InvalidInputException("'" + Inputs.shorten(value)
                    + "' is not a person id: expected 'nm' followed by 7 or 8 digits, e.g. nm0000209");
        }
    }

    public static PersonId of(String value) {
        return new PersonId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
