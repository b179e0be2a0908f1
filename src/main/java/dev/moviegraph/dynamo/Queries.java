package dev.moviegraph.dynamo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** Query helpers that follow LastEvaluatedKey, so a 1 MB page boundary never cuts a result short. */
final class Queries {
    private Queries() {
    }

    /** Every item the query matches. */
    static CompletableFuture<List<Map<String, AttributeValue>>> all(DynamoDbAsyncClient client, QueryRequest query) {
        return upTo(client, query, Integer.MAX_VALUE);
    }

    /** The first {@code wanted} items the query matches, asking DynamoDB for no more than that. */
    static CompletableFuture<List<Map<String, AttributeValue>>> upTo(DynamoDbAsyncClient client, QueryRequest query,
                                                                    int wanted) {
        return page(client, query, wanted, new ArrayList<>());
    }

    private static CompletableFuture<List<Map<String, AttributeValue>>> page(
            DynamoDbAsyncClient client, QueryRequest query, int wanted, List<Map<String, AttributeValue>> found) {
        int remaining = wanted - found.size();
        QueryRequest request = wanted == Integer.MAX_VALUE ? query : query.toBuilder().limit(remaining).build();
        return client.query(request).thenCompose(response -> {
            found.addAll(response.items());
            if (found.size() >= wanted || !response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return CompletableFuture.completedFuture(found);
            }
            return page(client, query.toBuilder().exclusiveStartKey(response.lastEvaluatedKey()).build(), wanted, found);
        });
    }
}
