package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableLayout.GSI2_PK;
import static dev.moviegraph.dynamo.TableLayout.LSI1_SK;
import static dev.moviegraph.dynamo.TableLayout.PK;
import static dev.moviegraph.dynamo.TableLayout.SK;
import static dev.moviegraph.dynamo.TableLayout.STREAMS;
import static dev.moviegraph.dynamo.TableLayout.TYPE;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.StreamRecord;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Maps domain records to items and back. Items are told apart by their {@code type} attribute, and
 * ids are stored as plain attributes, so decoding never parses key prefixes.
 */
public final class ItemCodec {
    static final String MOVIE = "movie";
    static final String ACTOR = "actor";
    static final String CAST = "cast";
    static final String TOTAL = "total";
    static final String STREAM = "stream";

    private ItemCodec() {
    }

    public static Map<String, AttributeValue> movieItem(Movie movie) {
        Map<String, AttributeValue> item = new HashMap<>(TableLayout.movieKey(movie.id()));
        item.put(TYPE, s(MOVIE));
        item.put("movieId", s(movie.id().value()));
        item.put(LSI1_SK, s(TableLayout.MOVIE_BILLING));
        item.put("title", s(movie.title()));
        putNumber(item, "year", movie.year());
        if (movie.releaseDate() != null) {
            item.put("releaseDate", s(movie.releaseDate().toString()));
        }
        item.put("genres", strings(movie.genres()));
        putNumber(item, "runtimeMinutes", movie.runtimeMinutes());
        return item;
    }

    public static Map<String, AttributeValue> actorItem(Actor actor) {
        Map<String, AttributeValue> item = new HashMap<>(TableLayout.actorKey(actor.id()));
        item.put(TYPE, s(ACTOR));
        item.put("actorId", s(actor.id().value()));
        item.put("name", s(actor.name()));
        putNumber(item, "birthYear", actor.birthYear());
        return item;
    }

    public static Map<String, AttributeValue> castItem(CastMember cast) {
        Map<String, AttributeValue> item = new HashMap<>(TableLayout.key(
                TableLayout.moviePk(cast.movieId()), TableLayout.actorPk(cast.actorId())));
        item.put(TYPE, s(CAST));
        item.put("movieId", s(cast.movieId().value()));
        item.put("actorId", s(cast.actorId().value()));
        item.put(LSI1_SK, s(TableLayout.castBilling(cast.billing(), cast.actorId())));
        item.put("movieTitle", s(cast.movieTitle()));
        putNumber(item, "movieYear", cast.movieYear());
        item.put("actorName", s(cast.actorName()));
        item.put("characters", strings(cast.characters()));
        putNumber(item, "billing", cast.billing());
        return item;
    }

    public static Map<String, AttributeValue> totalItem(MonthlyStreams total) {
        Map<String, AttributeValue> item = new HashMap<>(TableLayout.totalKey(total.movieId(), total.month()));
        item.put(TYPE, s(TOTAL));
        item.put("movieId", s(total.movieId().value()));
        item.put("month", s(total.month().toString()));
        item.put("movieTitle", s(total.movieTitle()));
        item.put(STREAMS, AttributeValue.fromN(Long.toString(total.streams())));
        item.put(GSI2_PK, s(TableLayout.monthPartition(total.month())));
        return item;
    }

    /** A stream item: its own partition, so reading a movie's collection never reads streams. */
    static Map<String, AttributeValue> streamItem(StreamRecord stream, String movieTitle) {
        Map<String, AttributeValue> item = new HashMap<>(TableLayout.streamKey(stream.streamId()));
        item.put(TYPE, s(STREAM));
        item.put("streamId", s(stream.streamId()));
        item.put("movieId", s(stream.movieId().value()));
        item.put("at", s(stream.at().toString()));
        item.put("month", s(stream.month().toString()));
        item.put("movieTitle", s(movieTitle));
        return item;
    }

    /** The optimistic version of a movie or actor item; items written before versions existed are 0. */
    static long version(Map<String, AttributeValue> item) {
        AttributeValue version = item == null ? null : item.get(TableLayout.VERSION);
        return version == null ? 0 : Long.parseLong(version.n());
    }

    static String type(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TYPE);
        return type == null ? "" : type.s();
    }

    /** Decodes any item by its type attribute. */
    static Object decode(Map<String, AttributeValue> item) {
        return switch (type(item)) {
            case MOVIE -> movie(item);
            case ACTOR -> actor(item);
            case CAST -> cast(item);
            case TOTAL -> total(item);
            default -> throw new IllegalStateException("Item of unknown type at " + item.get(PK) + "/" + item.get(SK));
        };
    }

    static Movie movie(Map<String, AttributeValue> item) {
        String releaseDate = string(item, "releaseDate");
        return new Movie(MovieId.of(string(item, "movieId")), string(item, "title"), integer(item, "year"),
                releaseDate == null ? null : LocalDate.parse(releaseDate), list(item, "genres"),
                integer(item, "runtimeMinutes"));
    }

    static Actor actor(Map<String, AttributeValue> item) {
        return new Actor(ActorId.of(string(item, "actorId")), string(item, "name"), integer(item, "birthYear"));
    }

    static CastMember cast(Map<String, AttributeValue> item) {
        return new CastMember(MovieId.of(string(item, "movieId")), ActorId.of(string(item, "actorId")),
                string(item, "movieTitle"), integer(item, "movieYear"), string(item, "actorName"),
                list(item, "characters"), integer(item, "billing"));
    }

    static MonthlyStreams total(Map<String, AttributeValue> item) {
        return new MonthlyStreams(MovieId.of(string(item, "movieId")), string(item, "movieTitle"),
                YearMonth.parse(string(item, "month")), Long.parseLong(item.get(STREAMS).n()));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue strings(List<String> values) {
        return AttributeValue.fromL(values.stream().map(AttributeValue::fromS).toList());
    }

    private static void putNumber(Map<String, AttributeValue> item, String name, Integer value) {
        if (value != null) {
            item.put(name, AttributeValue.fromN(Integer.toString(value)));
        }
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    private static Integer integer(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? null : Integer.valueOf(value.n());
    }

    private static List<String> list(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || !value.hasL() ? List.of() : value.l().stream().map(AttributeValue::s).toList();
    }
}
