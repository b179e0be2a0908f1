package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.BilledCast;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Keeps a movie item's copy of its first-billed cast ({@link Movie#firstCast}) true. Every write of a cast
 * credit updates the movie item in its own transaction anyway (its cast count, or a check of its version);
 * that update now also adds one to the item's {@code castVersion} on condition that it is still the one read,
 * and sets the copy when it changes. So cast writes of one movie are serialised on its item, and a copy is
 * never made from a stale read: a write that lost the race fails its condition and is tried again from a
 * fresh read.
 *
 * <p>The next copy is made from the copy itself when that is enough (a credit added, or one that was not in
 * it changed), else from a strongly consistent Query of the first {@code FIRST_CAST + 1} credits in billing
 * order (one left the copy and another takes its place; or the item has no copy yet, written before copies
 * were kept, which the write then fills).
 */
public final class CastCopies {
    /** Adds one on every cast write of the movie: what the next cast write's condition reads. */
    static final String CAST_VERSION = "castVersion";
    private static final String FIRST_CAST = TableModel.MOVIE.attribute("firstCast");
    private static final int MAX_ATTEMPTS = 6;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final ItemWeights weights;

    /** {@code weights}: where a movie item larger than any before is recorded (its copy grows it), for estimates. */
    public CastCopies(DynamoDbAsyncClient client, String table, ItemWeights weights) {
        this.client = client;
        this.table = table;
        this.weights = weights;
    }

    /**
     * The movie's first-billed cast after a write of {@code person}'s cast credit: {@code written} as it is
     * now, or null when it was removed. {@code movieItem} is the movie item as read (consistently) before it.
     */
    List<BilledCast> after(CallContext context, Map<String, AttributeValue> movieItem, PersonId person, Credit written) {
        Movie movie = TableModel.MOVIE.decode(movieItem);
        int counted = movie.castCount() == null ? -1 : movie.castCount();
        boolean whole = movie.copiesFirstCast(Movie.FIRST_CAST);
        List<BilledCast> others = movie.firstCast().stream().filter(billed -> !billed.personId().equals(person)).toList();
        // They were in the copy and there is more cast past it: whoever comes next is known only from the
        // credits, unless they stay before the copy's last other member.
        boolean leaves = others.size() < movie.firstCast().size() && counted > movie.firstCast().size()
                && (written == null || others.isEmpty()
                || BilledCast.CREDIT_ORDER.compare(BilledCast.of(written), others.get(others.size() - 1)) > 0);
        List<BilledCast> cast = whole && !leaves ? new ArrayList<>(movie.firstCast()) : firstCredits(context, movie);
        cast.removeIf(billed -> billed.personId().equals(person));
        if (written != null) {
            cast.add(BilledCast.of(written));
        }
        return BilledCast.firstBilled(cast);
    }

    /**
     * The transaction's update of the movie item: {@code castDelta} added to its cast count, one to its cast
     * version, and the copy set to {@code cast} (removed when empty) if it changed; on condition {@code base}
     * and that no other cast write came between the read of {@code movieItem} and this one.
     */
    TransactWriteItem update(Map<String, AttributeValue> movieItem, int castDelta, List<BilledCast> cast, Condition base) {
        Movie movie = TableModel.MOVIE.decode(movieItem);
        ItemUpdate update = ItemUpdate.create().add(CAST_VERSION, AttributeValue.fromN("1"));
        if (castDelta != 0) {
            update = update.add(TableModel.CAST_COUNT, AttributeValue.fromN(Integer.toString(castDelta)));
        }
        if (!cast.equals(movie.firstCast())) {
            AttributeValue copy = encoded(movie.withFirstCast(cast));
            Map<String, AttributeValue> next = new HashMap<>(movieItem);
            if (copy == null) {
                next.remove(FIRST_CAST);
            } else {
                next.put(FIRST_CAST, copy);
            }
            weights.observe(List.of(next)).join(); // the item as it will be: its size, for estimates
            update = copy == null ? update.remove(FIRST_CAST) : update.set(FIRST_CAST, copy);
        }
        Expression expression = Expression.of(update, base.and(unchanged(movieItem)));
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(TableModel.keyOf(movieItem))
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values())
                .build()).build();
    }

    /**
     * After {@code person} was renamed (their credits already carry the new name): the copies that show them
     * under another name are set again, each in a transaction of its own on the movie's cast version, read
     * again when a cast write came between. One Query of the person's cast credits, one consistent
     * BatchGetItem of their movies per 100, and a write per movie that shows them first-billed.
     */
    void renamed(CallContext context, Person person) {
        Set<MovieId> movies = new LinkedHashSet<>();
        QueryRequest query = Access.PERSON_PARTITION.query(table, Map.of("personId", person.id())).build();
        for (Map<String, AttributeValue> item : Queries.all(client, context, Access.PERSON_PARTITION, query).join()) {
            if (TableModel.is(item, TableModel.CAST)) {
                movies.add(TableModel.CAST.decode(item).movieId());
            }
        }
        if (movies.isEmpty()) {
            return;
        }
        List<Map<String, AttributeValue>> keys = movies.stream().map(TableModel::movieKey).toList();
        Batches.GetResult found = new Batches(client, table).consistently().getAll(keys, context).join();
        if (!found.unprocessed().isEmpty()) {
            throw new StoreUnavailableException("DynamoDB did not read every movie of " + person.id().value() + " in time");
        }
        for (Map<String, AttributeValue> movieItem : found.items()) {
            rename(context, movieItem, person);
        }
    }

    private void rename(CallContext context, Map<String, AttributeValue> movieItem, Person person) {
        rewrite(context, movieItem, movie -> movie.firstCast().stream().map(billed -> billed.personId().equals(person.id())
                ? new BilledCast(billed.personId(), person.name(), billed.characters(), billed.billing()) : billed).toList());
    }

    /**
     * Fills the copy of a movie item written before copies were kept (or whose copy holds fewer than it
     * should): made from its first credits, read consistently, and written on its cast version. What
     * {@code moviegraph.jar migrate} does for every movie; false when the copy was whole already.
     */
    public boolean fill(CallContext context, Map<String, AttributeValue> movieItem) {
        if (TableModel.MOVIE.decode(movieItem).copiesFirstCast(Movie.FIRST_CAST)) {
            return false;
        }
        return rewrite(context, movieItem, movie -> after(context, TableModel.MOVIE.encode(movie), null, null));
    }

    /**
     * Sets a movie item's copy to what {@code next} makes of the movie, in a transaction of its own on its
     * cast version; on a cast write in between, reads the item again and makes the copy again. Whether it
     * wrote (not when the copy was already that, or the movie is gone).
     */
    private boolean rewrite(CallContext context, Map<String, AttributeValue> first,
                            java.util.function.Function<Movie, List<BilledCast>> next) {
        Map<String, AttributeValue> movieItem = first;
        for (int attempt = 1; movieItem != null; attempt++) {
            Movie movie = TableModel.MOVIE.decode(movieItem);
            List<BilledCast> cast = next.apply(movie);
            if (cast.equals(movie.firstCast())) {
                return false;
            }
            try {
                ConditionalWrites.transact(client, context, Access.PUT_PERSON,
                        List.of(update(movieItem, 0, cast, Condition.exists(TableModel.PK))));
                return true;
            } catch (TransactionCanceledException e) {
                if (attempt >= MAX_ATTEMPTS) {
                    throw new StoreUnavailableException("The write kept conflicting with other writes; try again");
                }
            }
            movieItem = new Batches(client, table).consistently()
                    .getAll(List.of(TableModel.keyOf(movieItem)), context).join().items().stream().findFirst().orElse(null);
        }
        return false;
    }

    /** The first {@code FIRST_CAST + 1} cast credits of a movie in billing order, read strongly consistently. */
    private List<BilledCast> firstCredits(CallContext context, Movie movie) {
        ItemCollection.Run run = ItemCollection.of(Part.Collection.MOVIE).wholeList(Part.CAST);
        CollectionRead read = CollectionRead.movie(movie.id(), false,
                Map.of(Part.CAST, Slice.page(new PageRequest(Movie.FIRST_CAST + 1, null))));
        QueryRequest query = run.query(table, read).consistentRead(true).limit(Movie.FIRST_CAST + 1).build();
        List<BilledCast> cast = new ArrayList<>();
        for (Map<String, AttributeValue> item : Queries.until(client, context, run, query, item -> true,
                Movie.FIRST_CAST + 1, 0).join()) {
            if (TableModel.is(item, TableModel.CAST)) {
                cast.add(BilledCast.of(TableModel.CAST.decode(item)));
            }
        }
        return cast;
    }

    /** The copy as the movie item stores it; null when empty. */
    private static AttributeValue encoded(Movie movie) {
        return TableModel.MOVIE.encode(movie).get(FIRST_CAST);
    }

    /** No cast write since the item was read: its cast version is the one read (none yet: still none). */
    static Condition unchanged(Map<String, AttributeValue> movieItem) {
        AttributeValue version = movieItem.get(CAST_VERSION);
        return version == null ? Condition.notExists(CAST_VERSION) : Condition.equal(CAST_VERSION, version);
    }

    /** The item's cast version, for a write that replaces the whole movie item to carry over. */
    static Map<String, AttributeValue> carried(Map<String, AttributeValue> current) {
        Map<String, AttributeValue> kept = new HashMap<>();
        if (current != null && current.containsKey(CAST_VERSION)) {
            kept.put(CAST_VERSION, current.get(CAST_VERSION));
        }
        return kept;
    }
}
