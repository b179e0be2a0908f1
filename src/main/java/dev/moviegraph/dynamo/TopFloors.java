package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.CallContext;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A month's top-list floor, so that only the totals that can be in a top list move in the top index.
 * With a floor F, at least {@value #KEPT} totals of the month have F streams or more (totals only grow),
 * so a total below F cannot be in a top 100. A writer that knows a floor f (at most F: a stale one is
 * lower) moves a total in the index when its new count reaches f, and otherwise takes it out of the
 * index (if it was in) on condition that the count stays below f. Every total at F or above was
 * therefore ranked exactly by its last update, and they are at least {@value #KEPT}: the first 100 by
 * rank in the index are exactly the top 100. Most updates of a popular month are of totals far below
 * its 200th: each leaves the index once (one delete) and costs no index write after that. (Left in the
 * index, a total would be written there at every update: the index projects every attribute.)
 *
 * <p>The floor only rises: {@link #raise} reads the month's top {@value #KEPT} from the index (one Query per
 * shard) and sets the floor to the {@value #KEPT}th's streams when that is higher, on condition that the
 * stored floor is lower. A movie deleted from the catalog takes its totals with it; the 100 totals of
 * margin between {@value #KEPT} and a top list's largest limit absorb that many deletions of a month's
 * best. Past that, a top 100 of that month could miss totals below the floor until their next update
 * ranks them; nothing lowers a floor today (see docs/design.md).
 */
final class TopFloors {
    /** Totals kept at or above the floor: twice the largest top list. */
    static final int KEPT = 200;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Duration raiseEvery;
    private final RecentReads<YearMonth, Long> floors = new RecentReads<>(Duration.ofSeconds(10), 10_000);
    private final Map<YearMonth, Long> raisedAt = new ConcurrentHashMap<>();

    /** {@code raiseEvery}: at most one raise per month per this long in this process (zero: after every batch). */
    TopFloors(DynamoDbAsyncClient client, String table, Duration raiseEvery) {
        this.client = client;
        this.table = table;
        this.raiseEvery = raiseEvery;
    }

    /** The month's floor as this process last read or raised it (at most 10 s old), 0 when there is none. */
    long of(YearMonth month, CallContext context) {
        return floors.get(month, () -> {
            Call call = Call.byKey(context, Access.GET_ITEM, 1);
            GetItemRequest request = GetItemRequest.builder().tableName(table)
                    .key(TableModel.TOP_FLOOR.key(Map.of("month", month)))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
            return call.reportWhenDone(client.getItem(request).thenApply(response -> {
                call.page(response.hasItem() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
                return response.hasItem() && !response.item().isEmpty()
                        ? TableModel.TOP_FLOOR.decode(response.item()).streams() : 0L;
            })).join();
        });
    }

    /**
     * Raises the month's floor to its {@value #KEPT}th total's streams, unless this process did so less than
     * {@code raiseEvery} ago or the month has fewer totals at or above its floor.
     */
    void raise(YearMonth month, CallContext context) {
        long now = System.nanoTime();
        Long last = raisedAt.get(month);
        if (last != null && now - last < raiseEvery.toNanos()) {
            return;
        }
        raisedAt.put(month, now);
        long current = of(month, context);
        List<CompletableFuture<List<Map<String, AttributeValue>>>> shards = new ArrayList<>();
        for (int shard = 0; shard < TopShards.COUNT; shard++) {
            String partition = TableModel.TOTAL.template(TableModel.GSI7_PK).renderShard(Map.of("month", month), shard);
            QueryRequest query = QueryRequest.builder().tableName(table).indexName(Index.GSI7.indexName())
                    .keyConditionExpression("#pk = :pk").expressionAttributeNames(Map.of("#pk", TableModel.GSI7_PK))
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                    .scanIndexForward(false).build();
            shards.add(Queries.upTo(client, context, Access.TOP_FLOOR_READ, query, KEPT));
        }
        List<BigDecimal> ranks = shards.stream().flatMap(shard -> shard.join().stream())
                .map(item -> new BigDecimal(item.get(TableModel.TOP_RANK).n()))
                .sorted(Comparator.reverseOrder()).limit(KEPT).toList();
        if (ranks.size() < KEPT) {
            return;
        }
        long raised = ranks.get(KEPT - 1).longValue(); // the rank's whole part: its streams
        if (raised <= current) {
            return;
        }
        UpdateItemRequest.Builder update = UpdateItemRequest.builder().tableName(table)
                .key(TableModel.TOP_FLOOR.key(Map.of("month", month)))
                .updateExpression("SET #floor = :floor, #type = :type, #month = :month")
                .conditionExpression("attribute_not_exists(#floor) OR #floor < :floor")
                .expressionAttributeNames(Map.of("#floor", TableModel.TOP_FLOOR.attribute("streams"),
                        "#type", TableModel.TYPE, "#month", TableModel.TOP_FLOOR.attribute("month")))
                .expressionAttributeValues(Map.of(":floor", AttributeValue.fromN(Long.toString(raised)),
                        ":type", AttributeValue.fromS(TableModel.TOP_FLOOR.type()),
                        ":month", AttributeValue.fromS(month.toString())));
        if (DynamoCatalogWriter.updateIf(client, context, Access.TOP_FLOOR_RAISE, update)) {
            floors.put(month, raised);
        } // else someone raised it higher meanwhile: theirs stands, and is read again within 10 s

    }
}
