package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableLayout.GSI1;
import static dev.moviegraph.dynamo.TableLayout.GSI2;
import static dev.moviegraph.dynamo.TableLayout.LSI1;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogAccess;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Every access pattern of the table, declared once beside {@link TableLayout}: the operation, the
 * index, the key condition and the template of each of its values. Queries are built from these
 * constants ({@link #query}), and the plans and traces describe them from the same constants, so what
 * a plan says is what is sent.
 */
enum Access {
    GET_ITEM(CatalogAccess.ITEMS_BY_KEY, "GetItem", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id} | act#{id}", ":sk", "mov#{id} | act#{id} | tot#{month}"),
    BATCH_GET_ITEM(CatalogAccess.ITEMS_BY_KEY, "BatchGetItem", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id} | act#{id}", ":sk", "mov#{id} | act#{id} | tot#{month}"),
    /** LSI1: the movie item (billing#0000) then its cast, top-billed first. */
    MOVIE_WITH_CAST(CatalogAccess.MOVIE_COLLECTION, "Query", LSI1, "pk = :pk",
            ":pk", "mov#{id}"),
    /** LSI1 after the movie item: a cast page, top-billed first. */
    CAST_PAGE(CatalogAccess.MOVIE_COLLECTION, "Query", LSI1, "pk = :pk AND lsi1sk > :movie",
            ":pk", "mov#{id}", ":movie", TableLayout.MOVIE_BILLING),
    /** The whole item collection: movie, cast and monthly totals. */
    WHOLE_COLLECTION(CatalogAccess.MOVIE_COLLECTION, "Query", null, "pk = :pk",
            ":pk", "mov#{id}"),
    /** The movie item and its totals: the sort-key range skips the cast (act#...). */
    MOVIE_AND_TOTALS(CatalogAccess.MOVIE_COLLECTION, "Query", null, "pk = :pk AND sk BETWEEN :low AND :high",
            ":pk", "mov#{id}", ":low", "mov#{id}", ":high", "tot#{to} | tot#~"),
    TOTALS(CatalogAccess.MOVIE_COLLECTION, "Query", null, "pk = :pk AND sk BETWEEN :low AND :high",
            ":pk", "mov#{id}", ":low", "tot#{from} | tot#", ":high", "tot#{to} | tot#~"),
    /** GSI1 (inverted): the actor item then every cast item of the actor. */
    ACTOR_WITH_FILMOGRAPHY(CatalogAccess.FILMOGRAPHY, "Query", GSI1, "sk = :actor",
            ":actor", "act#{id}"),
    FILMOGRAPHY_PAGE(CatalogAccess.FILMOGRAPHY, "Query", GSI1, "sk = :actor AND begins_with(pk, :movies)",
            ":actor", "act#{id}", ":movies", TableLayout.MOVIE_PREFIX),
    /** GSI2 (sparse, totals only), streams descending. */
    TOP_OF_MONTH(CatalogAccess.TOP_MOVIES, "Query", GSI2, "gsi2pk = :month",
            ":month", "month#{month}"),

    /** The movie item, version-guarded, with its cast items' and totals' copies of title and year. */
    PUT_MOVIE(CatalogAccess.PUT_ENTITY, "TransactWriteItems", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id}", ":sk", "mov#{id} | act#{actor} | tot#{month}"),
    /** The actor item, version-guarded, with every cast item's copy of the name (found through GSI1). */
    PUT_ACTOR(CatalogAccess.PUT_ENTITY, "TransactWriteItems", null, "pk = :pk AND sk = :sk",
            ":pk", "act#{id} | mov#{movie}", ":sk", "act#{id}"),
    /** Condition checks of the movie and the actor, and the cast item, in one transaction. */
    CAST_ACTOR(CatalogAccess.CAST, "TransactWriteItems", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id} | act#{actor}", ":sk", "act#{actor} | mov#{id}"),
    UNCAST_ACTOR(CatalogAccess.CAST, "DeleteItem", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id}", ":sk", "act#{actor}"),
    /** Every item of a movie's collection, the movie item last. */
    DELETE_COLLECTION(CatalogAccess.DELETE_MOVIE, "TransactWriteItems", null, "pk = :pk",
            ":pk", "mov#{id}"),
    /** The stream item (once per stream id), a check of the movie and, in transactional mode, its total. */
    RECORD_STREAM(CatalogAccess.RECORD_STREAM, "TransactWriteItems", null, "pk = :pk AND sk = :sk",
            ":pk", "str#{streamId} | mov#{id}", ":sk", "str#{streamId} | tot#{month}"),
    /** The aggregator's batch: totals of many movies and the shard's checkpoint, in one transaction. */
    AGGREGATE_TOTALS(CatalogAccess.RECORD_STREAM, "TransactWriteItems", null, "pk = :pk AND sk = :sk",
            ":pk", "mov#{id} | agg#checkpoints", ":sk", "tot#{month} | shard#{shard}");

    private static final java.util.Set<String> WRITE_OPERATIONS = java.util.Set.of(
            "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems");
    private static final Pattern PLACEHOLDER = Pattern.compile(":[a-z]+");

    private final CatalogAccess serves;
    private final String operation;
    private final String index;
    private final String keyCondition;
    private final Map<String, String> templates = new LinkedHashMap<>();

    Access(CatalogAccess serves, String operation, String index, String keyCondition, String... templates) {
        this.serves = serves;
        this.operation = operation;
        this.index = index;
        this.keyCondition = keyCondition;
        for (int i = 0; i < templates.length; i += 2) {
            this.templates.put(templates[i], templates[i + 1]);
        }
    }

    /** Whether the operation writes (its capacity is write units). */
    boolean writes() {
        return WRITE_OPERATIONS.contains(operation);
    }

    /**
     * At most the read units one call reading {@code items} items consumes, with eventually consistent
     * reads (half a unit per 4 KB): by key, every item is rounded up to 4 KB on its own; a Query sums
     * the items' sizes ({@link TableLayout#ESTIMATED_ITEM_BYTES} each) and rounds up once.
     */
    double estimatedReadUnits(int items) {
        if (operation.equals("Query")) {
            return Math.max(1, Math.ceil((double) items * TableLayout.ESTIMATED_ITEM_BYTES / 4096)) * 0.5;
        }
        return items * 0.5;
    }

    String operation() {
        return operation;
    }

    /** The index name, or "table" for the base table. */
    String indexLabel() {
        return index == null ? "table" : index;
    }

    /** A Query on this pattern's index with this pattern's key condition and these values. */
    QueryRequest.Builder query(String table, Map<String, AttributeValue> values) {
        if (!values.keySet().equals(templates.keySet())) {
            throw new IllegalArgumentException(name() + " needs values for " + templates.keySet() + ", got " + values.keySet());
        }
        return QueryRequest.builder().tableName(table).indexName(index)
                .keyConditionExpression(keyCondition).expressionAttributeValues(values);
    }

    /** The key condition with its values in place, as a trace shows it. */
    String render(Map<String, AttributeValue> values) {
        return substitute(placeholder -> values.get(placeholder).s());
    }

    AccessPattern describe() {
        return new AccessPattern(name(), serves, operation, indexLabel(), substitute(templates::get));
    }

    private String substitute(java.util.function.Function<String, String> value) {
        Matcher matcher = PLACEHOLDER.matcher(keyCondition);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(value.apply(matcher.group())));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
