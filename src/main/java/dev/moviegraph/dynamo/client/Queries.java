package dev.moviegraph.dynamo.client;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.dynamo.model.CallPattern;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Query helpers that follow LastEvaluatedKey, so a 1 MB page boundary never cuts a result short. Each
 * Query, all its pages together, is reported as one call of its access pattern.
 */
public final class Queries {
    private Queries() {
    }

    /** Every item the query matches. */
    public static CompletableFuture<List<Map<String, AttributeValue>>> all(DynamoDbAsyncClient client, CallContext context,
                                                                   CallPattern access, QueryRequest query) {
        return upTo(client, context, access, query, Integer.MAX_VALUE);
    }

    /** The first {@code wanted} items the query matches, asking DynamoDB for no more than that. */
    static CompletableFuture<List<Map<String, AttributeValue>>> upTo(DynamoDbAsyncClient client, CallContext context,
                                                                    CallPattern access, QueryRequest query, int wanted) {
        return until(client, context, access, query, item -> true, wanted, 0);
    }

    /**
     * Items in key order until {@code wanted} of them match {@code counted} (or the key range ends). The
     * first page asks for {@code slack} more than that, for the items before them that do not count (a
     * movie's crew before its cast), so the usual case stays one request.
     */
    public static CompletableFuture<List<Map<String, AttributeValue>>> until(DynamoDbAsyncClient client, CallContext context,
                                                                     CallPattern access, QueryRequest query,
                                                                     Predicate<Map<String, AttributeValue>> counted,
                                                                     int wanted, int slack) {
        Call call = Call.query(context, access, access.render(query.expressionAttributeValues()));
        QueryRequest measured = query.toBuilder()
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override())
                .build();
        return call.reportWhenDone(page(client, call, measured, counted, wanted, slack, new ArrayList<>(), 0));
    }

    private static CompletableFuture<List<Map<String, AttributeValue>>> page(
            DynamoDbAsyncClient client, Call call, QueryRequest query, Predicate<Map<String, AttributeValue>> counted,
            int wanted, int slack, List<Map<String, AttributeValue>> found, int matched) {
        QueryRequest request = wanted == Integer.MAX_VALUE ? query
                : query.toBuilder().limit((int) Math.min(Integer.MAX_VALUE, (long) wanted - matched + slack)).build();
        return call.send(() -> client.query(request)).thenCompose(response -> {
            call.page(response.items().size(), Collections.singletonList(response.consumedCapacity()));
            int now = matched;
            for (Map<String, AttributeValue> item : response.items()) {
                if (now >= wanted) {
                    break;
                }
                found.add(item);
                if (counted.test(item)) {
                    now++;
                }
            }
            if (now >= wanted || !response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return CompletableFuture.completedFuture(found);
            }
            return page(client, call, query.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build(),
                    counted, wanted, 0, found, now);
        });
    }
}
