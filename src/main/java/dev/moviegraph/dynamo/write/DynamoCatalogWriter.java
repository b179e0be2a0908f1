package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Records;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.Call;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.SearchEntries;
import dev.moviegraph.dynamo.model.MovieCopyRanges;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.read.RecentReads;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import java.util.function.Supplier;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The write port over the single table. Every write is a transaction guarded by optimistic versions:
 * it reads the items it depends on (consistently), then writes on condition that they did not change,
 * and starts over when they did. Copies of a movie's title or an actor's name are rewritten in the same
 * transaction as the item (up to 99 of them; beyond that in further updates that only ever move a copy
 * to a newer version). Runs on its own threads, so a write never blocks the HTTP or SDK threads.
 */
public final class DynamoCatalogWriter implements CatalogWriter {
    static final int MAX_TRANSACTION_ITEMS = 100;
    private static final int MAX_ATTEMPTS = 6;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final TotalsMode totals;
    private final ExecutorService executor;
    private final ItemWeights weights;
    /** The months' top lists (their floors, merges, deletions and renames), and totals this gateway saw reach a floor. */
    private final TopLists topLists;
    private final CastCopies castCopies;
    private final Set<String> atFloor = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** TOTALS=stream: movie titles for stream items, kept a minute (see {@link #recordForAggregator}). */
    private final RecentReads<MovieId, String> titles = new RecentReads<>(java.time.Duration.ofMinutes(1), 100_000);
    /** TOTALS=stream: totals for receipts, kept a second. */
    private final RecentReads<List<String>, Long> recentTotals = new RecentReads<>(java.time.Duration.ofSeconds(1), 100_000);

    public DynamoCatalogWriter(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor) {
        this(client, table, totals, executor, ItemWeights.declared());
    }

    /** {@code weights}: where a movie, person or credit larger than any before is recorded, for estimates. */
    public DynamoCatalogWriter(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor,
                               ItemWeights weights) {
        this.weights = weights;
        this.client = client;
        this.table = table;
        this.totals = totals;
        this.executor = executor;
        this.topLists = new TopLists(client, table);
        this.castCopies = new CastCopies(client, table, weights);
    }

    @Override
    public CompletableFuture<Movie> putMovie(Movie given, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> current = getConsistent(context, TableModel.movieKey(given.id()));
            Movie movie = current == null || current.isEmpty() ? given.withCastCount(0)
                    : given.withRatingOf(TableModel.MOVIE.decode(current));
            long next = version(current) + 1;
            Map<String, AttributeValue> item = new HashMap<>(TableModel.MOVIE.encode(movie));
            item.put(TableModel.VERSION, number(next));
            item.putAll(CastCopies.carried(current)); // the copy of its cast stays (withRatingOf), and its version
            Map<String, Object> values = TableModel.MOVIE.values(movie);
            List<TransactWriteItem> copies = new ArrayList<>();
            List<Map<String, AttributeValue>> entries = new ArrayList<>();
            List<Map<String, AttributeValue>> titleEntries = new ArrayList<>();
            List<MovieTitle> titles = new ArrayList<>();
            Set<PersonId> credited = new LinkedHashSet<>();
            Set<YearMonth> retitled = new java.util.TreeSet<>();
            for (Map<String, AttributeValue> copy : copiesOf(context, current, movie)) {
                copyUpdate(copy, TableModel.MOVIE, values, next).ifPresent(copies::add);
                if (TableModel.is(copy, TableModel.TOTAL) && !movie.title().equals(TableModel.TOTAL.decode(copy).movieTitle())) {
                    retitled.add(TableModel.TOTAL.decode(copy).month());
                }
                if (TableModel.CREDITS.stream().anyMatch(entity -> TableModel.is(copy, entity))) {
                    credited.add(PersonId.of(copy.get(TableModel.CAST.attribute("personId")).s()));
                }
                if (TableModel.is(copy, TableModel.MOVIE_WORD) || TableModel.is(copy, TableModel.MOVIE_LIST)) {
                    entries.add(copy);
                } else if (TableModel.is(copy, TableModel.TITLE_WORD)) {
                    titleEntries.add(copy);
                } else if (TableModel.is(copy, TableModel.MOVIE_TITLE)) {
                    titles.add(TableModel.MOVIE_TITLE.decode(copy));
                }
            }
            transactInChunks(context, Access.PUT_MOVIE, put(item, versionCondition(current)), copies);
            replaceSearchEntries(context, Access.PUT_MOVIE, entries, SearchEntries.of(movie));
            // Its other titles' entries index the words its own title lacks: derived again from the new title.
            replaceSearchEntries(context, Access.PUT_MOVIE, titleEntries, titles.isEmpty() ? List.of()
                    : SearchEntries.of(new MovieTitle.OfMovie(movie.id(), movie.title(), movie.year(), movie.numVotes(), titles)));
            // The lists that show it keep its title too (a GetItem each, and a PutItem where it is listed).
            retitled.forEach(month -> topLists.retitle(month, movie.id(), movie.title(), context));
            if (current != null && !current.isEmpty() && !knownForOf(TableModel.MOVIE.decode(current)).equals(knownForOf(movie))) {
                // Its votes, title or year changed: the people credited on it may know it as their best title.
                for (PersonId person : credited) {
                    rerank(context, Access.PUT_MOVIE, person, movie.id(), movie, credit -> false);
                }
            }
            return movie;
        });
    }

    @Override
    public CompletableFuture<Person> putPerson(Person given, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> current = getConsistent(context, TableModel.personKey(given.id()));
            Person person = current == null || current.isEmpty() ? given.withCounts(0, 0, 0)
                    : given.withProfessionsOf(TableModel.PERSON.decode(current));
            long next = version(current) + 1;
            Map<String, AttributeValue> item = new HashMap<>(TableModel.PERSON.encode(person));
            item.put(TableModel.VERSION, number(next));
            transactInChunks(context, Access.PUT_PERSON, put(item, versionCondition(current)),
                    personCopies(context, person, next, false));
            // GSI3 is eventually consistent: a credit committed just before this write may have been
            // missing from the first look. A second look fixes any copy still older than this version.
            for (TransactWriteItem late : personCopies(context, person, next, true)) {
                updateIfNewer(context, Access.PUT_PERSON, late.update());
            }
            if (current != null && !current.isEmpty() && !person.name().equals(TableModel.PERSON.decode(current).name())) {
                castCopies.renamed(context, person); // the movies that show them first-billed
            }
            // A rename keeps the person's rank: their best-known title is what the import last found.
            List<Map<String, AttributeValue>> entries = personEntries(context, person.id());
            KnownFor knownFor = entries.isEmpty() ? null
                    : SearchEntries.knownFor(TableModel.PERSON_WORD.decode(entries.get(0)));
            replaceSearchEntries(context, Access.PUT_PERSON, entries, SearchEntries.of(person, knownFor));
            return person;
        });
    }

    private List<Map<String, AttributeValue>> personEntries(CallContext context, PersonId personId) {
        QueryRequest query = Access.PERSON_WORDS.query(table, Map.of("personId", personId)).consistentRead(true).build();
        return Queries.all(client, context, Access.PERSON_WORDS, query).join();
    }

    /**
     * Makes an item's search entries {@code wanted}: puts those that are new or changed and deletes those
     * of prefixes the item no longer has, in transactions of up to 100. Entries are derived from the item
     * just written, so writing them again (a retry) ends the same.
     */
    private void replaceSearchEntries(CallContext context, Access access, List<Map<String, AttributeValue>> existing,
                                      List<Map<String, AttributeValue>> wanted) {
        // Searches are estimated by what entries weigh: a longer title or name grows them.
        weights.observe(wanted).join();
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> current = new HashMap<>();
        existing.forEach(item -> current.put(TableModel.keyOf(item), item));
        List<TransactWriteItem> writes = new ArrayList<>();
        for (Map<String, AttributeValue> item : wanted) {
            Map<String, AttributeValue> key = TableModel.keyOf(item);
            if (!item.equals(current.remove(key))) {
                writes.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item).build()).build());
            }
        }
        current.keySet().forEach(key -> writes.add(TransactWriteItem.builder()
                .delete(Delete.builder().tableName(table).key(key).build()).build()));
        for (int i = 0; i < writes.size(); i += MAX_TRANSACTION_ITEMS) {
            transact(context, access, writes.subList(i, Math.min(writes.size(), i + MAX_TRANSACTION_ITEMS)));
        }
    }

    /**
     * Keeps a person's search rank true after a write that changed their credits or a credited title: their
     * best-known title is the most voted title they are credited on. A title as good as the best-known one
     * replaces it at the cost of one Query; losing the best-known title (deleted, uncredited, fewer votes)
     * reads the person's credits and their movies again. {@code touched}: the title the write was about;
     * {@code offered}: that title as it is now, when it is credited; {@code removed}: credits just deleted,
     * which GSI3 (eventually consistent) may still show.
     */
    private void rerank(CallContext context, Access access, PersonId personId, MovieId touched, Movie offered,
                        Predicate<Credit> removed) {
        List<Map<String, AttributeValue>> entries = personEntries(context, personId);
        if (entries.isEmpty()) {
            return;
        }
        KnownFor current = SearchEntries.knownFor(TableModel.PERSON_WORD.decode(entries.get(0)));
        KnownFor candidate = offered == null || offered.numVotes() == null ? null : knownForOf(offered);
        KnownFor next;
        boolean lostCurrent = current != null && current.movieId().equals(touched)
                && (candidate == null || candidate.votes() < current.votes());
        if (lostCurrent) {
            next = bestKnown(context, personId, removed, offered);
        } else if (current != null && candidate != null && current.movieId().equals(candidate.movieId())) {
            next = candidate;
        } else {
            next = KnownFor.better(current, candidate);
        }
        if (Objects.equals(next, current)) {
            return;
        }
        Map<String, AttributeValue> personItem = getConsistent(context, TableModel.personKey(personId));
        if (personItem != null) {
            replaceSearchEntries(context, access, entries, SearchEntries.of(TableModel.PERSON.decode(personItem), next));
        }
    }

    /** The most voted title of a person's credits, less those {@code removed}, {@code offered} as it is now. */
    private KnownFor bestKnown(CallContext context, PersonId personId, Predicate<Credit> removed, Movie offered) {
        Set<MovieId> titles = new HashSet<>();
        QueryRequest query = Access.PERSON_PARTITION.query(table, Map.of("personId", personId)).build();
        for (Map<String, AttributeValue> item : Queries.all(client, context, Access.PERSON_PARTITION, query).join()) {
            for (Entity<Credit> entity : TableModel.CREDITS) {
                if (TableModel.is(item, entity)) {
                    Credit credit = entity.decode(item);
                    if (!removed.test(credit) && (offered == null || !credit.movieId().equals(offered.id()))) {
                        titles.add(credit.movieId());
                    }
                }
            }
        }
        KnownFor best = offered == null || offered.numVotes() == null ? null : knownForOf(offered);
        List<Map<String, AttributeValue>> keys = titles.stream().map(TableModel::movieKey).toList();
        for (Map<String, AttributeValue> item : new Batches(client, table).getAll(keys, context).join().items()) {
            Movie movie = TableModel.MOVIE.decode(item);
            if (movie.numVotes() != null) {
                best = KnownFor.better(best, knownForOf(movie));
            }
        }
        return best;
    }

    private static KnownFor knownForOf(Movie movie) {
        return new KnownFor(movie.id(), movie.title(), movie.year(), movie.numVotes() == null ? 0 : movie.numVotes());
    }

    private List<TransactWriteItem> personCopies(CallContext context, Person person, long version, boolean onlyOlder) {
        Map<String, Object> owner = Map.of("personId", person.id());
        QueryRequest query = Access.PERSON_PARTITION.query(table, owner).build();
        Map<String, Object> values = TableModel.PERSON.values(person);
        List<TransactWriteItem> copies = new ArrayList<>();
        for (Map<String, AttributeValue> item : Queries.all(client, context, Access.PERSON_PARTITION, query).join()) {
            if (onlyOlder && copiedVersion(item, TableModel.PERSON) >= version) {
                continue;
            }
            copyUpdate(item, TableModel.PERSON, values, version).ifPresent(copies::add);
        }
        return copies;
    }

    @Override
    public CompletableFuture<Credit> credit(MovieId movieId, PersonId personId, Role role, List<String> characters,
                                            Integer position, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> movieItem = getConsistent(context, TableModel.movieKey(movieId));
            Map<String, AttributeValue> personItem = getConsistent(context, TableModel.personKey(personId));
            if (movieItem == null) {
                throw new NotFoundException("There is no movie " + movieId.value());
            }
            if (personItem == null) {
                throw new NotFoundException("There is no person " + personId.value());
            }
            Movie movie = TableModel.MOVIE.decode(movieItem);
            Person person = TableModel.PERSON.decode(personItem);
            // Integer on both sides: an int there would unbox a cast member's null billing (uncredited).
            Integer place = role == Role.CAST || position != null ? position
                    : Integer.valueOf(nextPosition(context, movieId, personId, role));
            Credit credit = new Credit(movieId, personId, role, movie.title(), movie.year(), person.name(),
                    role == Role.CAST ? characters : List.of(), place);
            Entity<Credit> entity = TableModel.credits(role);
            Map<String, AttributeValue> item = new HashMap<>(entity.encode(credit));
            for (Entity.Copy copy : entity.copies()) {
                item.put(copy.versionAttribute(), number(version(copy.source() == TableModel.MOVIE ? movieItem : personItem)));
            }
            weights.observe(List.of(item)).join();
            // A new credit counts on its person (and a cast credit on its movie), in the same transaction;
            // the put's condition makes a concurrent second "new" credit fail and retry as a replacement.
            boolean isNew = getConsistent(context, TableModel.keyOf(item)) == null;
            Map<String, AttributeValue> movieKey = TableModel.movieKey(movieId);
            Map<String, AttributeValue> personKey = TableModel.personKey(personId);
            transact(context, Access.CREDIT, List.of(
                    role == Role.CAST ? castCopies.update(movieItem, isNew ? 1 : 0,
                            castCopies.after(context, movieItem, personId, credit), versionCondition(movieItem))
                            : check(movieKey, versionCondition(movieItem)),
                    isNew ? count(personKey, Map.of(TableModel.counter(role), 1), versionCondition(personItem))
                            : check(personKey, versionCondition(personItem)),
                    put(item, isNew ? Condition.notExists(TableModel.PK) : EXISTS)));
            countCredits(context, credit, item);
            if (isNew) {
                rerank(context, Access.CREDIT, personId, movieId, movie, gone -> false);
            }
            return credit;
        });
    }

    @Override
    public CompletableFuture<Award> recordAward(Award award, CallContext context) {
        return optimistically(() -> {
            List<TransactWriteItem> items = new ArrayList<>();
            if (award.movieId() != null) {
                Map<String, AttributeValue> movie = getConsistent(context, TableModel.movieKey(award.movieId()));
                if (movie == null) {
                    throw new NotFoundException("There is no movie " + award.movieId().value());
                }
                items.add(check(TableModel.movieKey(award.movieId()), versionCondition(movie)));
            }
            if (award.personId() != null) {
                Map<String, AttributeValue> person = getConsistent(context, TableModel.personKey(award.personId()));
                if (person == null) {
                    throw new NotFoundException("There is no person " + award.personId().value());
                }
                items.add(check(TableModel.personKey(award.personId()), versionCondition(person)));
            }
            Map<String, AttributeValue> item = TableModel.awards(award).encode(award);
            weights.observe(List.of(item)).join();
            items.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item).build()).build());
            transact(context, Access.RECORD_AWARD, items);
            countAwards(context, award, item);
            return award;
        });
    }

    /**
     * Records how long the person's list of credits in the role, and a cast member's movie's cast, now
     * are, for read estimates (a crew list's length is its last position, which the item itself records).
     */
    private void countCredits(CallContext context, Credit credit, Map<String, AttributeValue> item) {
        List<Map<String, AttributeValue>> found = wholeList(context, Part.ofPerson(credit.role()),
                credit.personId().value(), false);
        // GSI3 is eventually consistent: the credit just written may not be in it yet.
        boolean seen = found.stream().anyMatch(other -> TableModel.keyOf(other).equals(TableModel.keyOf(item)));
        weights.observeList(Part.ofPerson(credit.role()), found.size() + (seen ? 0 : 1)).join();
        if (credit.role() == Role.CAST) {
            weights.observeList(Part.CAST, wholeList(context, Part.CAST, credit.movieId().value(), true).size()).join();
        }
    }

    /** Records how many awards the award's movie and person now have, for read estimates. */
    private void countAwards(CallContext context, Award award, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = TableModel.keyOf(item);
        if (award.movieId() != null) {
            weights.observeList(Part.MOVIE_AWARDS,
                    wholeList(context, Part.MOVIE_AWARDS, award.movieId().value(), true).size()).join();
        }
        if (award.personId() != null) {
            List<Map<String, AttributeValue>> found = wholeList(context, Part.PERSON_AWARDS, award.personId().value(), false);
            // GSI3 is eventually consistent: the award just written may not be in it yet.
            boolean seen = found.stream().anyMatch(other -> TableModel.keyOf(other).equals(key));
            weights.observeList(Part.PERSON_AWARDS, found.size() + (seen ? 0 : 1)).join();
        }
    }

    /** Every item of one list of an owner, as its collection reads it whole ({@code consistent}: not on a GSI). */
    private List<Map<String, AttributeValue>> wholeList(CallContext context, Part part, String ownerId, boolean consistent) {
        ItemCollection.Run run = ItemCollection.of(part.collection()).wholeList(part);
        CollectionRead read = new CollectionRead(part.collection(), ownerId, false, Map.of(part, Slice.all()));
        return Queries.all(client, context, run, run.query(table, read).consistentRead(consistent).build()).join();
    }

    @Override
    public CompletableFuture<Boolean> removeAward(Award award, CallContext context) {
        Entity<Award> entity = TableModel.awards(award);
        return deleteOfType(context, Access.REMOVE_AWARD, entity.keyFromFields(Records.components(award)), entity.type());
    }

    // ---- entries of a private collection's counted list

    @Override
    public CompletableFuture<Record> addEntry(Part part, String ownerId, Record entry, ItemRef<?> mustExist,
                                              CallContext context) {
        ItemCollection collection = ItemCollection.of(part.collection());
        ItemCollection.EntryWrite write = collection.entryWrite(part, true);
        Map<String, AttributeValue> item = encode(write.entity(), entry);
        Map<String, AttributeValue> key = TableModel.keyOf(item);
        return optimistically(() -> {
            List<TransactWriteItem> items = new ArrayList<>();
            if (mustExist != null) {
                items.add(check(TableModel.key(mustExist), EXISTS));
            }
            int putAt = items.size();
            Expression isNew = Expression.of(Condition.notExists(TableModel.PK));
            items.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                    .conditionExpression(isNew.condition()).expressionAttributeNames(isNew.names())
                    // an entry already there comes back in the cancellation: its addedAt without another read
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build()).build());
            items.add(ownerCount(collection, write, ownerId, 1, null));
            try {
                transact(context, write, items);
                return entry;
            } catch (TransactionCanceledException e) {
                if (mustExist != null && failedCondition(e, 0)) {
                    throw new NotFoundException("There is no " + TableModel.entityFor(mustExist.type()).type() + " "
                            + keyText(mustExist));
                }
                if (failedCondition(e, putAt)) {
                    CancellationReason reason = e.cancellationReasons().get(putAt);
                    Map<String, AttributeValue> stored = reason.hasItem() && !reason.item().isEmpty() ? reason.item()
                            : getConsistent(context, key);
                    if (stored != null) {
                        return write.entity().decode(stored);
                    }
                }
                throw e; // removed meanwhile, or a conflict: tried again
            }
        });
    }

    @Override
    public CompletableFuture<Boolean> removeEntry(Part part, String ownerId, Record entry, CallContext context) {
        ItemCollection collection = ItemCollection.of(part.collection());
        ItemCollection.EntryWrite write = collection.entryWrite(part, false);
        Map<String, AttributeValue> key = write.entity().keyFromFields(Records.components(entry));
        return optimistically(() -> {
            // No read first: the delete's condition says whether it was there, the count follows in the same transaction.
            Expression there = Expression.of(EXISTS.and(Condition.equal(TableModel.TYPE, s(write.entity().type()))));
            List<TransactWriteItem> items = List.of(
                    TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key)
                            .conditionExpression(there.condition()).expressionAttributeNames(there.names())
                            .expressionAttributeValues(there.values()).build()).build(),
                    ownerCount(collection, write, ownerId, -1, EXISTS));
            try {
                transact(context, write, items);
                return true;
            } catch (TransactionCanceledException e) {
                if (failedCondition(e, 0)) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** The owner item's count of the list moved by {@code delta}; adding also creates the owner item (its first entry). */
    private TransactWriteItem ownerCount(ItemCollection collection, ItemCollection.EntryWrite write, String ownerId,
                                         int delta, Condition condition) {
        ItemUpdate update = (delta > 0 ? collection.ownerCreation(ownerId) : ItemUpdate.create())
                .add(write.segment().countAttribute(), number(delta));
        Expression expression = Expression.of(update, condition);
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(collection.ownerKey(ownerId))
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values())
                .build()).build();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Record> Map<String, AttributeValue> encode(Entity<?> entity, T record) {
        return ((Entity<T>) entity).encode(record);
    }

    /** The key values of a reference as text, for a message ({@code tt0111161}). */
    private static String keyText(ItemRef<?> ref) {
        return Records.components((Record) ref).values().stream().map(Entity::encodeValue)
                .map(value -> value == null ? "" : value.s() != null ? value.s() : value.n())
                .collect(java.util.stream.Collectors.joining(" "));
    }

    /** A crew credit's place ({@link Credit#crewPosition}) among the movie's credits in the role, read consistently. */
    private int nextPosition(CallContext context, MovieId movieId, PersonId personId, Role role) {
        Entity<Credit> entity = TableModel.credits(role);
        List<Credit> sameRole = collection(context, movieId, false).stream()
                .filter(item -> TableModel.is(item, entity)).map(entity::decode).toList();
        return Credit.crewPosition(sameRole, personId);
    }

    @Override
    public CompletableFuture<Boolean> uncredit(MovieId movieId, PersonId personId, Role role, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> key = TableModel.creditKey(movieId, personId, role);
            if (getConsistent(context, key) == null) {
                return false;
            }
            // The delete only of that credit, and the counts of its person (and movie) down by one, together.
            List<TransactWriteItem> items = new ArrayList<>();
            Expression ofType = Expression.of(Condition.equal(TableModel.TYPE, s(TableModel.credits(role).type())));
            items.add(TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key)
                    .conditionExpression(ofType.condition()).expressionAttributeNames(ofType.names())
                    .expressionAttributeValues(ofType.values()).build()).build());
            items.add(count(TableModel.personKey(personId), Map.of(TableModel.counter(role), -1), EXISTS));
            if (role == Role.CAST) {
                // Its movie's count down by one, and its copy of the first-billed cast without them.
                Map<String, AttributeValue> movieItem = getConsistent(context, TableModel.movieKey(movieId));
                items.add(movieItem == null ? count(TableModel.movieKey(movieId), Map.of(TableModel.CAST_COUNT, -1), EXISTS)
                        : castCopies.update(movieItem, -1, castCopies.after(context, movieItem, personId, null), EXISTS));
            }
            transact(context, Access.UNCREDIT, items);
            rerank(context, Access.UNCREDIT, personId, movieId, null,
                    gone -> gone.movieId().equals(movieId) && gone.role() == role);
            return true;
        });
    }

    /** Adds to counters of an item, on condition. */
    private TransactWriteItem count(Map<String, AttributeValue> key, Map<String, Integer> deltas, Condition condition) {
        ItemUpdate adds = ItemUpdate.create();
        for (Map.Entry<String, Integer> delta : deltas.entrySet()) {
            adds = adds.add(delta.getKey(), number(delta.getValue()));
        }
        Expression expression = Expression.of(adds, condition);
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(key)
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values()).build()).build();
    }

    /** Deletes the item at {@code key} if it is of {@code type}; whether there was one. */
    private CompletableFuture<Boolean> deleteOfType(CallContext context, Access access, Map<String, AttributeValue> key,
                                                   String type) {
        return StoreFailures.translated(CompletableFuture.supplyAsync(() -> {
            Call call = Call.byKey(context, access, 1);
            Expression ofType = Expression.of(Condition.notExists(TableModel.PK).or(Condition.equal(TableModel.TYPE, s(type))));
            DeleteItemRequest request = DeleteItemRequest.builder().tableName(table)
                    .key(key)
                    // only an item of that type: never delete something else that might share the key
                    .conditionExpression(ofType.condition())
                    .expressionAttributeNames(ofType.names())
                    .expressionAttributeValues(ofType.values())
                    .returnValues(ReturnValue.ALL_OLD)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .overrideConfiguration(call.override())
                    .build();
            return call.reportWhenDone(client.deleteItem(request).thenApply(response -> {
                call.page(response.hasAttributes() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
                return response.hasAttributes() && !response.attributes().isEmpty();
            })).join();
        }, executor));
    }

    @Override
    public CompletableFuture<Boolean> deleteMovie(MovieId movieId, CallContext context) {
        return optimistically(() -> {
            List<Map<String, AttributeValue>> keys = collection(context, movieId, true);
            if (keys.isEmpty()) {
                return false;
            }
            boolean existed = keys.stream().anyMatch(key -> TableModel.is(key, TableModel.MOVIE));
            // The movie item goes first, in the first transaction: a credit or a stream that checks the movie
            // afterwards fails instead of leaving an orphan behind, and a retry finds what is left. A person's
            // credits go in one transaction with their counts down by as many (one update per person item).
            List<List<TransactWriteItem>> units = new ArrayList<>();
            Map<String, Map<String, Integer>> countsOf = new LinkedHashMap<>();
            Map<String, List<TransactWriteItem>> creditsOf = new HashMap<>();
            for (Map<String, AttributeValue> key : keys) {
                Delete.Builder delete = Delete.builder().tableName(table).key(TableModel.keyOf(key));
                Role role = TableModel.CREDITS.stream().filter(entity -> TableModel.is(key, entity)).findFirst()
                        .map(entity -> (Role) entity.constant("role")).orElse(null);
                if (TableModel.is(key, TableModel.MOVIE)) {
                    units.add(0, List.of(TransactWriteItem.builder().delete(delete.build()).build()));
                } else if (role != null) {
                    String person = key.get(TableModel.CAST.attribute("personId")).s();
                    countsOf.computeIfAbsent(person, p -> new HashMap<>()).merge(TableModel.counter(role), -1, Integer::sum);
                    creditsOf.computeIfAbsent(person, p -> new ArrayList<>()).add(TransactWriteItem.builder()
                            .delete(delete.conditionExpression(EXISTS_EXPRESSION.condition())
                                    .expressionAttributeNames(EXISTS_EXPRESSION.names()).build()).build());
                } else {
                    units.add(List.of(TransactWriteItem.builder().delete(delete.build()).build()));
                }
            }
            countsOf.forEach((person, deltas) -> {
                List<TransactWriteItem> unit = new ArrayList<>(creditsOf.get(person));
                unit.add(count(TableModel.personKey(PersonId.of(person)), deltas, EXISTS));
                units.add(unit);
            });
            List<TransactWriteItem> batch = new ArrayList<>();
            for (List<TransactWriteItem> unit : units) {
                if (batch.size() + unit.size() > MAX_TRANSACTION_ITEMS) {
                    transact(context, Access.DELETE_COLLECTION, batch);
                    batch = new ArrayList<>();
                }
                batch.addAll(unit);
            }
            if (!batch.isEmpty()) {
                transact(context, Access.DELETE_COLLECTION, batch);
            }
            // Its totals are gone: it leaves the months' top lists, which a refill tops up where it took too many.
            keys.stream().filter(key -> TableModel.is(key, TableModel.TOTAL))
                    .map(key -> TableModel.monthOfTotal(key.get(TableModel.SK).s()).orElseThrow())
                    .filter(month -> topLists.remove(month, movieId, context))
                    .forEach(month -> topLists.refillSoon(month, context));
            for (String person : countsOf.keySet()) {
                rerank(context, Access.DELETE_COLLECTION, PersonId.of(person), movieId, null, gone -> gone.movieId().equals(movieId));
            }
            return existed;
        });
    }

    @Override
    public CompletableFuture<StreamReceipt> recordStream(StreamRecord stream, CallContext context) {
        if (totals == TotalsMode.STREAM) {
            return StoreFailures.translated(CompletableFuture.supplyAsync(() -> recordForAggregator(stream, context),
                    executor));
        }
        return optimistically(() -> {
            Map<String, AttributeValue> movieItem = getConsistent(context, TableModel.movieKey(stream.movieId()));
            if (movieItem == null) {
                throw new NotFoundException("There is no movie " + stream.movieId().value());
            }
            String title = TableModel.MOVIE.decode(movieItem).title();
            String total = stream.movieId().value() + "|" + stream.month();
            long floor = topLists.floor(stream.month(), context);
            boolean ranked = floor <= 1 || atFloor.contains(total);
            for (int guess = 1; ; guess++) {
                List<TransactWriteItem> items = new ArrayList<>();
                items.add(check(TableModel.movieKey(stream.movieId()), versionCondition(movieItem)));
                items.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                        .item(TableModel.STREAM.encode(new TableModel.StoredStream(stream.streamId(), stream.movieId(),
                                stream.at(), stream.month(), title)))
                        .conditionExpression(NEW_EXPRESSION.condition())
                        .expressionAttributeNames(NEW_EXPRESSION.names()).build()).build());
                items.add(TransactWriteItem.builder().update(totalIncrement(table, stream.movieId(), stream.month(), title,
                        1, floor, ranked)).build());
                try {
                    transact(context, Access.RECORD_STREAM, items);
                    break;
                } catch (TransactionCanceledException e) {
                    if (failedCondition(e, 1)) {
                        return alreadyRecorded(context, stream.streamId());
                    }
                    if (guess < 3 && failedCondition(e, 2)) {
                        // The total is at its month's top-list floor (or, rarely, still below it): the other update.
                        ranked = !ranked;
                        if (ranked) {
                            if (atFloor.size() > 100_000) {
                                atFloor.clear();
                            }
                            atFloor.add(total);
                        }
                        continue;
                    }
                    throw e;
                }
            }
            if (ranked) {
                // Before the receipt: the list is exact when the mutation returns. A gateway that dies here never
                // answered; the client's retry with the same stream id merges it (alreadyRecorded).
                topLists.merge(stream.month(), List.of(stream.movieId()), context);
            }
            return new StreamReceipt(stream.streamId(), stream.month(), true,
                    total(context, stream.movieId(), stream.month()));
        });
    }

    /**
     * TOTALS=stream: one conditional PutItem of the stream item, in a partition of its own, and nothing
     * else per stream in the movie's partition: the movie's title comes from {@link #titles} (read at most
     * once a minute per movie per gateway; the aggregator drops streams of a movie deleted since) and the
     * receipt's total from {@link #recentTotals} (at most once a second). So a movie streamed 10,000 times a
     * second costs its partition a few reads a second, not 10,000.
     */
    private StreamReceipt recordForAggregator(StreamRecord stream, CallContext context) {
        String title = titles.get(stream.movieId(), () -> {
            Map<String, AttributeValue> movie = getItem(context, TableModel.movieKey(stream.movieId()), false);
            if (movie == null) {
                throw new NotFoundException("There is no movie " + stream.movieId().value());
            }
            return TableModel.MOVIE.decode(movie).title();
        });
        Map<String, AttributeValue> item = TableModel.STREAM.encode(new TableModel.StoredStream(stream.streamId(),
                stream.movieId(), stream.at(), stream.month(), title));
        weights.observe(List.of(item)).join();
        Call call = Call.byKey(context, Access.RECORD_STREAM_ITEM, 1);
        PutItemRequest put = PutItemRequest.builder().tableName(table).item(item)
                .conditionExpression(NEW_EXPRESSION.condition()).expressionAttributeNames(NEW_EXPRESSION.names())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        try {
            call.reportWhenDone(client.putItem(put).thenApply(response -> {
                call.page(0, Collections.singletonList(response.consumedCapacity()));
                return response;
            })).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                return alreadyRecorded(context, stream.streamId());
            }
            throw e;
        }
        long total = recentTotals.get(List.of(stream.movieId().value(), stream.month().toString()), () -> {
            Map<String, AttributeValue> found = getItem(context, TableModel.totalKey(stream.movieId(), stream.month()), false);
            return found == null ? 0L : TableModel.TOTAL.decode(found).streams();
        });
        return new StreamReceipt(stream.streamId(), stream.month(), true, total);
    }

    /**
     * Adds {@code count} to a month's total, creating it with its keys (its GSI8 key too) when it is new; the
     * title is copied only into a new total (putMovie keeps existing copies true).
     */
    public static Update totalIncrement(String table, MovieId movieId, YearMonth month, String title, long count) {
        return totalIncrement(table, movieId, month, title, count, 0, true);
    }

    /**
     * The same, knowing the month's top-list floor ({@link TopLists}) and guessing whether the new count reaches
     * it: {@code candidate} holds on condition that it does, otherwise on condition that it does not. One of
     * the two holds, so a writer that guessed wrong gets ConditionalCheckFailed on this item and sends the
     * other; a writer then knows, without reading the total back, which totals its month's list must take in.
     * With no floor (a list not yet full) every total is a candidate. Nothing here writes an index after the
     * total's creation: GSI8's key is set once and projects nothing else.
     */
    public static Update totalIncrement(String table, MovieId movieId, YearMonth month, String title, long count, long floor,
                                 boolean candidate) {
        Map<String, AttributeValue> total = new HashMap<>(TableModel.TOTAL.encode(
                new MonthlyStreams(movieId, title, month, 0)));
        total.keySet().removeAll(TableModel.TOTAL.key(Map.of("movieId", movieId, "month", month)).keySet());
        total.remove(TableModel.STREAMS);
        Set<String> onCreation = new HashSet<>(Set.of(TableModel.GSI8_PK));
        TableModel.TOTAL.copies().forEach(copy -> onCreation.addAll(copy.attributes().keySet()));
        ItemUpdate update = ItemUpdate.create();
        for (Map.Entry<String, AttributeValue> attribute : total.entrySet()) {
            update = onCreation.contains(attribute.getKey()) ? update.setIfAbsent(attribute.getKey(), attribute.getValue())
                    : update.set(attribute.getKey(), attribute.getValue());
        }
        update = update.add(TableModel.STREAMS, number(count));
        long threshold = floor - count; // the count before this update that reaches the floor
        Condition condition = null;
        if (candidate && threshold > 0) {
            condition = Condition.compare(TableModel.STREAMS, ">=", number(threshold));
        } else if (!candidate) {
            condition = Condition.notExists(TableModel.STREAMS)
                    .or(Condition.compare(TableModel.STREAMS, "<", number(Math.max(threshold, 0))));
        }
        Expression expression = Expression.of(update, condition);
        return Update.builder().tableName(table).key(TableModel.totalKey(movieId, month))
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values()).build();
    }

    private StreamReceipt alreadyRecorded(CallContext context, String streamId) {
        TableModel.StoredStream recorded = TableModel.STREAM.decode(getConsistent(context, TableModel.streamKey(streamId)));
        long streams = total(context, recorded.movieId(), recorded.month());
        if (totals == TotalsMode.TRANSACTIONAL && streams > 0 && streams >= topLists.floor(recorded.month(), context)) {
            // The first attempt may have counted it and died before its merge: a retry leaves the list exact.
            topLists.merge(recorded.month(), List.of(recorded.movieId()), context);
        }
        return new StreamReceipt(streamId, recorded.month(), false, streams);
    }

    private long total(CallContext context, MovieId movieId, YearMonth month) {
        Map<String, AttributeValue> total = getConsistent(context, TableModel.totalKey(movieId, month));
        return total == null ? 0 : TableModel.TOTAL.decode(total).streams();
    }

    // ---- helpers

    /** Runs a read-then-write on the write threads, again while a condition fails because something moved. */
    private <T> CompletableFuture<T> optimistically(Supplier<T> attempt) {
        // SDK failures become the catalog's only here, after the conditions above were handled.
        return StoreFailures.translated(CompletableFuture.supplyAsync(() -> {
            for (int i = 1; ; i++) {
                try {
                    return attempt.get();
                } catch (TransactionCanceledException e) {
                    if (e.cancellationReasons().stream().anyMatch(reason -> "ThrottlingError".equals(reason.code()))) {
                        // a partition of the table or of an index was past its limit: the write was not made
                        throw new StoreUnavailableException(StoreUnavailableException.Reason.THROTTLED,
                                "DynamoDB throttled the write", e);
                    }
                    if (i >= MAX_ATTEMPTS || e.cancellationReasons().stream().noneMatch(DynamoCatalogWriter::conflict)) {
                        throw new StoreUnavailableException("The write kept conflicting with other writes; try again");
                    }
                }
            }
        }, executor));
    }

    private static boolean failedCondition(TransactionCanceledException e, int index) {
        return e.hasCancellationReasons() && e.cancellationReasons().size() > index
                && "ConditionalCheckFailed".equals(e.cancellationReasons().get(index).code());
    }

    private Map<String, AttributeValue> getConsistent(CallContext context, Map<String, AttributeValue> key) {
        return getItem(context, key, true);
    }

    private Map<String, AttributeValue> getItem(CallContext context, Map<String, AttributeValue> key, boolean consistent) {
        Call call = Call.byKey(context, Access.GET_ITEM, 1);
        GetItemRequest request = GetItemRequest.builder().tableName(table).key(key).consistentRead(consistent)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        return call.reportWhenDone(client.getItem(request).thenApply(response -> {
            call.page(response.hasItem() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        })).join();
    }

    /**
     * What putMovie updates or replaces in the movie's collection, read consistently: one Query per range
     * of {@link MovieCopyRanges#of}, for the attributes that change from {@code current} (all of
     * them for a new movie). The totals are read only when their copy of the title changes.
     */
    private List<Map<String, AttributeValue>> copiesOf(CallContext context, Map<String, AttributeValue> current, Movie movie) {
        Map<String, Object> now = TableModel.MOVIE.values(movie);
        Map<String, Object> before = current == null || current.isEmpty() ? Map.of()
                : TableModel.MOVIE.values(TableModel.MOVIE.decode(current));
        Set<String> changed = new HashSet<>();
        now.forEach((attribute, value) -> {
            if (before.isEmpty() || !Objects.equals(value, before.get(attribute))) {
                changed.add(attribute);
            }
        });
        List<CompletableFuture<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
        for (MovieCopyRanges.SortKeyRange range : MovieCopyRanges.of(changed)) {
            QueryRequest query = Access.MOVIE_COPIES.query(table, Map.of("movieId", movie.id())).build();
            Map<String, AttributeValue> values = new HashMap<>(query.expressionAttributeValues());
            values.put(":from", s(range.from()));
            values.put(":to", s(range.to()));
            reads.add(Queries.all(client, context, Access.MOVIE_COPIES,
                    query.toBuilder().expressionAttributeValues(values).consistentRead(true).build()));
        }
        return reads.stream().flatMap(read -> read.join().stream()).toList();
    }

    /** Every item of a movie's collection, read consistently; only keys, types and people when {@code keysOnly}. */
    private List<Map<String, AttributeValue>> collection(CallContext context, MovieId movieId, boolean keysOnly) {
        QueryRequest.Builder query = Access.ENTIRE_COLLECTION.query(table, Map.of("movieId", movieId))
                .consistentRead(true);
        if (keysOnly) {
            // and who a credit names, whose counts its delete lowers
            query.projectionExpression("#pk, #sk, #type, #person")
                    .expressionAttributeNames(Map.of("#pk", TableModel.PK, "#sk", TableModel.SK, "#type", TableModel.TYPE,
                            "#person", TableModel.CAST.attribute("personId")));
        }
        return Queries.all(client, context, Access.ENTIRE_COLLECTION, query.build()).join();
    }

    private void transactInChunks(CallContext context, Access access, TransactWriteItem first,
                                  List<TransactWriteItem> copies) {
        List<TransactWriteItem> together = new ArrayList<>();
        together.add(first);
        together.addAll(copies.subList(0, Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1)));
        transact(context, access, together);
        for (TransactWriteItem rest : copies.subList(Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1), copies.size())) {
            updateIfNewer(context, access, rest.update());
        }
    }

    /** A copy beyond the first transaction: written unless it is gone or already newer. */
    private void updateIfNewer(CallContext context, Access access, Update update) {
        updateIf(client, context, access, UpdateItemRequest.builder().tableName(table).key(update.key())
                .updateExpression(update.updateExpression()).conditionExpression(update.conditionExpression())
                .expressionAttributeNames(update.expressionAttributeNames())
                .expressionAttributeValues(update.expressionAttributeValues()));
    }

    /**
     * One conditional UpdateItem, reported as one call with the capacity it consumed; false when its
     * condition failed (nothing written), and DynamoDB's other failures thrown.
     */
    /** A conditional PutItem reported as one call: whether its condition held. */
    public static boolean putIf(DynamoDbAsyncClient client, CallContext context, Access access, PutItemRequest.Builder put) {
        Call call = Call.byKey(context, access, 1);
        PutItemRequest request = put.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override()).build();
        return held(call, () -> client.putItem(request).thenApply(PutItemResponse::consumedCapacity));
    }

    static boolean updateIf(DynamoDbAsyncClient client, CallContext context, Access access, UpdateItemRequest.Builder update) {
        Call call = Call.byKey(context, access, 1);
        UpdateItemRequest request = update.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override()).build();
        return held(call, () -> client.updateItem(request).thenApply(UpdateItemResponse::consumedCapacity));
    }

    /**
     * Sends a conditional write and reports it: true when its condition held, false when it failed; any
     * other failure is thrown as the catalog's. Not sent through the request's observer ({@link Call#send}):
     * a write once started runs to its end, and the observer's translation would hide the failed condition.
     */
    private static boolean held(Call call, Supplier<CompletableFuture<software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity>> send) {
        try {
            call.reportWhenDone(send.get().thenApply(consumed -> {
                call.page(0, Collections.singletonList(consumed));
                return consumed;
            })).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                return false;
            }
            throw StoreFailures.translate(e) instanceof RuntimeException translated ? translated : e;
        }
    }

    private void transact(CallContext context, dev.moviegraph.dynamo.model.CallPattern access, List<TransactWriteItem> items) {
        transact(client, context, access, items);
    }

    /**
     * One TransactWriteItems, reported as one call with the capacity it consumed; waits for it and
     * throws what DynamoDB threw (TransactionCanceledException with its reasons, say) unwrapped.
     */
    public static void transact(DynamoDbAsyncClient client, CallContext context, dev.moviegraph.dynamo.model.CallPattern access,
                                List<TransactWriteItem> items) {
        Call call = Call.byKey(context, access, items.size());
        TransactWriteItemsRequest request = TransactWriteItemsRequest.builder().transactItems(items)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        try {
            call.reportWhenDone(client.transactWriteItems(request).thenApply(response -> {
                call.page(0, response.consumedCapacity());
                return response;
            })).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private TransactWriteItem put(Map<String, AttributeValue> item, Condition condition) {
        weights.observe(List.of(item)).join();
        Expression expression = Expression.of(condition);
        return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build();
    }

    private TransactWriteItem check(Map<String, AttributeValue> key, Condition condition) {
        Expression expression = Expression.of(condition);
        return TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table).key(key)
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build();
    }

    /**
     * The update that makes {@code item}'s copies of {@code source} equal to {@code values} at
     * {@code version}: the copied attributes, and the keys built from them (a credit's GSI3 sort key holds
     * the movie's year and title), set or removed; empty when the item copies nothing of {@code source}.
     * Written only if the item still exists and its copy is older, so a late write never goes back.
     */
    private Optional<TransactWriteItem> copyUpdate(Map<String, AttributeValue> item, Entity<?> source,
                                                   Map<String, Object> values, long version) {
        Optional<Entity<?>> known = TableModel.entityOf(item);
        if (known.isEmpty()) {
            return Optional.empty(); // a newer version's item: it keeps its own copies
        }
        Entity<?> entity = known.get();
        Optional<Entity.Copy> found = entity.copies().stream().filter(copy -> copy.source() == source).findFirst();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Entity.Copy copy = found.get();
        Map<String, Object> updated = new HashMap<>(decodedValues(entity, item));
        copy.attributes().forEach((copied, original) -> updated.put(copied, values.get(original)));
        Map<String, AttributeValue> set = new LinkedHashMap<>();
        List<String> removed = new ArrayList<>();
        for (String attribute : copy.attributes().keySet()) {
            AttributeValue value = Entity.encodeValue(updated.get(attribute));
            if (value == null) {
                removed.add(attribute);
            } else {
                set.put(attribute, value);
            }
        }
        for (String key : entity.keysReading(copy.attributes().keySet())) {
            set.put(key, s(entity.template(key).render(updated)));
        }
        set.put(copy.versionAttribute(), number(version));
        ItemUpdate update = ItemUpdate.create().set(set);
        for (String attribute : removed) {
            update = update.remove(attribute);
        }
        Expression expression = Expression.of(update, EXISTS.and(Condition.notExists(copy.versionAttribute())
                .or(Condition.compare(copy.versionAttribute(), "<", number(version)))));
        return Optional.of(TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(TableModel.keyOf(item))
                .updateExpression(expression.update())
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build());
    }

    @SuppressWarnings("unchecked")
    private static <T extends Record> Map<String, Object> decodedValues(Entity<T> entity, Map<String, AttributeValue> item) {
        return entity.values(entity.decode(item));
    }

    /** The version of {@code source} an item's copy of it was written at; 0 when it has none. */
    private static long copiedVersion(Map<String, AttributeValue> item, Entity<?> source) {
        return TableModel.entityOf(item).stream().flatMap(entity -> entity.copies().stream())
                .filter(copy -> copy.source() == source)
                .map(copy -> item.get(copy.versionAttribute()))
                .filter(java.util.Objects::nonNull)
                .mapToLong(value -> Long.parseLong(value.n())).findFirst().orElse(0);
    }

    /** The optimistic version of a movie or person item; items written before versions existed are 0. */
    static long version(Map<String, AttributeValue> item) {
        AttributeValue version = item == null ? null : item.get(TableModel.VERSION);
        return version == null ? 0 : Long.parseLong(version.n());
    }

    /** The item exists: a count is never added to an item that is not there. */
    private static final Condition EXISTS = Condition.exists(TableModel.PK);
    private static final Expression EXISTS_EXPRESSION = Expression.of(EXISTS);
    /** There is no such item yet: a stream is recorded once. */
    private static final Expression NEW_EXPRESSION = Expression.of(Condition.notExists(TableModel.PK));

    /** A write on condition that the item is still the one read: absent, unversioned, or at its version. */
    private static Condition versionCondition(Map<String, AttributeValue> current) {
        if (current == null) {
            return Condition.notExists(TableModel.PK);
        }
        long version = version(current);
        if (version == 0) {
            return EXISTS.and(Condition.notExists(TableModel.VERSION));
        }
        return Condition.equal(TableModel.VERSION, number(version));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    /** A cancellation that a fresh read can get past: something changed, or another transaction was on it. */
    private static boolean conflict(CancellationReason reason) {
        return "ConditionalCheckFailed".equals(reason.code()) || "TransactionConflict".equals(reason.code());
    }
}
