package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.MovieId;

import java.time.YearMonth;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The single-table layout, declared once: key attributes, key templates, item types and indexes.
 * Every other class builds keys through this one, so a key format changes in one place.
 *
 * <pre>
 * item     pk              sk              lsi1sk                   gsi2pk          streams
 * movie    mov#{movie}     mov#{movie}     billing#0000             -               -
 * cast     mov#{movie}     act#{actor}     billing#{0001}#{actor}   -               -
 * total    mov#{movie}     tot#{yyyy-MM}   -                        month#{yyyy-MM} {count}
 * actor    act#{actor}     act#{actor}     -                        -               -
 * stream   str#{stream}    str#{stream}    -                        -               -
 * </pre>
 * Movies and actors carry a {@code version}; cast items and totals carry the {@code movieVersion} and
 * {@code actorVersion} of the copies they hold, so an older write can never overwrite a newer copy.
 * GSI1 (inverted: pk = sk, sk = pk) turns act#{actor} into the actor plus every cast item of the actor.
 * GSI2 is sparse: only totals carry gsi2pk, so a month's partition is exactly its totals, by streams.
 * LSI1 orders a movie's collection by billing: the movie item first, then the cast, top-billed first;
 * totals carry no lsi1sk, so they stay out of it.
 */
public final class TableLayout {
    public static final String PK = "pk";
    public static final String SK = "sk";
    /** The item-type attribute every item carries; items are decoded by it, never by key prefixes. */
    public static final String TYPE = "type";
    public static final String LSI1_SK = "lsi1sk";
    public static final String GSI2_PK = "gsi2pk";
    public static final String STREAMS = "streams";

    public static final String GSI1 = "gsi1";
    public static final String GSI2 = "gsi2";
    public static final String LSI1 = "lsi1";

    public static final String MOVIE_PREFIX = "mov#";
    public static final String ACTOR_PREFIX = "act#";
    public static final String TOTAL_PREFIX = "tot#";
    public static final String MONTH_PREFIX = "month#";
    public static final String BILLING_PREFIX = "billing#";
    /** Individual streams live in partitions of their own, never in a movie's item collection. */
    public static final String STREAM_PREFIX = "str#";
    /** The stream aggregator's checkpoints (TOTALS=stream), one item per shard of the table's stream. */
    public static final String CHECKPOINT_PK = "agg#checkpoints";
    /** Optimistic version of a movie or actor item; the copies carry the version they copy. */
    public static final String VERSION = "version";

    /**
     * The size read estimates assume for every item (movie, actor, cast item, total): a little above the
     * largest item of the sample catalog (a cast item of 228 bytes; p99 218). Items are this small
     * because they hold only what a page shows; anything large would belong in an item of its own.
     */
    static final int ESTIMATED_ITEM_BYTES = 256;

    /** Billing order of a movie item inside its own collection: before every cast member. */
    static final String MOVIE_BILLING = BILLING_PREFIX + "0000";
    /** Uncredited cast members sort after every billed one. */
    static final int UNBILLED = 9999;

    private TableLayout() {
    }

    public static String moviePk(MovieId id) {
        return MOVIE_PREFIX + id.value();
    }

    public static String actorPk(ActorId id) {
        return ACTOR_PREFIX + id.value();
    }

    public static String totalSk(YearMonth month) {
        return TOTAL_PREFIX + month;
    }

    public static String monthPartition(YearMonth month) {
        return MONTH_PREFIX + month;
    }

    static String castBilling(Integer billing, ActorId actor) {
        return BILLING_PREFIX + String.format("%04d", billing == null ? UNBILLED : billing) + "#" + actor.value();
    }

    static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of(PK, s(pk), SK, s(sk));
    }

    static Map<String, AttributeValue> movieKey(MovieId id) {
        return key(moviePk(id), moviePk(id));
    }

    static Map<String, AttributeValue> actorKey(ActorId id) {
        return key(actorPk(id), actorPk(id));
    }

    static Map<String, AttributeValue> totalKey(MovieId id, YearMonth month) {
        return key(moviePk(id), totalSk(month));
    }

    static Map<String, AttributeValue> streamKey(String streamId) {
        return key(STREAM_PREFIX + streamId, STREAM_PREFIX + streamId);
    }

    static Map<String, AttributeValue> checkpointKey(String shardId) {
        return key(CHECKPOINT_PK, "shard#" + shardId);
    }

    static Map<String, AttributeValue> castKey(MovieId movie, ActorId actor) {
        return key(moviePk(movie), actorPk(actor));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The table with its three indexes and a stream of new images, on-demand billing (no capacity to guess). */
    public static CreateTableRequest createTableRequest(String tableName) {
        Projection all = Projection.builder().projectionType(ProjectionType.ALL).build();
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attribute(PK, ScalarAttributeType.S),
                        attribute(SK, ScalarAttributeType.S),
                        attribute(LSI1_SK, ScalarAttributeType.S),
                        attribute(GSI2_PK, ScalarAttributeType.S),
                        attribute(STREAMS, ScalarAttributeType.N))
                .keySchema(hash(PK), range(SK))
                .localSecondaryIndexes(LocalSecondaryIndex.builder()
                        .indexName(LSI1).keySchema(hash(PK), range(LSI1_SK)).projection(all).build())
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder()
                                .indexName(GSI1).keySchema(hash(SK), range(PK)).projection(all).build(),
                        GlobalSecondaryIndex.builder()
                                .indexName(GSI2).keySchema(hash(GSI2_PK), range(STREAMS)).projection(all).build())
                // New images feed the stream aggregator (TOTALS=stream); unread, a stream costs nothing.
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build())
                .build();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement hash(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
    }

    private static KeySchemaElement range(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
    }
}
