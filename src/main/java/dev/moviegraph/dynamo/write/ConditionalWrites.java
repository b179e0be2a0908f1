package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.dynamo.client.Call;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.Access;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Conditional writes sent one at a time, each reported as one call with the capacity it consumed: a
 * TransactWriteItems, and a PutItem or an UpdateItem that says whether its condition held.
 */
public final class ConditionalWrites {
    private ConditionalWrites() {
    }

    /** A conditional PutItem reported as one call: whether its condition held. */
    public static boolean putIf(DynamoDbAsyncClient client, CallContext context, Access access, PutItemRequest.Builder put) {
        Call call = Call.byKey(context, access, 1);
        PutItemRequest request = put.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override()).build();
        return held(call, () -> client.putItem(request).thenApply(PutItemResponse::consumedCapacity));
    }

    /**
     * One conditional UpdateItem, reported as one call with the capacity it consumed; false when its
     * condition failed (nothing written), and DynamoDB's other failures thrown.
     */
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
}
