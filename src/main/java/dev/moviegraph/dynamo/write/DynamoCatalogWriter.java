package dev.moviegraph.dynamo.write;

import static dev.moviegraph.dynamo.write.TableWrites.EXISTS;
import static dev.moviegraph.dynamo.write.TableWrites.EXISTS_EXPRESSION;
import static dev.moviegraph.dynamo.write.TableWrites.MAX_TRANSACTION_ITEMS;
import static dev.moviegraph.dynamo.write.TableWrites.number;
import static dev.moviegraph.dynamo.write.TableWrites.s;
import static dev.moviegraph.dynamo.write.TableWrites.version;
import static dev.moviegraph.dynamo.write.TableWrites.versionCondition;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.KnownFor;
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
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.SearchEntries;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The write port over the single table. Every write is a transaction guarded by optimistic versions:
 * it reads the items it depends on (consistently), then writes on condition that they did not change,
 * and starts over when they did. Copies of a movie's title or an actor's name are rewritten in the same
 * transaction as the item (up to 99 of them; beyond that in further updates that only ever move a copy
 * to a newer version). Runs on its own threads, so a write never blocks the HTTP or SDK threads.
 * Streams ({@link StreamWrites}), the copies' updates ({@link CopyUpdates}) and the entries of counted lists
 * ({@link ListEntryWrites}) are written by classes of their own, over the helpers of {@link TableWrites}.
 */
public final class DynamoCatalogWriter implements CatalogWriter {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final ItemWeights weights;
    private final TableWrites tableWrites;
    /** The months' top lists (their floors, merges, deletions and renames). */
    private final TopLists topLists;
    private final CastCopies castCopies;
    private final CopyUpdates copyUpdates;
    private final StreamWrites streams;
    private final ListEntryWrites listEntries;

    public DynamoCatalogWriter(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor) {
        this(client, table, totals, executor, ItemWeights.declared());
    }

    /** {@code weights}: where a movie, person or credit larger than any before is recorded, for estimates. */
    public DynamoCatalogWriter(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor,
                               ItemWeights weights) {
        this.weights = weights;
        this.client = client;
        this.table = table;
        this.tableWrites = new TableWrites(client, table, executor, weights);
        this.topLists = new TopLists(client, table);
        this.castCopies = new CastCopies(client, table, weights);
        this.copyUpdates = new CopyUpdates(client, table, tableWrites);
        this.streams = new StreamWrites(client, table, totals, executor, weights, tableWrites, topLists);
        this.listEntries = new ListEntryWrites(table, tableWrites);
    }

    @Override
    public CompletableFuture<Movie> putMovie(Movie given, CallContext context) {
        return tableWrites.optimistically(() -> {
            Map<String, AttributeValue> current = tableWrites.getConsistent(context, TableModel.movieKey(given.id()));
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
            for (Map<String, AttributeValue> copy : copyUpdates.copiesOf(context, current, movie)) {
                copyUpdates.copyUpdate(copy, TableModel.MOVIE, values, next).ifPresent(copies::add);
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
            // On its cast version too: a cast write since the read changed the count and copy this put carries over.
            Condition unchanged = current == null || current.isEmpty() ? versionCondition(current)
                    : versionCondition(current).and(CastCopies.unchanged(current));
            copyUpdates.transactInChunks(context, Access.PUT_MOVIE, tableWrites.put(item, unchanged), copies);
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
        return tableWrites.optimistically(() -> {
            Map<String, AttributeValue> current = tableWrites.getConsistent(context, TableModel.personKey(given.id()));
            Person person = current == null || current.isEmpty() ? given.withCounts(0, 0, 0)
                    : given.withProfessionsOf(TableModel.PERSON.decode(current));
            long next = version(current) + 1;
            Map<String, AttributeValue> item = new HashMap<>(TableModel.PERSON.encode(person));
            item.put(TableModel.VERSION, number(next));
            copyUpdates.transactInChunks(context, Access.PUT_PERSON, tableWrites.put(item, versionCondition(current)),
                    copyUpdates.personCopies(context, person, next, false));
            // GSI3 is eventually consistent: a credit committed just before this write may have been
            // missing from the first look. A second look fixes any copy still older than this version.
            for (TransactWriteItem late : copyUpdates.personCopies(context, person, next, true)) {
                copyUpdates.updateIfNewer(context, Access.PUT_PERSON, late.update());
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
            tableWrites.transact(context, access, writes.subList(i, Math.min(writes.size(), i + MAX_TRANSACTION_ITEMS)));
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
        Map<String, AttributeValue> personItem = tableWrites.getConsistent(context, TableModel.personKey(personId));
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

    @Override
    public CompletableFuture<Credit> credit(MovieId movieId, PersonId personId, Role role, List<String> characters,
                                            Integer position, CallContext context) {
        return tableWrites.optimistically(() -> {
            Map<String, AttributeValue> movieItem = tableWrites.getConsistent(context, TableModel.movieKey(movieId));
            Map<String, AttributeValue> personItem = tableWrites.getConsistent(context, TableModel.personKey(personId));
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
            boolean isNew = tableWrites.getConsistent(context, TableModel.keyOf(item)) == null;
            Map<String, AttributeValue> movieKey = TableModel.movieKey(movieId);
            Map<String, AttributeValue> personKey = TableModel.personKey(personId);
            tableWrites.transact(context, Access.CREDIT, List.of(
                    role == Role.CAST ? castCopies.update(movieItem, isNew ? 1 : 0,
                            castCopies.after(context, movieItem, personId, credit), versionCondition(movieItem))
                            : tableWrites.check(movieKey, versionCondition(movieItem)),
                    isNew ? tableWrites.count(personKey, Map.of(TableModel.counter(role), 1), versionCondition(personItem))
                            : tableWrites.check(personKey, versionCondition(personItem)),
                    tableWrites.put(item, isNew ? Condition.notExists(TableModel.PK) : EXISTS)));
            countCredits(context, credit, item);
            if (isNew) {
                rerank(context, Access.CREDIT, personId, movieId, movie, gone -> false);
            }
            return credit;
        });
    }

    @Override
    public CompletableFuture<Award> recordAward(Award award, CallContext context) {
        return tableWrites.optimistically(() -> {
            List<TransactWriteItem> items = new ArrayList<>();
            if (award.movieId() != null) {
                Map<String, AttributeValue> movie = tableWrites.getConsistent(context, TableModel.movieKey(award.movieId()));
                if (movie == null) {
                    throw new NotFoundException("There is no movie " + award.movieId().value());
                }
                items.add(tableWrites.check(TableModel.movieKey(award.movieId()), versionCondition(movie)));
            }
            if (award.personId() != null) {
                Map<String, AttributeValue> person = tableWrites.getConsistent(context, TableModel.personKey(award.personId()));
                if (person == null) {
                    throw new NotFoundException("There is no person " + award.personId().value());
                }
                items.add(tableWrites.check(TableModel.personKey(award.personId()), versionCondition(person)));
            }
            Map<String, AttributeValue> item = TableModel.awards(award).encode(award);
            weights.observe(List.of(item)).join();
            items.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item).build()).build());
            tableWrites.transact(context, Access.RECORD_AWARD, items);
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
        return tableWrites.deleteOfType(context, Access.REMOVE_AWARD, entity.keyFromFields(Records.components(award)), entity.type());
    }

    // ---- entries of a private collection's counted list

    @Override
    public CompletableFuture<Record> addEntry(Part part, String ownerId, Record entry, ItemRef<?> mustExist,
                                              CallContext context) {
        return listEntries.addEntry(part, ownerId, entry, mustExist, context);
    }

    @Override
    public CompletableFuture<Boolean> removeEntry(Part part, String ownerId, Record entry, CallContext context) {
        return listEntries.removeEntry(part, ownerId, entry, context);
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
        return tableWrites.optimistically(() -> {
            Map<String, AttributeValue> key = TableModel.creditKey(movieId, personId, role);
            if (tableWrites.getConsistent(context, key) == null) {
                return false;
            }
            // The delete only of that credit, and the counts of its person (and movie) down by one, together.
            List<TransactWriteItem> items = new ArrayList<>();
            Expression ofType = Expression.of(Condition.equal(TableModel.TYPE, s(TableModel.credits(role).type())));
            items.add(TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key)
                    .conditionExpression(ofType.condition()).expressionAttributeNames(ofType.names())
                    .expressionAttributeValues(ofType.values()).build()).build());
            items.add(tableWrites.count(TableModel.personKey(personId), Map.of(TableModel.counter(role), -1), EXISTS));
            if (role == Role.CAST) {
                // Its movie's count down by one, and its copy of the first-billed cast without them.
                Map<String, AttributeValue> movieItem = tableWrites.getConsistent(context, TableModel.movieKey(movieId));
                items.add(movieItem == null ? tableWrites.count(TableModel.movieKey(movieId), Map.of(TableModel.CAST_COUNT, -1), EXISTS)
                        : castCopies.update(movieItem, -1, castCopies.after(context, movieItem, personId, null), EXISTS));
            }
            tableWrites.transact(context, Access.UNCREDIT, items);
            rerank(context, Access.UNCREDIT, personId, movieId, null,
                    gone -> gone.movieId().equals(movieId) && gone.role() == role);
            return true;
        });
    }

    @Override
    public CompletableFuture<Boolean> deleteMovie(MovieId movieId, CallContext context) {
        return tableWrites.optimistically(() -> {
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
                unit.add(tableWrites.count(TableModel.personKey(PersonId.of(person)), deltas, EXISTS));
                units.add(unit);
            });
            List<TransactWriteItem> batch = new ArrayList<>();
            for (List<TransactWriteItem> unit : units) {
                if (batch.size() + unit.size() > MAX_TRANSACTION_ITEMS) {
                    tableWrites.transact(context, Access.DELETE_COLLECTION, batch);
                    batch = new ArrayList<>();
                }
                batch.addAll(unit);
            }
            if (!batch.isEmpty()) {
                tableWrites.transact(context, Access.DELETE_COLLECTION, batch);
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
        return streams.recordStream(stream, context);
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
}

