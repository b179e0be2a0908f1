package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableLayout.LSI1_SK;
import static dev.moviegraph.dynamo.TableLayout.s;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.EntityRef.ActorRef;
import dev.moviegraph.catalog.EntityRef.MovieRef;
import dev.moviegraph.catalog.EntityRef.TotalRef;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.PlannedCall;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.dynamo.CursorCodec.Kind;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The catalog read port over the single table. Each read takes one of the {@link Access} patterns (see
 * README): GetItem or BatchGetItem for keys, one Query on the table, LSI1, GSI1 or GSI2 for everything
 * else. No Scan. Every call is reported, with the capacity DynamoDB says it consumed.
 */
public final class DynamoCatalog implements CatalogReader {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches batches;
    private final CursorCodec cursors;

    public DynamoCatalog(DynamoDbAsyncClient client, String table, CursorCodec cursors) {
        this.client = client;
        this.table = table;
        this.batches = new Batches(client, table);
        this.cursors = cursors;
    }

    @Override
    public CompletableFuture<Fetched> fetch(Collection<EntityRef<?>> refs, CallContext context) {
        Map<Map<String, AttributeValue>, EntityRef<?>> byKey = new LinkedHashMap<>();
        for (EntityRef<?> ref : refs) {
            byKey.put(keyOf(ref), ref);
        }
        return batches.getAll(List.copyOf(byKey.keySet()), context).thenApply(result -> {
            Map<EntityRef<?>, Object> found = new HashMap<>();
            for (Map<String, AttributeValue> item : result.items()) {
                EntityRef<?> ref = byKey.get(TableLayout.key(item.get(TableLayout.PK).s(), item.get(TableLayout.SK).s()));
                if (ref != null) {
                    found.put(ref, ItemCodec.decode(item));
                }
            }
            Set<EntityRef<?>> unavailable = new HashSet<>();
            for (Map<String, AttributeValue> key : result.unprocessed()) {
                unavailable.add(byKey.get(TableLayout.key(key.get(TableLayout.PK).s(), key.get(TableLayout.SK).s())));
            }
            return new Fetched(found, unavailable);
        });
    }

    @Override
    public List<PlannedCall> planFetch(int distinctKeys) {
        return distinctKeys == 0 ? List.of()
                : List.of(new PlannedCall(Batches.accessFor(distinctKeys).describe(), Batches.callsFor(distinctKeys),
                        Batches.accessFor(distinctKeys).estimatedReadUnits(distinctKeys)));
    }

    private static Map<String, AttributeValue> keyOf(EntityRef<?> ref) {
        if (ref instanceof MovieRef movie) {
            return TableLayout.movieKey(movie.id());
        }
        if (ref instanceof ActorRef actor) {
            return TableLayout.actorKey(actor.id());
        }
        TotalRef total = (TotalRef) ref;
        return TableLayout.totalKey(total.movieId(), total.month());
    }

    /**
     * The requests that answer a movie read, cheapest first: the one decision both {@link #readMovie}
     * and {@link #planMovie} follow.
     */
    private static List<Access> movieAccess(MovieRead read) {
        if (read.cast() != null && read.totals() != null) {
            return List.of(Access.WHOLE_COLLECTION);
        }
        if (read.cast() != null) {
            if (!read.includeMovie()) {
                return List.of(Access.CAST_PAGE);
            }
            // A later page does not reach the movie item (it sorts first), so read both at once.
            return read.cast().after() == null ? List.of(Access.MOVIE_WITH_CAST)
                    : List.of(Access.GET_ITEM, Access.CAST_PAGE);
        }
        if (read.totals() != null) {
            return List.of(read.includeMovie() ? Access.MOVIE_AND_TOTALS : Access.TOTALS);
        }
        return List.of(Access.GET_ITEM);
    }

    @Override
    public List<PlannedCall> planMovie(MovieRead read) {
        return movieAccess(read).stream().map(access -> planned(access, switch (access) {
            // the whole collection: every item is read, as many cast items as asked for at least
            case WHOLE_COLLECTION -> 1 + read.cast().first() + 1 + read.totals().monthsForEstimate();
            case MOVIE_WITH_CAST -> read.cast().first() + 2;
            case CAST_PAGE -> read.cast().first() + 1;
            case MOVIE_AND_TOTALS -> 1 + read.totals().monthsForEstimate();
            case TOTALS -> read.totals().monthsForEstimate();
            default -> 1;
        })).toList();
    }

    @Override
    public CompletableFuture<MovieCollection> readMovie(MovieRead read, CallContext context) {
        List<Access> access = movieAccess(read);
        return switch (access.get(0)) {
            case WHOLE_COLLECTION -> wholeCollection(read, context);
            case MOVIE_WITH_CAST -> castByBilling(read, Access.MOVIE_WITH_CAST, context);
            case CAST_PAGE -> castByBilling(read, Access.CAST_PAGE, context);
            case MOVIE_AND_TOTALS, TOTALS -> movieAndTotals(read, access.get(0), context);
            case GET_ITEM -> access.size() == 1
                    ? movieItem(read, context).thenApply(movie -> new MovieCollection(movie, null, null))
                    : movieItem(read, context).thenCombine(
                            castByBilling(read, Access.CAST_PAGE, context).thenApply(MovieCollection::cast),
                            (movie, page) -> new MovieCollection(movie, page, null));
            default -> throw new IllegalStateException(access + " does not read a movie collection");
        };
    }

    private CompletableFuture<Movie> movieItem(MovieRead read, CallContext context) {
        MovieRef ref = new MovieRef(read.id());
        return fetch(List.of(ref), context).thenApply(fetched -> {
            if (fetched.unavailable().contains(ref)) {
                throw new StoreUnavailableException("The movie " + read.id().value() + " could not be read in time");
            }
            return (Movie) fetched.found().get(ref);
        });
    }

    /** LSI1 Query: the movie item (MOVIE_WITH_CAST) then the cast, top-billed first, one page. */
    private CompletableFuture<MovieCollection> castByBilling(MovieRead read, Access access, CallContext context) {
        String pk = TableLayout.moviePk(read.id());
        PageRequest page = read.cast();
        boolean includeMovie = access == Access.MOVIE_WITH_CAST;
        QueryRequest.Builder query = includeMovie
                ? access.query(table, Map.of(":pk", s(pk)))
                : access.query(table, Map.of(":pk", s(pk), ":movie", s(TableLayout.MOVIE_BILLING)));
        if (page.after() != null) {
            query.exclusiveStartKey(cursors.decode(Kind.CAST, page.after(), pk));
        }
        int wanted = page.first() + 1 + (includeMovie ? 1 : 0);
        return Queries.upTo(client, context, access, query.build(), wanted).thenApply(items -> {
            Movie movie = null;
            List<Map<String, AttributeValue>> cast = new ArrayList<>();
            for (Map<String, AttributeValue> item : items) {
                if (ItemCodec.MOVIE.equals(ItemCodec.type(item))) {
                    movie = ItemCodec.movie(item);
                } else {
                    cast.add(item);
                }
            }
            return new MovieCollection(movie, page(Kind.CAST, cast, page.first()), null);
        });
    }

    /** Base-table Query of the whole item collection: movie, cast and totals in one request (plus pages). */
    private CompletableFuture<MovieCollection> wholeCollection(MovieRead read, CallContext context) {
        String pk = TableLayout.moviePk(read.id());
        QueryRequest query = Access.WHOLE_COLLECTION.query(table, Map.of(":pk", s(pk))).build();
        String after = read.cast().after() == null ? null
                : cursors.decode(Kind.CAST, read.cast().after(), pk).get(LSI1_SK).s();
        return Queries.all(client, context, Access.WHOLE_COLLECTION, query).thenApply(items -> {
            Movie movie = null;
            List<Map<String, AttributeValue>> cast = new ArrayList<>();
            List<MonthlyStreams> totals = new ArrayList<>();
            for (Map<String, AttributeValue> item : items) {
                switch (ItemCodec.type(item)) {
                    case ItemCodec.MOVIE -> movie = ItemCodec.movie(item);
                    case ItemCodec.CAST -> {
                        if (after == null || item.get(LSI1_SK).s().compareTo(after) > 0) {
                            cast.add(item);
                        }
                    }
                    case ItemCodec.TOTAL -> totals.add(ItemCodec.total(item));
                    default -> { }
                }
            }
            // The same order LSI1 keeps, so cursors from here and from LSI1 pages are interchangeable.
            cast.sort(Comparator.comparing(item -> item.get(LSI1_SK).s()));
            List<MonthlyStreams> inRange = totals.stream().filter(t -> read.totals().contains(t.month())).toList();
            return new MovieCollection(read.includeMovie() ? movie : null,
                    page(Kind.CAST, cast.subList(0, Math.min(cast.size(), read.cast().first() + 1)), read.cast().first()),
                    inRange);
        });
    }

    /** Base-table Query: sk from the movie item (or the first month) to the last month skips the cast. */
    private CompletableFuture<MovieCollection> movieAndTotals(MovieRead read, Access access, CallContext context) {
        String pk = TableLayout.moviePk(read.id());
        MonthRange range = read.totals();
        String low = access == Access.MOVIE_AND_TOTALS ? pk
                : range.from() == null ? TableLayout.TOTAL_PREFIX : TableLayout.totalSk(range.from());
        // '~' sorts after every digit, so "tot#~" bounds every month.
        String high = range.to() == null ? TableLayout.TOTAL_PREFIX + "~" : TableLayout.totalSk(range.to());
        QueryRequest query = access.query(table, Map.of(":pk", s(pk), ":low", s(low), ":high", s(high))).build();
        return Queries.all(client, context, access, query).thenApply(items -> {
            Movie movie = null;
            List<MonthlyStreams> totals = new ArrayList<>();
            for (Map<String, AttributeValue> item : items) {
                switch (ItemCodec.type(item)) {
                    case ItemCodec.MOVIE -> movie = ItemCodec.movie(item);
                    case ItemCodec.TOTAL -> {
                        MonthlyStreams total = ItemCodec.total(item);
                        if (range.contains(total.month())) {
                            totals.add(total);
                        }
                    }
                    default -> { }
                }
            }
            return new MovieCollection(movie, null, totals);
        });
    }

    /** The one decision both {@link #readFilmography} and {@link #planFilmography} follow. */
    private static List<Access> filmographyAccess(FilmographyRead read) {
        if (!read.includeActor()) {
            return List.of(Access.FILMOGRAPHY_PAGE);
        }
        return read.page().after() == null ? List.of(Access.ACTOR_WITH_FILMOGRAPHY)
                : List.of(Access.GET_ITEM, Access.FILMOGRAPHY_PAGE);
    }

    @Override
    public List<PlannedCall> planFilmography(FilmographyRead read) {
        return filmographyAccess(read).stream().map(access -> planned(access, switch (access) {
            case ACTOR_WITH_FILMOGRAPHY -> read.page().first() + 2;
            case FILMOGRAPHY_PAGE -> read.page().first() + 1;
            default -> 1;
        })).toList();
    }

    @Override
    public CompletableFuture<Filmography> readFilmography(FilmographyRead read, CallContext context) {
        List<Access> access = filmographyAccess(read);
        if (access.size() == 1) {
            return filmography(read, access.get(0), context);
        }
        ActorRef ref = new ActorRef(read.id());
        return fetch(List.of(ref), context).thenCombine(filmography(read, Access.FILMOGRAPHY_PAGE, context),
                (fetched, films) -> {
                    if (fetched.unavailable().contains(ref)) {
                        throw new StoreUnavailableException("The actor " + read.id().value() + " could not be read in time");
                    }
                    return new Filmography((Actor) fetched.found().get(ref), films.movies());
                });
    }

    /** GSI1 Query on the actor's key: the actor item (sorts first) then every cast item of the actor. */
    private CompletableFuture<Filmography> filmography(FilmographyRead read, Access access, CallContext context) {
        String actorPk = TableLayout.actorPk(read.id());
        PageRequest page = read.page();
        boolean includeActor = access == Access.ACTOR_WITH_FILMOGRAPHY;
        QueryRequest.Builder query = includeActor
                ? access.query(table, Map.of(":actor", s(actorPk)))
                : access.query(table, Map.of(":actor", s(actorPk), ":movies", s(TableLayout.MOVIE_PREFIX)));
        if (page.after() != null) {
            query.exclusiveStartKey(cursors.decode(Kind.FILMOGRAPHY, page.after(), actorPk));
        }
        int wanted = page.first() + 1 + (includeActor ? 1 : 0);
        return Queries.upTo(client, context, access, query.build(), wanted).thenApply(items -> {
            Actor actor = null;
            List<Map<String, AttributeValue>> cast = new ArrayList<>();
            for (Map<String, AttributeValue> item : items) {
                switch (ItemCodec.type(item)) {
                    case ItemCodec.ACTOR -> actor = ItemCodec.actor(item);
                    case ItemCodec.CAST -> cast.add(item);
                    default -> { }
                }
            }
            return new Filmography(actor, page(Kind.FILMOGRAPHY, cast, page.first()));
        });
    }

    /** Builds a page from up to first + 1 cast items: the extra one only says that there is a next page. */
    private CastPage page(Kind kind, List<Map<String, AttributeValue>> items, int first) {
        List<CastPage.Entry> entries = new ArrayList<>();
        for (Map<String, AttributeValue> item : items.subList(0, Math.min(first, items.size()))) {
            CastMember member = ItemCodec.cast(item);
            entries.add(new CastPage.Entry(cursors.encode(kind, item), member));
        }
        return new CastPage(entries, items.size() > first);
    }

    /** One call of {@code access} reading at most {@code items} items. */
    private static PlannedCall planned(Access access, int items) {
        return new PlannedCall(access.describe(), 1, access.estimatedReadUnits(items));
    }

    @Override
    public List<PlannedCall> planTopMovies(YearMonth month, int limit) {
        return List.of(planned(Access.TOP_OF_MONTH, limit));
    }

    @Override
    public CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit, CallContext context) {
        QueryRequest query = Access.TOP_OF_MONTH.query(table, Map.of(":month", s(TableLayout.monthPartition(month))))
                .scanIndexForward(false)
                .build();
        return Queries.upTo(client, context, Access.TOP_OF_MONTH, query, limit)
                .thenApply(items -> items.stream().map(ItemCodec::total).toList());
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return Arrays.stream(Access.values()).map(Access::describe).toList();
    }

    @Override
    public CompletableFuture<Boolean> ping() {
        return client.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .handle((response, failure) -> failure == null);
    }
}
