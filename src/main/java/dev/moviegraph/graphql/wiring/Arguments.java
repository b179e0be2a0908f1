package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.StreamRecord;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import graphql.schema.DataFetchingEnvironment;

/**
 * The schema's input objects and mutation arguments as records, bound by Jackson from what graphql-java
 * coerced (its scalars already made the dates and the date-times): a fetcher reads one typed value
 * instead of casting a map's entries, and a field added to an input is a component added here.
 */
final class Arguments {
    private static final ObjectMapper BINDER = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private Arguments() {
    }

    /** The field's argument {@code name} (an input object) as {@code type}. */
    static <T extends Record> T argument(DataFetchingEnvironment env, String name, Class<T> type) {
        return BINDER.convertValue(env.<Map<String, Object>>getArgument(name), type);
    }

    /** All the field's arguments as {@code type}. */
    static <T extends Record> T arguments(DataFetchingEnvironment env, Class<T> type) {
        return BINDER.convertValue(env.getArguments(), type);
    }

    record MovieInput(String id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                      Integer runtimeMinutes) {
        Movie movie() {
            return new Movie(MovieId.of(id), title, year, releaseDate, genres, runtimeMinutes);
        }
    }

    record PersonInput(String id, String name, Integer birthYear, Integer deathYear) {
        Person person() {
            return new Person(PersonId.of(id), name, birthYear, deathYear);
        }
    }

    record StreamInput(String movieId, String streamId, OffsetDateTime at) {
        StreamRecord stream() {
            return new StreamRecord(MovieId.of(movieId), streamId, at.toInstant());
        }
    }

    record AwardInput(String award, String category, int year, boolean won, String personId, String movieId) {
        Award toAward() {
            return new Award(award, category, year, won, personId == null ? null : PersonId.of(personId),
                    movieId == null ? null : MovieId.of(movieId));
        }
    }

    /** castActor's arguments. */
    record Casting(String movieId, String actorId, List<String> characters, Integer billing) {
    }

    /** creditCrew's, uncreditCrew's and uncastActor's arguments (uncastActor names the person actorId). */
    record Crediting(String movieId, String personId, String actorId, String role) {
    }
}
