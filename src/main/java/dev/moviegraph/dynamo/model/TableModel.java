package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.BilledCast;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Records;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.TopList;
import dev.moviegraph.catalog.WatchlistEntry;
import dev.moviegraph.catalog.WatchlistOwner;

import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The single table, declared once: its key attributes, its indexes ({@link Index}) and every item type
 * ({@link Entity}) with its key templates, attributes and copies. Every key prefix and every DynamoDB
 * attribute name of the gateway is written here; keys, item codecs, access patterns ({@link Access}),
 * cursors, read estimates, the table definition and docs/design.md's tables are derived from it.
 *
 * <p>A movie's item collection ({@code pk = mov#{movieId}}) holds the movie, its credits and its
 * monthly totals. LSI1 orders it by credit: directors, writers, the movie, then the cast top-billed
 * first, so a movie with its crew and a first cast page is one Query. GSI3 is overloaded: a person's
 * partition holds the person, then their acting, directing and writing credits, each role newest first
 * (the year is stored descending in the key), so a filmography page is one Query in the order users
 * want. A month's top list is one item ({@link #TOP_LIST}); GSI8 is sparse and keys only: only totals carry
 * {@code gsi8pk}, so a month's {@link TopShards} partitions find its totals when deletions refill a list.
 */
public final class TableModel {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableModel.class);

    /** The layout this model writes; a table records it in its layout item. */
    public static final int LAYOUT_VERSION = 5;

    public static final String PK = "pk";
    public static final String SK = "sk";
    static final String LSI1_SK = "lsi1sk";
    static final String GSI3_PK = "gsi3pk";
    static final String GSI3_SK = "gsi3sk";
    /** Layout 3's top index key ({@code month#{month}}, one partition a month): only the migration reads it. */
    public static final String GSI2_PK = "gsi2pk";
    /** A month's totals, keys only, in {@link TopShards#COUNT} partitions: {@code mon#{month}#{shard}}. */
    public static final String GSI8_PK = "gsi8pk";
    /** Search: a word prefix's partition, movies and people together. */
    static final String GSI4_PK = "gsi4pk";
    /** Search: a word prefix's partition of one kind (movies or people). */
    static final String GSI5_PK = "gsi5pk";
    /** A search entry's rank: a plain attribute that is the sort key of both search indexes. */
    static final String RANK = "srank";
    /** Browse and top rated: a movie list's partition. */
    static final String GSI6_PK = "gsi6pk";
    /** A list entry's place in its list: the sort key of gsi6. */
    static final String LIST_RANK = "lrank";
    /** A total's count. */
    public static final String STREAMS = "streams";
    /** Every item carries its type; items are decoded by it, never by key prefixes. */
    public static final String TYPE = "type";
    /** Optimistic version of a movie or person item. */
    public static final String VERSION = "version";
    /** The table's time-to-live attribute (a number, epoch seconds); only persisted queries carry it. */
    public static final String EXPIRES_AT = "expiresAt";

    /** An individual stream, in a partition of its own: reading a movie never reads its streams. */
    public record StoredStream(String streamId, MovieId movieId, Instant at, YearMonth month, String movieTitle) {
    }

    /**
     * The stream aggregator's position in one shard of the table's change stream (TOTALS=stream): every
     * record up to {@code sequenceNumber} is counted. While a batch that needed several transactions is
     * being committed, {@code pending} is the batch's last record and {@code done} how many of its
     * transactions are in, so whoever reads the checkpoint next finishes that batch, never counts it twice.
     */
    public record Checkpoint(String shardId, String sequenceNumber, boolean closed, String pending, Integer done,
                             String pendingSums) {
        public Checkpoint(String shardId, String sequenceNumber, boolean closed) {
            this(shardId, sequenceNumber, closed, null, null, null);
        }
    }

    /** The holder of a named lease, until {@code heldUntil} (epoch milliseconds), in its {@code term}. */
    public record Lease(String name, String owner, long heldUntil, long term) {
    }

    /**
     * Movies whose items changed and months whose totals changed, as read from the stream, under the
     * number its publisher took ({@link ChangeTicket}); {@code everything} when a reader may have missed
     * changes (a new reader, a lost iterator), so every subscription is re-read. {@code owners} are the
     * owners of private collections whose items changed ({@code CatalogChanges.Owner#text}); a change
     * written before they existed reads back with none.
     */
    public record Change(long sequence, List<String> movies, List<String> months, boolean everything,
                         long expiresAt, List<String> owners) {
        public Change(long sequence, List<String> movies, List<String> months, boolean everything, long expiresAt) {
            this(sequence, movies, months, everything, expiresAt, List.of());
        }
    }

    /** The last number handed to a publisher of the change feed ({@code ADD 1}, one per published change). */
    public record ChangeTicket(String feed, long issued) {
    }

    /** Facts about the table itself: its layout version, and markers of finished loads. */
    public record Meta(String name, Integer layoutVersion, Instant loadedAt) {
    }

    /**
     * A document registered by automatic persisted queries, under {@code hash}, the SHA-256 of its text (64
     * lower-case hexadecimal characters). {@code expiresAt} is epoch seconds: DynamoDB's time to live deletes the item some time after it,
     * and reads treat it as absent from then on.
     */
    public record PersistedQuery(String hash, String document, long expiresAt) {
    }

    /**
     * One of a movie's first-billed cast inside its movie item ({@link Movie#firstCast}), under short names:
     * every movie item holds up to {@link Movie#FIRST_CAST} of them.
     */
    static final Entity<BilledCast> BILLED_CAST = Entity.of("billedCast", BilledCast.class)
            .store("personId", "p").store("personName", "n").store("characters", "c").store("billing", "b");

    public static final Entity<Movie> MOVIE = Entity.of("movie", Movie.class)
            .store("id", "movieId")
            .nests("firstCast", BILLED_CAST)
            .key(PK, "mov#{movieId}").key(SK, "mov#{movieId}")
            .key(LSI1_SK, "movie")
            .versioned()
            .estimatedBytes(256);

    public static final Entity<Person> PERSON = Entity.of("person", Person.class)
            .store("id", "personId")
            .key(PK, "per#{personId}").key(SK, "per#{personId}")
            .key(GSI3_PK, "per#{personId}").key(GSI3_SK, "#person")
            .versioned()
            .estimatedBytes(256);

    public static final Entity<Credit> CAST = credit("cast", Role.CAST, "act", "movie#cast", "billing");
    public static final Entity<Credit> DIRECTOR = credit("director", Role.DIRECTOR, "dir", "crew#dir", "ordering");
    public static final Entity<Credit> WRITER = credit("writer", Role.WRITER, "wri", "crew#wri", "ordering");
    /** The credits of every role, in the order of {@link Role}. */
    public static final List<Entity<Credit>> CREDITS = List.of(CAST, DIRECTOR, WRITER);

    public static final Entity<MonthlyStreams> TOTAL = Entity.of("total", MonthlyStreams.class)
            .key(PK, "mov#{movieId}").key(SK, "tot#{month}")
            .key(GSI8_PK, "mon#{month}#{movieId:shard}")
            .copies(MOVIE, "movieVersion", "movieTitle", "title")
            .estimatedBytes(256);

    /**
     * A title the movie is known by in a region or language, first in the movie's item collection in the
     * table and in lsi1 ({@code #} sorts before every other key there): a movie with its titles is one Query
     * of lsi1 (through its awards and crew, short lists), and no read of the movie's other lists, in either
     * order, passes through its titles ({@code CollectionShapesTest}).
     */
    public static final Entity<MovieTitle> MOVIE_TITLE = Entity.of("movieTitle", MovieTitle.class)
            .key(PK, "mov#{movieId}").key(SK, "#title#{ordering:pad}").key(LSI1_SK, "#title#{ordering:pad}")
            .estimatedBytes(256);

    /**
     * One prefix of one word of a movie's title or a person's name, in the owner's item collection (so
     * deleting a movie deletes its entries), and in the two search indexes under that prefix, ranked by
     * {@code rank} (see {@link SearchEntries#rank}). It carries what a result list shows, so a page of results is
     * one Query; {@code words} is the whole folded title or name, which narrows a query of several words.
     */
    public record SearchEntry(String id, String prefix, String name, Integer year, String words, String rank,
                              String knownForId, String knownForTitle, Integer knownForYear, Integer knownForVotes) {
    }

    // Entries derived from a movie or person sort after every other item of its collection (xa#, xl#,
    // then xw#), so readers of the collection stop before them (Access.WHOLE_COLLECTION).
    public static final Entity<SearchEntry> MOVIE_WORD = movieSearchEntry("movieWord", "xw#{prefix}");

    /**
     * One prefix of a word of a movie's other titles that its own title lacks, under the same search keys as
     * the movie's words (so "verurteilten" finds The Shawshank Redemption), showing that title; with the
     * movie's words at the end of its collection ({@code xa#}), derived whole from its titles
     * ({@link SearchEntries#of(MovieTitle.OfMovie)}).
     */
    public static final Entity<SearchEntry> TITLE_WORD = movieSearchEntry("titleWord", "xa#{prefix}");

    /** A movie's search entry under {@code sortKey} in its collection, findable by prefix in both search indexes. */
    private static Entity<SearchEntry> movieSearchEntry(String type, String sortKey) {
        return Entity.of(type, SearchEntry.class)
                .store("id", "movieId").store("rank", RANK)
                .key(PK, "mov#{movieId}").key(SK, sortKey)
                .key(GSI4_PK, "srch#{prefix}").key(GSI5_PK, "srch#mov#{prefix}")
                .omit("knownForId").omit("knownForTitle").omit("knownForYear").omit("knownForVotes")
                .estimatedBytes(256);
    }

    /** The entries a search for movies reads: every entity whose entries find a movie. */
    public static final List<Entity<SearchEntry>> MOVIE_SEARCH = List.of(MOVIE_WORD, TITLE_WORD);

    public static final Entity<SearchEntry> PERSON_WORD = Entity.of("personWord", SearchEntry.class)
            .store("id", "personId").store("rank", RANK)
            .key(PK, "per#{personId}").key(SK, "xw#{prefix}")
            .key(GSI4_PK, "srch#{prefix}").key(GSI5_PK, "srch#per#{prefix}")
            .estimatedBytes(384);

    /**
     * A movie's place in one list it belongs to (a genre, a year, both; the top rated of all or of a
     * genre), in its item collection and in gsi6 under the list, ordered by {@code rank}. It carries what
     * a list page shows (title, year, rating and votes, stored under the movie's own attribute names), so
     * a page is one Query. Like a search entry it is derived whole from the movie item and replaced
     * whenever the movie is written (putMovie, the import, the migration), which keeps these copies true.
     *
     * <p>{@code ratingCopied} tells an entry that carries the rating from one written before it did: an
     * unrated movie's entry has neither {@code averageRating} nor {@code numVotes}, just as an older entry
     * has neither, so the absence of the copy cannot tell them apart. Every entry this version writes sets
     * {@code ratingCopied}; a reader answers the rating from the entry only then (nulls included) and reads
     * the movie item otherwise.
     */
    public record ListEntry(String id, String list, String title, Integer year, String rank, Double averageRating,
                            Integer numVotes, Boolean ratingCopied) {
    }

    public static final Entity<ListEntry> MOVIE_LIST = Entity.of("movieList", ListEntry.class)
            .store("id", "movieId").store("rank", LIST_RANK)
            .store("averageRating", MOVIE.attribute("averageRating")).store("numVotes", MOVIE.attribute("numVotes"))
            .key(PK, "mov#{movieId}").key(SK, "xl#{list}")
            .key(GSI6_PK, "lst#{list}")
            .estimatedBytes(256);

    /**
     * An award or nomination of a movie (and maybe a person): in the movie's collection, and in LSI1
     * before the crew ({@code aw#}, newest first), so a movie's awards come with its crew; in GSI3 under
     * the person, before the person item ({@code #award#}), so a person's awards come with the person and
     * their first acting page. Only winners carry the keys of the two winners' indexes: gsi5 by award,
     * newest first, and gsi6 by award and category.
     */
    public static final Entity<Award> MOVIE_AWARD = award(Entity.of("movieAward", Award.class)
            .key(PK, "mov#{movieId}").key(SK, "aw#{award}#{category}#{year}#{personId:opt}")
            .key(LSI1_SK, "aw#{year:desc}#{award}#{category}#{personId:opt}")
            .sparseKey(GSI3_PK, "per#{personId}", award -> award.personId() != null)
            .sparseKey(GSI3_SK, "#award#{year:desc}#{award}#{category}#{movieId:opt}", award -> award.personId() != null));

    /** An award of a person for no movie of the catalog: in the person's partition and in GSI3 as above. */
    public static final Entity<Award> PERSON_AWARD = award(Entity.of("personAward", Award.class)
            .key(PK, "per#{personId}").key(SK, "aw#{award}#{category}#{year}#{movieId:opt}")
            .key(GSI3_PK, "per#{personId}").key(GSI3_SK, "#award#{year:desc}#{award}#{category}#{movieId:opt}"));

    /** The winners' index keys every award entity has. */
    private static Entity<Award> award(Entity<Award> entity) {
        return entity.sparseKey(GSI5_PK, "win#{award}", Award::won)
                .sparseKey(RANK, "{year:desc}#{category}#{movieId:opt}#{personId:opt}", Award::won)
                .sparseKey(GSI6_PK, "win#{award}#c#{category}", Award::won)
                .sparseKey(LIST_RANK, "{year:desc}#{movieId:opt}#{personId:opt}", Award::won)
                .estimatedBytes(256);
    }

    /** The entity an award is stored as: with its movie when it names one, else with its person. */
    public static Entity<Award> awards(Award award) {
        return award.movieId() != null ? MOVIE_AWARD : PERSON_AWARD;
    }

    /**
     * A signed-in viewer, owner of a private collection ({@code vwr#{viewerId}}, the token's subject): the
     * count of their watchlist, made by their first add. In LSI1 it sorts before their entries
     * ({@code viewer} before {@code wl#}), so a first page with its count is one Query.
     */
    public static final Entity<WatchlistOwner> VIEWER = Entity.of("viewer", WatchlistOwner.class)
            .key(PK, "vwr#{viewerId}").key(SK, "vwr#{viewerId}")
            .key(LSI1_SK, "viewer")
            .estimatedBytes(128);

    /**
     * A movie on a viewer's watchlist: keyed by the movie in the table (an add is idempotent by key, a
     * remove needs no read), newest first in LSI1 ({@code {addedAt:newest}}, the movie id keeps it unique).
     */
    public static final Entity<WatchlistEntry> WATCH_ENTRY = Entity.of("watchEntry", WatchlistEntry.class)
            .key(PK, "vwr#{viewerId}").key(SK, "wl#{movieId}")
            .key(LSI1_SK, "wl#{addedAt:newest}#{movieId}")
            .estimatedBytes(128);

    /** A viewer's count of watchlist entries: an attribute of the viewer item that every add and remove keeps. */
    public static final String WATCH_COUNT = VIEWER.attribute("watchCount");

    public static final Entity<StoredStream> STREAM = Entity.of("stream", StoredStream.class)
            .key(PK, "str#{streamId}").key(SK, "str#{streamId}")
            .estimatedBytes(256);

    /**
     * In a partition of its own per shard (layout 4): every transaction of the aggregator writes its shard's
     * checkpoint, and one partition for all of them (layout 3's {@code agg#checkpoints}) took at most 500
     * such transactions a second for the whole table.
     */
    public static final Entity<Checkpoint> CHECKPOINT = Entity.of("checkpoint", Checkpoint.class)
            .key(PK, "agg#{shardId}").key(SK, "agg#{shardId}");

    /** An entry of a top list: a movie's total and its title, under short names (a list holds 200 of them). */
    static final Entity<MonthlyStreams> TOP_ENTRY = Entity.of("topEntry", MonthlyStreams.class)
            .store("movieId", "m").store("movieTitle", "t").store("streams", "s").omit("month");

    /**
     * A month's top list ({@link dev.moviegraph.dynamo.write.TopLists}), in a partition of its own: its best {@link dev.moviegraph.dynamo.write.TopLists#KEPT} totals,
     * best first, with the floor below which no other total of the month is. Counting merges into it on
     * condition of its {@code version}; a top-N read is one GetItem of it.
     */
    public static final Entity<TopList> TOP_LIST = Entity.of("topList", TopList.class)
            .nests("entries", TOP_ENTRY)
            .key(PK, "toplist#{month}").key(SK, "toplist#{month}")
            .estimatedBytes(12_288);

    public static final Entity<Meta> META = Entity.of("meta", Meta.class)
            .key(PK, "meta#{name}").key(SK, "meta#{name}");

    public static final Entity<ImportCheckpoint> IMPORT = Entity.of("import", ImportCheckpoint.class)
            .key(PK, "imp#{name}").key(SK, "imp#{name}");

    /**
     * Who reads the table's stream for the change feed: one replica at a time holds it until it expires;
     * each new holder gets the next term, which orders the changes it publishes after its predecessor's.
     */
    public static final Entity<Lease> LEASE = Entity.of("lease", Lease.class)
            .key(PK, "lease#{name}").key(SK, "lease#{name}");

    /**
     * A batch of changes a stream reader (the lease holder, or the Lambda function of a shard) read from
     * the stream, for every replica to poll: one partition, ordered by the publisher's ticket, each item
     * expiring (TTL) an hour after it was written. (Layouts before the ticket kept {@code chg#feed}.)
     */
    public static final Entity<Change> CHANGE = Entity.of("change", Change.class)
            .key(PK, "chg#log").key(SK, "chg#{sequence:seq}");

    /** Numbers the change feed's publishers take, in a partition of its own (so a Query of the log never meets it). */
    public static final Entity<ChangeTicket> CHANGE_TICKET = Entity.of("changeTicket", ChangeTicket.class)
            .key(PK, "chgticket#{feed}").key(SK, "chgticket#{feed}");

    /** In a partition of its own per hash: one GetItem finds it, and it is never read with catalog items. */
    public static final Entity<PersistedQuery> PERSISTED_QUERY = Entity.of("persistedQuery", PersistedQuery.class)
            .store("expiresAt", EXPIRES_AT)
            .key(PK, "pq#{hash}").key(SK, "pq#{hash}");

    static final List<Entity<?>> ENTITIES = entities(List.of(MOVIE, PERSON), CREDITS,
            List.of(TOTAL, MOVIE_AWARD, PERSON_AWARD, MOVIE_TITLE, MOVIE_WORD, TITLE_WORD, PERSON_WORD, MOVIE_LIST, VIEWER, WATCH_ENTRY, STREAM, CHECKPOINT, TOP_LIST, META, IMPORT, LEASE, CHANGE, CHANGE_TICKET, PERSISTED_QUERY));

    private static final Map<String, Entity<?>> BY_TYPE = ENTITIES.stream()
            .collect(Collectors.toMap(Entity::type, entity -> entity));

    @SafeVarargs
    private static List<Entity<?>> entities(List<? extends Entity<?>>... groups) {
        List<Entity<?>> all = new ArrayList<>();
        for (List<? extends Entity<?>> group : groups) {
            all.addAll(group);
        }
        if (CREDITS.size() != Role.values().length
                || CREDITS.stream().anyMatch(credit -> credit.constant("role") != Role.values()[CREDITS.indexOf(credit)])) {
            throw new IllegalStateException("CREDITS must declare one credit entity per Role, in Role order");
        }
        return List.copyOf(all);
    }

    /** The name of the layout item among the {@link Meta} items. */
    public static final String LAYOUT = "layout";

    private TableModel() {
    }

    /**
     * A credit: in its movie's collection under {@code {code}#{personId}}, in LSI1 by credit order, and
     * in GSI3 under its person by role, newest first, then title. Its movie title and year and the
     * person's name are copies.
     */
    private static Entity<Credit> credit(String type, Role role, String code, String creditOrder, String position) {
        Entity<Credit> credit = Entity.of(type, Credit.class)
                .constant("role", role)
                .store("position", position)
                .key(PK, "mov#{movieId}").key(SK, code + "#{personId}")
                .key(LSI1_SK, creditOrder + "#{" + position + ":pad}#{personId}")
                .key(GSI3_PK, "per#{personId}").key(GSI3_SK, code + "#{movieYear:desc}#{movieTitle:short}#{movieId}")
                .copies(MOVIE, "movieVersion", "movieTitle", "title", "movieYear", "year")
                .copies(PERSON, "personVersion", "personName", "name")
                .estimatedBytes(384);
        return role == Role.CAST ? credit : credit.omit("characters");
    }

    /** A movie's count of cast credits: an attribute of the movie item that every credit write keeps. */
    public static final String CAST_COUNT = MOVIE.attribute("castCount");

    /** A person's count of credits in {@code role}: an attribute of the person item. */
    public static String counter(Role role) {
        return PERSON.attribute(switch (role) {
            case CAST -> "actedCount";
            case DIRECTOR -> "directedCount";
            case WRITER -> "wroteCount";
        });
    }

    /** The entity of the credits in {@code role}. */
    public static Entity<Credit> credits(Role role) {
        return CREDITS.get(role.ordinal());
    }

    public static String type(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TYPE);
        return type == null ? "" : type.s();
    }

    /**
     * The entity an item belongs to, by its type attribute; empty for a type this version does not know.
     * During a rolling upgrade a newer gateway may write items of a new type into the partitions and
     * indexes this one reads: every reader and copy update skips them (they are the newer version's).
     */
    public static Optional<Entity<?>> entityOf(Map<String, AttributeValue> item) {
        Entity<?> entity = BY_TYPE.get(type(item));
        if (entity == null) {
            LOG.debug("Skipped an item of unknown type '{}' at {}/{}", type(item), item.get(PK), item.get(SK));
        }
        return Optional.ofNullable(entity);
    }

    public static boolean is(Map<String, AttributeValue> item, Entity<?> entity) {
        return entity.type().equals(type(item));
    }

    /** Whether an item is of one of {@code entities}: what a read of an index keeps of what it read. */
    public static boolean isAny(Map<String, AttributeValue> item, List<? extends Entity<?>> entities) {
        return entities.stream().anyMatch(entity -> is(item, entity));
    }

    /** Decodes any item by its type attribute; empty for a type this version does not know. */
    public static Optional<Record> decode(Map<String, AttributeValue> item) {
        return entityOf(item).map(entity -> entity.decode(item));
    }

    @SuppressWarnings("unchecked")
    public static <T extends Record> Entity<T> entityFor(Class<T> type) {
        List<Entity<?>> matching = ENTITIES.stream().filter(entity -> entity.recordType() == type).toList();
        if (matching.size() != 1) {
            throw new IllegalStateException("The table model has " + matching.size() + " item types for "
                    + type.getSimpleName() + "; a reference needs exactly one");
        }
        return (Entity<T>) matching.get(0);
    }

    /** The primary key of the item a reference names. */
    public static Map<String, AttributeValue> key(ItemRef<?> ref) {
        return entityFor(ref.type()).keyFromFields(Records.components((Record) ref));
    }

    static <T extends Record> Map<String, AttributeValue> encode(Entity<T> entity, T record) {
        return entity.encode(record);
    }

    public static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of(PK, AttributeValue.fromS(pk), SK, AttributeValue.fromS(sk));
    }

    /** The primary key part of any item. */
    public static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return key(item.get(PK).s(), item.get(SK).s());
    }

    public static Map<String, AttributeValue> movieKey(MovieId id) {
        return MOVIE.key(Map.of("movieId", id));
    }

    public static Map<String, AttributeValue> personKey(PersonId id) {
        return PERSON.key(Map.of("personId", id));
    }

    public static Map<String, AttributeValue> totalKey(MovieId id, YearMonth month) {
        return TOTAL.key(Map.of("movieId", id, "month", month));
    }

    public static Map<String, AttributeValue> creditKey(MovieId movie, PersonId person, Role role) {
        return credits(role).key(Map.of("movieId", movie, "personId", person));
    }

    public static Map<String, AttributeValue> streamKey(String streamId) {
        return STREAM.key(Map.of("streamId", streamId));
    }

    public static Map<String, AttributeValue> checkpointKey(String shardId) {
        return CHECKPOINT.key(Map.of("shardId", shardId));
    }

    /** Where layouts 1 to 3 kept a shard's checkpoint: read once, when a shard has none of layout 4 yet. */
    public static Map<String, AttributeValue> layout3CheckpointKey(String shardId) {
        return key("agg#checkpoints", "shard#" + shardId);
    }

    public static Map<String, AttributeValue> metaKey(String name) {
        return META.key(Map.of("name", name));
    }

    /** The movie whose item collection holds an item of this partition key, if it is one. */
    public static Optional<MovieId> movieOfPartition(String pk) {
        String prefix = MOVIE.template(PK).prefix();
        return pk.startsWith(prefix) && pk.length() > prefix.length()
                ? Optional.of(MovieId.of(pk.substring(prefix.length()))) : Optional.empty();
    }

    /** The month of a total's sort key, if it is one. */
    public static Optional<YearMonth> monthOfTotal(String sk) {
        return monthAfter(TOTAL.template(SK).prefix(), sk);
    }

    /** The month of a top list's partition key, if it is one. */
    public static Optional<YearMonth> monthOfTopList(String pk) {
        return monthAfter(TOP_LIST.template(PK).prefix(), pk);
    }

    private static Optional<YearMonth> monthAfter(String prefix, String key) {
        if (!key.startsWith(prefix)) {
            return Optional.empty();
        }
        try {
            return Optional.of(YearMonth.parse(key.substring(prefix.length())));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A key value of an entity's template for these attribute values (a partition to query, say). */
    static String render(Entity<?> entity, String keyAttribute, Map<String, ?> values) {
        return entity.template(keyAttribute).render(values);
    }

    /** An index's definition as CreateTable and UpdateTable take it ({@link TableDefinition#globalIndex}). */
    public static software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex globalIndex(Index index) {
        return TableDefinition.globalIndex(index);
    }

    // ---- the access patterns

    /**
     * Every access pattern: each item collection in each index that holds it (the Queries of a read are
     * runs of its lists there), then the declared {@link Access} patterns.
     */
    public static List<dev.moviegraph.catalog.AccessPattern> accessPatterns() {
        List<dev.moviegraph.catalog.AccessPattern> patterns = new ArrayList<>();
        ItemCollection.ALL.forEach(collection -> patterns.addAll(collection.describe()));
        for (Access access : Access.values()) {
            patterns.add(access.describe());
        }
        return patterns;
    }

}
