package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableLayout.GSI1;
import static dev.moviegraph.dynamo.TableLayout.GSI2;
import static dev.moviegraph.dynamo.TableLayout.LSI1;
import static dev.moviegraph.dynamo.TableLayout.LSI1_SK;
import static dev.moviegraph.dynamo.TableLayout.s;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.EntityRef.ActorRef;
import dev.moviegraph.catalog.EntityRef.MovieRef;
import dev.moviegraph.catalog.EntityRef.TotalRef;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.dynamo.CursorCodec.Kind;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The catalog read port over the single table. Each method maps to one access pattern (see README):
 * a BatchGetItem for keys, one Query on the table, LSI1, GSI1 or GSI2 for everything else. No Scan.
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
    public CompletableFuture<Map<EntityRef<?>, Object>> fetch(Collection<EntityRef<?>> refs) {
        Map<Map<String, AttributeValue>, EntityRef<?>> byKey = new LinkedHashMap<>();
        for (EntityRef<?> ref : refs) {
            byKey.put(keyOf(ref), ref);
        }
        return batches.getAll(List.copyOf(byKey.keySet())).thenApply(items -> {
            Map<EntityRef<?>, Object> found = new HashMap<>();
            for (Map<String, AttributeValue> item : items) {
                EntityRef<?> ref = byKey.get(TableLayout.key(item.get(TableLayout.PK).s(), item.get(TableLayout.SK).s()));
                if (ref != null) {
                    found.put(ref, ItemCodec.decode(item));
                }
            }
            return found;
        });
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

    @Override
    public CompletableFuture<MovieCollection> readMovie(MovieRead read) {
        if (read.cast() != null && read.totals() != null) {
            return wholeCollection(read);
        }
        if (read.cast() != null) {
            if (read.includeMovie() && read.cast().after() != null) {
                // A later page does not reach the movie item (it sorts first), so read both at once.
                CompletableFuture<Movie> movie = movieItem(read);
                CompletableFuture<CastPage> page = castByBilling(read, false).thenApply(MovieCollection::cast);
                return movie.thenCombine(page, (m, p) -> new MovieCollection(m, p, null));
            }
            return castByBilling(read, read.includeMovie());
        }
        if (read.totals() != null) {
            return movieAndTotals(read);
        }
        return movieItem(read).thenApply(movie -> new MovieCollection(movie, null, null));
    }

    private CompletableFuture<Movie> movieItem(MovieRead read) {
        MovieRef ref = new MovieRef(read.id());
        return fetch(List.of(ref)).thenApply(found -> (Movie) found.get(ref));
    }

    /** LSI1 Query: the movie item (optionally) then the cast, top-billed first, one page. */
    private CompletableFuture<MovieCollection> castByBilling(MovieRead read, boolean includeMovie) {
        String pk = TableLayout.moviePk(read.id());
        PageRequest page = read.cast();
        QueryRequest.Builder query = QueryRequest.builder().tableName(table).indexName(LSI1);
        if (includeMovie) {
            query.keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", s(pk)));
        } else {
            query.keyConditionExpression("pk = :pk AND lsi1sk > :movie")
                    .expressionAttributeValues(Map.of(":pk", s(pk), ":movie", s(TableLayout.MOVIE_BILLING)));
        }
        if (page.after() != null) {
            query.exclusiveStartKey(cursors.decode(Kind.CAST, page.after(), pk));
        }
        int wanted = page.first() + 1 + (includeMovie ? 1 : 0);
        return Queries.upTo(client, query.build(), wanted).thenApply(items -> {
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
    private CompletableFuture<MovieCollection> wholeCollection(MovieRead read) {
        String pk = TableLayout.moviePk(read.id());
        QueryRequest query = QueryRequest.builder().tableName(table)
                .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", s(pk))).build();
        String after = read.cast().after() == null ? null
                : cursors.decode(Kind.CAST, read.cast().after(), pk).get(LSI1_SK).s();
        return Queries.all(client, query).thenApply(items -> {
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
    private CompletableFuture<MovieCollection> movieAndTotals(MovieRead read) {
        String pk = TableLayout.moviePk(read.id());
        MonthRange range = read.totals();
        String low = read.includeMovie() ? pk
                : range.from() == null ? TableLayout.TOTAL_PREFIX : TableLayout.totalSk(range.from());
        // '~' sorts after every digit, so "tot#~" bounds every month.
        String high = range.to() == null ? TableLayout.TOTAL_PREFIX + "~" : TableLayout.totalSk(range.to());
        QueryRequest query = QueryRequest.builder().tableName(table)
                .keyConditionExpression("pk = :pk AND sk BETWEEN :low AND :high")
                .expressionAttributeValues(Map.of(":pk", s(pk), ":low", s(low), ":high", s(high)))
                .build();
        return Queries.all(client, query).thenApply(items -> {
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

    @Override
    public CompletableFuture<Filmography> readFilmography(FilmographyRead read) {
        if (read.includeActor() && read.page().after() != null) {
            ActorRef ref = new ActorRef(read.id());
            return fetch(List.of(ref)).thenCombine(
                    filmography(read, false),
                    (found, films) -> new Filmography((Actor) found.get(ref), films.movies()));
        }
        return filmography(read, read.includeActor());
    }

    /** GSI1 Query on the actor's key: the actor item (sorts first) then every cast item of the actor. */
    private CompletableFuture<Filmography> filmography(FilmographyRead read, boolean includeActor) {
        String actorPk = TableLayout.actorPk(read.id());
        PageRequest page = read.page();
        QueryRequest.Builder query = QueryRequest.builder().tableName(table).indexName(GSI1);
        if (includeActor) {
            query.keyConditionExpression("sk = :actor").expressionAttributeValues(Map.of(":actor", s(actorPk)));
        } else {
            query.keyConditionExpression("sk = :actor AND begins_with(pk, :movies)")
                    .expressionAttributeValues(Map.of(":actor", s(actorPk), ":movies", s(TableLayout.MOVIE_PREFIX)));
        }
        if (page.after() != null) {
            query.exclusiveStartKey(cursors.decode(Kind.FILMOGRAPHY, page.after(), actorPk));
        }
        int wanted = page.first() + 1 + (includeActor ? 1 : 0);
        return Queries.upTo(client, query.build(), wanted).thenApply(items -> {
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

    @Override
    public CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit) {
        QueryRequest query = QueryRequest.builder().tableName(table).indexName(GSI2)
                .keyConditionExpression("gsi2pk = :month")
                .expressionAttributeValues(Map.of(":month", s(TableLayout.monthPartition(month))))
                .scanIndexForward(false)
                .build();
        return Queries.upTo(client, query, limit)
                .thenApply(items -> items.stream().map(ItemCodec::total).toList());
    }

    @Override
    public CompletableFuture<Boolean> ping() {
        return client.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .handle((response, failure) -> failure == null);
    }
}
