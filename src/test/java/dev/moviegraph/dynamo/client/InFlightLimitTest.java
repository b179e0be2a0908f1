package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

class InFlightLimitTest {
    /** Answers nothing by itself: each call's future waits until the test completes it. */
    private static final class Pending implements DynamoDbAsyncClient {
        final List<String> sent = new ArrayList<>();
        final List<CompletableFuture<GetItemResponse>> futures = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<GetItemResponse> getItem(GetItemRequest request) {
            sent.add(request.tableName());
            CompletableFuture<GetItemResponse> future = new CompletableFuture<>();
            futures.add(future);
            return future;
        }

        @Override
        public String serviceName() {
            return "pending";
        }

        @Override
        public void close() {
        }

        void answer(int call) {
            futures.get(call).complete(GetItemResponse.builder().item(Map.of("pk",
                    AttributeValue.fromS(sent.get(call)))).build());
        }
    }

    private static GetItemRequest get(String name) {
        return GetItemRequest.builder().tableName(name).build();
    }

    @Test
    void atMostNCallsAreSentAndTheOthersFollowInOrder() {
        Pending pending = new Pending();
        DynamoDbAsyncClient client = InFlightLimit.wrap(pending, 2);
        List<CompletableFuture<GetItemResponse>> calls = new ArrayList<>();
        for (String name : List.of("a", "b", "c", "d")) {
            calls.add(client.getItem(get(name)));
        }
        assertEquals(List.of("a", "b"), pending.sent);

        pending.answer(1);
        assertEquals("b", calls.get(1).join().item().get("pk").s());
        assertEquals(List.of("a", "b", "c"), pending.sent);
        pending.futures.get(0).completeExceptionally(new IllegalStateException("boom"));
        CompletionException failed = assertThrows(CompletionException.class, () -> calls.get(0).join());
        assertEquals("boom", failed.getCause().getMessage());
        assertEquals(List.of("a", "b", "c", "d"), pending.sent);

        pending.answer(2);
        pending.answer(3);
        client.getItem(get("e"));
        client.getItem(get("f"));
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), pending.sent, "both slots are free again");
        assertFalse(calls.get(3).isCompletedExceptionally());
    }

    @Test
    void aCancelledCallIsNeverSentAndCancellingASentOneCancelsTheSdkCall() {
        Pending pending = new Pending();
        DynamoDbAsyncClient client = InFlightLimit.wrap(pending, 1);
        CompletableFuture<GetItemResponse> first = client.getItem(get("a"));
        CompletableFuture<GetItemResponse> waiting = client.getItem(get("b"));
        CompletableFuture<GetItemResponse> last = client.getItem(get("c"));
        waiting.cancel(true);

        first.cancel(true);
        assertTrue(pending.futures.get(0).isCancelled(), "the SDK's future is cancelled");
        assertEquals(List.of("a", "c"), pending.sent, "b was dropped from the line, c took the slot");
        pending.answer(1);
        assertEquals("c", last.join().item().get("pk").s());
    }

    @Test
    void whatIsNotACallGoesStraightThrough() {
        Pending pending = new Pending();
        DynamoDbAsyncClient client = InFlightLimit.wrap(pending, 1);
        assertEquals("pending", client.serviceName());
        assertThrows(IllegalArgumentException.class, () -> InFlightLimit.wrap(pending, 0));
    }

    @Test
    void onlyLoopbackEndpointsAreLocal() {
        assertTrue(DynamoClients.isLoopback(URI.create("http://127.0.0.1:8000")));
        assertTrue(DynamoClients.isLoopback(URI.create("http://localhost:8000")));
        assertTrue(DynamoClients.isLoopback(URI.create("http://[::1]:8000")));
        assertFalse(DynamoClients.isLoopback(URI.create("https://dynamodb.eu-west-1.amazonaws.com")));
        assertFalse(DynamoClients.isLoopback(URI.create("http://engine:8000")));
    }
}
