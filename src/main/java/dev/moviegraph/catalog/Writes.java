package dev.moviegraph.catalog;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.util.List;
import java.util.regex.Pattern;

/** Validation of everything a write carries, with messages that name the input and its limits. */
public final class Writes {
    public static final int MAX_TEXT = 200;
    public static final int MAX_LIST = 20;
    public static final int MAX_BILLING = 9998;
    /** How far in the future a stream's timestamp may be: clocks of clients drift. */
    public static final Duration FUTURE_SKEW = Duration.ofMinutes(5);
    private static final Pattern STREAM_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private Writes() {
    }

    public static Movie movie(Movie movie, Clock clock) {
        text("title", movie.title());
        int lastYear = Year.now(clock).getValue() + 10;
        if (movie.year() != null) {
            Inputs.inRange("year", movie.year(), 1870, lastYear);
        }
        LocalDate release = movie.releaseDate();
        if (release != null && (release.getYear() < 1870 || release.getYear() > lastYear)) {
            throw new InvalidInputException("releaseDate must be between 1870 and " + lastYear + ", got " + release);
        }
        list("genres", movie.genres(), 50);
        if (movie.runtimeMinutes() != null) {
            Inputs.inRange("runtimeMinutes", movie.runtimeMinutes(), 1, 1000);
        }
        return movie;
    }

    public static Person person(Person person, Clock clock) {
        text("name", person.name());
        int thisYear = Year.now(clock).getValue();
        if (person.birthYear() != null) {
            Inputs.inRange("birthYear", person.birthYear(), 1800, thisYear);
        }
        if (person.deathYear() != null) {
            Inputs.inRange("deathYear", person.deathYear(), person.birthYear() == null ? 1800 : person.birthYear(),
                    thisYear);
        }
        return person;
    }

    public static List<String> characters(List<String> characters) {
        List<String> values = characters == null ? List.of() : characters;
        list("characters", values, MAX_TEXT);
        return values;
    }

    public static Integer billing(Integer billing) {
        return billing == null ? null : Inputs.inRange("billing", billing, 1, MAX_BILLING);
    }

    /**
     * An award as a client gives it: award 1..100 and category 1..200 characters without '#' (they are
     * parts of its keys), year 1900..next year.
     */
    public static Award award(Award award, Clock clock) {
        text("award", award.award());
        if (award.award().length() > 100) {
            throw new InvalidInputException("award must be at most 100 characters, got " + award.award().length());
        }
        text("category", award.category());
        if (award.award().contains("#") || award.category().contains("#")) {
            throw new InvalidInputException("award and category must not contain '#'");
        }
        Inputs.inRange("year", award.year(), 1900, Year.now(clock).getValue() + 1);
        return award;
    }

    public static StreamRecord stream(StreamRecord stream, Clock clock) {
        if (!STREAM_ID.matcher(stream.streamId()).matches()) {
            throw new InvalidInputException("streamId must be 1 to 64 of A-Z a-z 0-9 . _ : -");
        }
        Instant latest = clock.instant().plus(FUTURE_SKEW);
        if (stream.at().isAfter(latest)) {
            throw new InvalidInputException("at must not be in the future (more than " + FUTURE_SKEW.toMinutes()
                    + " minutes ahead of the server's clock), got " + stream.at());
        }
        if (stream.at().isBefore(Instant.parse("1990-01-01T00:00:00Z"))) {
            throw new InvalidInputException("at must be 1990 or later, got " + stream.at());
        }
        return stream;
    }

    private static void text(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException(name + " must not be empty");
        }
        if (value.length() > MAX_TEXT) {
            throw new InvalidInputException(name + " must be at most " + MAX_TEXT + " characters, got " + value.length());
        }
    }

    private static void list(String name, List<String> values, int maxLength) {
        if (values.size() > MAX_LIST) {
            throw new InvalidInputException(name + " must have at most " + MAX_LIST + " entries, got " + values.size());
        }
        for (String value : values) {
            if (value.isBlank() || value.length() > maxLength) {
                throw new InvalidInputException("each of " + name + " must be 1 to " + maxLength + " characters");
            }
        }
    }
}
