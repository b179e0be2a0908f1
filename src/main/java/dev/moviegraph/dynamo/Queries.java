package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.CallContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Query helpers that follow LastEvaluatedKey, so a 1 MB page boundary never cuts a result short. Each
 * Query, all its pages together, is reported as one call of its access pattern.
 */
final class Queries {
    private Queries() {
    }

    /** Every item the query matches. */
    static CompletableFuture<List<Map<String, AttributeValue>>> all(DynamoDbAsyncClient client, CallContext context,
                                                                   Access access, QueryRequest query) {
        return upTo(client, context, access, query, Integer.MAX_VALUE);
    }

    /** The first {@code wanted} items the query matches, asking DynamoDB for no more than that. */
    static CompletableFuture<List<Map<String, AttributeValue>>> upTo(DynamoDbAsyncClient client, CallContext context,
                                                                    Access access, QueryRequest query, int wanted) {
        Call call = Call.query(context, access, access.render(query.expressionAttributeValues()));
        QueryRequest measured = query.toBuilder()
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override())
                .build();
        return call.reportWhenDone(page(client, call, measured, wanted, new ArrayList<>()));
    }

    private static CompletableFuture<List<Map<String, AttributeValue>>> page(
            DynamoDbAsyncClient client, Call call, QueryRequest query, int wanted, List<Map<String, AttributeValue>> found) {
        int remaining = wanted - found.size();
        QueryRequest request = wanted == Integer.MAX_VALUE ? query : query.toBuilder().limit(remaining).build();
        return call.send(() -> client.query(request)).thenCompose(response -> {
            call.page(response.items().size(), java.util.Collections.singletonList(response.consumedCapacity()));
            found.addAll(response.items());
            if (found.size() >= wanted || !response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return CompletableFuture.completedFuture(found);
            }
            return page(client, call, query.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build(), wanted,
                    found);
        });
    }
}
