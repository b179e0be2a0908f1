package dev.moviegraph.dynamo.model;

import static dev.moviegraph.dynamo.model.TableModel.GSI3_PK;
import static dev.moviegraph.dynamo.model.TableModel.GSI3_SK;
import static dev.moviegraph.dynamo.model.TableModel.LSI1_SK;
import static dev.moviegraph.dynamo.model.TableModel.PK;
import static dev.moviegraph.dynamo.model.TableModel.SK;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogAccess;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Every access pattern of the table: the operation, the index and the key condition, each of whose
 * values is bound to a key template of {@link TableModel}. Queries render their values from those
 * templates ({@link #query}), and plans, traces and the start-up check describe them from the same
 * templates, so what a plan says is what is sent and a key format changes in the model alone.
 */
public enum Access implements CallPattern {
    GET_ITEM(CatalogAccess.ITEMS_BY_KEY, "GetItem", Index.TABLE,
            key(keyed(PK)).sortEquals(keyed(SK))),
    BATCH_GET_ITEM(CatalogAccess.ITEMS_BY_KEY, "BatchGetItem", Index.TABLE,
            key(keyed(PK)).sortEquals(keyed(SK))),
    /** Every item of a movie's collection, its list and search entries too: what writers replace or delete. */
    ENTIRE_COLLECTION(CatalogAccess.MOVIE_COLLECTION, "Query", Index.TABLE,
            key(bind(TableModel.MOVIE, PK))),
    /**
     * One range of a movie's collection that putMovie reads: items that copy what changed, credits and
     * entries, never the totals when the title stays ({@link MovieCopyRanges#of}).
     */
    MOVIE_COPIES(CatalogAccess.PUT_ENTITY, "Query", Index.TABLE,
            key(bind(TableModel.MOVIE, PK)).sortBetween(new Binding(copyHolders(), SK, Bound.PREFIX), new Binding(copyHolders(), SK, Bound.PREFIX_END))),
    /** GSI3: the person item and every credit of the person, all roles (a rename rewrites their copies). */
    PERSON_PARTITION(CatalogAccess.PUT_ENTITY, "Query", Index.GSI3,
            key(bind(TableModel.PERSON, GSI3_PK))),
    /** A person's search entries, in their partition: a rename replaces them. */
    PERSON_WORDS(CatalogAccess.PUT_ENTITY, "Query", Index.TABLE,
            key(bind(TableModel.PERSON_WORD, PK)).sortBeginsWith(new Binding(List.of(TableModel.PERSON_WORD), SK, Bound.PREFIX))),

    /** GSI4 (sparse, search entries only): movies and people whose words start with a prefix, best ranked first. */
    SEARCH(CatalogAccess.SEARCH, "Query", Index.GSI4,
            key(bind(TableModel.MOVIE_WORD, TableModel.GSI4_PK))),
    /** GSI5 (sparse): the same for one kind, movies or people. */
    SEARCH_KIND(CatalogAccess.SEARCH, "Query", Index.GSI5,
            key(new Binding(List.of(TableModel.MOVIE_WORD, TableModel.PERSON_WORD), TableModel.GSI5_PK, Bound.FULL))),

    /** GSI6 (sparse, list entries only): a page of a movie list, in its order. */
    MOVIE_LIST_PAGE(CatalogAccess.MOVIE_LISTS, "Query", Index.GSI6,
            key(bind(TableModel.MOVIE_LIST, TableModel.GSI6_PK))),

    /** GSI5 (sparse: winners only, overloaded with search): an award's winners of every category, newest first. */
    AWARD_WINNERS(CatalogAccess.AWARD_WINNERS, "Query", Index.GSI5,
            key(bind(TableModel.MOVIE_AWARD, TableModel.GSI5_PK))),
    /** GSI6 (sparse: winners only, overloaded with movie lists): an award's winners in one category, newest first. */
    AWARD_WINNERS_IN_CATEGORY(CatalogAccess.AWARD_WINNERS, "Query", Index.GSI6,
            key(bind(TableModel.MOVIE_AWARD, TableModel.GSI6_PK))),
    /** Condition checks of the movie and the person it names, and the award, in one transaction. */
    RECORD_AWARD(CatalogAccess.AWARD, "TransactWriteItems", Index.TABLE,
            key(awardKey(PK)).sortEquals(awardKey(SK))),
    REMOVE_AWARD(CatalogAccess.AWARD, "DeleteItem", Index.TABLE,
            key(awardKey(PK)).sortEquals(awardKey(SK))),

    /** The movie item, version-guarded, with its credits' and totals' copies of title and year. */
    PUT_MOVIE(CatalogAccess.PUT_ENTITY, "TransactWriteItems", Index.TABLE,
            key(bind(TableModel.MOVIE, PK))),
    /** The person item, version-guarded, with every credit's copy of the name (found through GSI3). */
    PUT_PERSON(CatalogAccess.PUT_ENTITY, "TransactWriteItems", Index.TABLE,
            key(new Binding(List.of(TableModel.PERSON, TableModel.CAST), PK, Bound.FULL)).sortEquals(new Binding(concat(List.of(TableModel.PERSON), TableModel.CREDITS), SK, Bound.FULL))),
    /** Condition checks of the movie and the person, and the credit, in one transaction. */
    CREDIT(CatalogAccess.CREDIT, "TransactWriteItems", Index.TABLE,
            key(bind(TableModel.MOVIE, PK)).sortEquals(new Binding(List.copyOf(TableModel.CREDITS), SK, Bound.FULL))),
    /** The credit's delete and its person's (and movie's) counts down by one, in one transaction. */
    UNCREDIT(CatalogAccess.CREDIT, "TransactWriteItems", Index.TABLE,
            key(bind(TableModel.MOVIE, PK)).sortEquals(new Binding(List.copyOf(TableModel.CREDITS), SK, Bound.FULL))),
    /** Every item of a movie's collection, the movie item first. */
    DELETE_COLLECTION(CatalogAccess.DELETE_MOVIE, "TransactWriteItems", Index.TABLE,
            key(bind(TableModel.MOVIE, PK))),
    /** The stream item (once per stream id), a check of the movie and, in transactional mode, its total. */
    RECORD_STREAM(CatalogAccess.RECORD_STREAM, "TransactWriteItems", Index.TABLE,
            key(new Binding(List.of(TableModel.STREAM, TableModel.TOTAL), PK, Bound.FULL)).sortEquals(new Binding(List.of(TableModel.STREAM, TableModel.TOTAL), SK, Bound.FULL))),
    /** TOTALS=stream: the stream item alone, once per stream id; the aggregator counts it. */
    RECORD_STREAM_ITEM(CatalogAccess.RECORD_STREAM, "PutItem", Index.TABLE,
            key(bind(TableModel.STREAM, PK)).sortEquals(bind(TableModel.STREAM, SK))),
    /** The aggregator's batch: totals of many movies and the shard's checkpoint, in one transaction. */
    AGGREGATE_TOTALS(CatalogAccess.RECORD_STREAM, "TransactWriteItems", Index.TABLE,
            key(new Binding(List.of(TableModel.TOTAL, TableModel.CHECKPOINT), PK, Bound.FULL)).sortEquals(new Binding(List.of(TableModel.TOTAL, TableModel.CHECKPOINT), SK, Bound.FULL))),
    /** The aggregator's checkpoint moved to its batch's end once the batch's totals are merged into the top lists. */
    FINISH_BATCH(CatalogAccess.RECORD_STREAM, "PutItem", Index.TABLE,
            key(bind(TableModel.CHECKPOINT, PK)).sortEquals(bind(TableModel.CHECKPOINT, SK))),
    /** A month's top list, put on condition of its version: a merge of totals, a deletion, a rename, a refill. */
    TOP_LIST_WRITE(CatalogAccess.RECORD_STREAM, "PutItem", Index.TABLE,
            key(bind(TableModel.TOP_LIST, PK)).sortEquals(bind(TableModel.TOP_LIST, SK))),
    /** GSI8 (keys only): a month's totals, one Query per shard; only a refill of its top list reads them. */
    TOP_REFILL_KEYS(CatalogAccess.DELETE_MOVIE, "Query", Index.GSI8,
            key(bind(TableModel.TOTAL, TableModel.GSI8_PK))),
    /** The change feed's reader lease: taken, renewed and given up with conditional writes. */
    FEED_LEASE(CatalogAccess.CHANGE_FEED, "PutItem", Index.TABLE,
            key(bind(TableModel.LEASE, PK)).sortEquals(bind(TableModel.LEASE, SK))),
    /** A publisher's number for its next change: an atomic ADD, whoever publishes (a lease holder, a Lambda shard). */
    CHANGE_TICKET(CatalogAccess.CHANGE_FEED, "UpdateItem", Index.TABLE,
            key(bind(TableModel.CHANGE_TICKET, PK)).sortEquals(bind(TableModel.CHANGE_TICKET, SK))),
    /** A batch of changes, under its publisher's number. */
    PUBLISH_CHANGES(CatalogAccess.CHANGE_FEED, "PutItem", Index.TABLE,
            key(bind(TableModel.CHANGE, PK)).sortEquals(bind(TableModel.CHANGE, SK))),
    /** Every replica with subscribers: the changes published after the last one it saw. */
    CHANGES_SINCE(CatalogAccess.CHANGE_FEED, "Query", Index.TABLE,
            key(bind(TableModel.CHANGE, PK)).sortAfter(bind(TableModel.CHANGE, SK)));

    /** How a value is taken from its template: all of it, or the prefix before the first attribute. */
    private enum Bound {
        FULL,
        PREFIX,
        /** The prefix followed by '~', which sorts after every digit: the end of a range of keys. */
        PREFIX_END
    }

    /**
     * A key condition as data: the index's partition key equal to one binding, and its sort key matched
     * to others. The expression text and its placeholders ({@code :pk}, {@code :sk}, {@code :from},
     * {@code :to}) are derived from the index's declaration, and each binding must be of the key
     * attribute it is matched to, so no key condition is written as a string.
     */
    private record KeyCondition(Binding partition, KeyMatch match, List<Binding> sort) {
        KeyCondition sortEquals(Binding value) {
            return new KeyCondition(partition, KeyMatch.EQUALS, List.of(value));
        }

        KeyCondition sortBeginsWith(Binding prefix) {
            return new KeyCondition(partition, KeyMatch.BEGINS_WITH, List.of(prefix));
        }

        KeyCondition sortBetween(Binding from, Binding to) {
            return new KeyCondition(partition, KeyMatch.BETWEEN, List.of(from, to));
        }

        KeyCondition sortAfter(Binding after) {
            return new KeyCondition(partition, KeyMatch.AFTER, List.of(after));
        }

        /** The expression on {@code index}'s keys; each placeholder's binding goes into {@code bindings}. */
        String render(Index index, Map<String, Binding> bindings) {
            require(partition, index.partitionKey());
            bindings.put(":pk", partition);
            sort.forEach(binding -> require(binding, index.sortKey()));
            if (match == KeyMatch.BETWEEN) {
                bindings.put(":from", sort.get(0));
                bindings.put(":to", sort.get(1));
            } else if (match != KeyMatch.NONE) {
                bindings.put(":sk", sort.get(0));
            }
            return match.on(index);
        }

        private static void require(Binding binding, String keyAttribute) {
            if (!binding.keyAttribute().equals(keyAttribute)) {
                throw new IllegalStateException("a key condition binds " + binding.keyAttribute() + " where the index's key is "
                        + keyAttribute);
            }
        }
    }

    private static KeyCondition key(Binding partition) {
        return new KeyCondition(partition, KeyMatch.NONE, List.of());
    }

    /** A value of the key condition, bound to the template of one of these entities. */
    private record Binding(List<Entity<?>> entities, String keyAttribute, Bound bound) {
        public String describe() {
            return entities.stream().map(entity -> entity.template(keyAttribute)).distinct()
                    .map(template -> switch (bound) {
                        case FULL -> template.text();
                        case PREFIX -> template.prefix();
                        case PREFIX_END -> template.prefix() + "~";
                    })
                    .collect(Collectors.joining(" | "));
        }

        /**
         * The value for these attribute values; an entity among several is picked by {@code which}; a key
         * of a sharded template ({@code {movieId:shard}}) is {@code shard}'s.
         */
        String render(int which, Map<String, ?> values, int shard) {
            KeyTemplate template = entities.get(which).template(keyAttribute);
            return switch (bound) {
                case FULL -> shard < 0 ? template.render(values) : template.renderShard(values, shard);
                case PREFIX -> template.prefix();
                case PREFIX_END -> template.prefix() + "~";
            };
        }
    }

    /** What {@link #MOVIE_COPIES} can start or end at: the entities putMovie reads, in sort-key order. */
    private static List<Entity<?>> copyHolders() {
        return concat(concat(List.of(TableModel.MOVIE_TITLE), TableModel.CREDITS),
                List.of(TableModel.TOTAL, TableModel.TITLE_WORD, TableModel.MOVIE_LIST, TableModel.MOVIE_WORD));
    }

    private static List<Entity<?>> concat(List<? extends Entity<?>> first, List<? extends Entity<?>> second) {
        List<Entity<?>> all = new java.util.ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static Binding bind(Entity<?> entity, String keyAttribute) {
        return new Binding(List.of(entity), keyAttribute, Bound.FULL);
    }

    /** An award, kept with its movie or, naming none, with its person. */
    private static Binding awardKey(String keyAttribute) {
        return new Binding(List.of(TableModel.MOVIE_AWARD, TableModel.PERSON_AWARD), keyAttribute, Bound.FULL);
    }

    /** Any item a reference can name: movies, people and totals. */
    private static Binding keyed(String keyAttribute) {
        return new Binding(List.of(TableModel.MOVIE, TableModel.PERSON, TableModel.TOTAL), keyAttribute, Bound.FULL);
    }

    private static final Set<String> WRITE_OPERATIONS = Set.of(
            "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems");

    /** Keys one BatchGetItem takes at most (DynamoDB's limit). */
    public static final int MAX_GET_KEYS = 100;

    private final CatalogAccess serves;
    private final String operation;
    private final Index index;
    private final String keyCondition;
    private final Map<String, Binding> bindings = new LinkedHashMap<>();
    /** Computed once, on first use (enum constants cannot derive it in their constructor: the model is not ready). */
    private volatile AccessPattern description;
    private volatile List<Entity<?>> returned;

    Access(CatalogAccess serves, String operation, Index index, KeyCondition key) {
        this.serves = serves;
        this.operation = operation;
        this.index = index;
        this.keyCondition = key.render(index, bindings);
    }

    /** How this many distinct keys are read: one is a GetItem (the plainest request), more a BatchGetItem. */
    public static Access byKeys(int distinctKeys) {
        return distinctKeys == 1 ? GET_ITEM : BATCH_GET_ITEM;
    }

    /** How many calls a read of this many distinct keys makes: one per chunk of {@value #MAX_GET_KEYS}. */
    public static int callsByKeys(int distinctKeys) {
        return (distinctKeys + MAX_GET_KEYS - 1) / MAX_GET_KEYS;
    }

    CatalogAccess serves() {
        return serves;
    }

    /** Whether the operation writes (its capacity is write units). */
    @Override
    public boolean writes() {
        return WRITE_OPERATIONS.contains(operation);
    }

    /**
     * At most the read units one call reading {@code items} items consumes, with eventually consistent
     * reads (half a unit per 4 KB): by key, every item is rounded up to 4 KB on its own (more for an
     * item larger than that); a Query sums the items' sizes, each at {@code itemBytes} (the largest item
     * the call can return, see {@link dev.moviegraph.dynamo.read.ItemWeights}), and rounds up once.
     */
    public double estimatedReadUnits(int items, int itemBytes) {
        if (operation.equals("Query")) {
            return queryReadUnits(items, itemBytes);
        }
        return items * Math.ceil(itemBytes / 4096.0) * 0.5;
    }

    /** At most the read units of a Query reading {@code items} items of at most {@code itemBytes} each. */
    public static double queryReadUnits(int items, int itemBytes) {
        return queryReadUnits((long) items * itemBytes);
    }

    /** At most the read units of a Query reading items of {@code bytes} in all (eventually consistent). */
    public static double queryReadUnits(long bytes) {
        return Math.max(1, Math.ceil(bytes / 4096.0)) * 0.5;
    }

    @Override
    public String operation() {
        return operation;
    }

    public Index index() {
        return index;
    }

    /** The index name, or "table" for the base table. */
    @Override
    public String indexLabel() {
        return index.label();
    }

    /**
     * A Query with this pattern's key condition, each value rendered from its template with
     * {@code attributes} (the partition's and, for a sort key matched to a whole key, the sort key's).
     */
    public QueryRequest.Builder query(String table, Map<String, ?> attributes) {
        return query(table, 0, attributes);
    }

    /**
     * The same, where a value bound to several entities takes the {@code which}-th (a person's search
     * partition rather than a movie's, say).
     */
    public QueryRequest.Builder query(String table, int which, Map<String, ?> attributes) {
        return query(table, which, attributes, -1);
    }

    /** The Query of one shard of a partition that a read fans out over (a month's totals on GSI8, say). */
    public QueryRequest.Builder queryShard(String table, int shard, Map<String, ?> attributes) {
        return query(table, 0, attributes, shard);
    }

    private QueryRequest.Builder query(String table, int which, Map<String, ?> attributes, int shard) {
        Map<String, AttributeValue> rendered = new LinkedHashMap<>();
        bindings.forEach((placeholder, binding) -> rendered.put(placeholder,
                AttributeValue.fromS(binding.render(binding.entities().size() > 1 ? which : 0, attributes, shard))));
        return QueryRequest.builder().tableName(table).indexName(index.indexName())
                .keyConditionExpression(keyCondition).expressionAttributeValues(rendered);
    }

    /** The key condition with its values in place, as a trace shows it. */
    @Override
    public String render(Map<String, AttributeValue> values) {
        return substitute(placeholder -> values.get(placeholder).s());
    }

    /**
     * The entities whose items a call of this pattern can return: for a Query, every entity whose key on
     * the index's partition key could be the value it binds (its template's fixed prefix and the bound
     * one's are one the other's start), so an overloaded index's other items count too (an award's
     * winners are movie and person awards alike); by key, the entities it binds. What its estimate
     * weighs ({@link dev.moviegraph.dynamo.read.ItemWeights}); made once.
     */
    public List<Entity<?>> returns() {
        List<Entity<?>> found = returned;
        if (found == null) {
            Binding partition = bindings.values().stream()
                    .filter(binding -> binding.keyAttribute().equals(index.partitionKey())).findFirst().orElseThrow();
            List<String> bound = partition.entities().stream()
                    .map(entity -> entity.template(partition.keyAttribute()).prefix()).toList();
            found = operation.equals("Query") ? TableModel.ENTITIES.stream().filter(entity -> {
                KeyTemplate template = entity.template(index.partitionKey());
                return template != null && bound.stream().anyMatch(prefix ->
                        prefix.startsWith(template.prefix()) || template.prefix().startsWith(prefix));
            }).toList() : List.copyOf(partition.entities());
            returned = found;
        }
        return found;
    }

    /** What plans, traces and the docs show of the pattern; made once (a plan asks for it per call). */
    public AccessPattern describe() {
        AccessPattern described = description;
        if (described == null) {
            described = new AccessPattern(name(), serves, operation, indexLabel(),
                    substitute(placeholder -> bindings.get(placeholder).describe()));
            description = described;
        }
        return described;
    }

    private String substitute(Function<String, String> value) {
        return KeyMatch.substitute(keyCondition, value);
    }
}
