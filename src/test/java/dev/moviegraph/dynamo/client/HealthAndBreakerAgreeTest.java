package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.StoreStatus;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.dynamo.read.DynamoCatalog;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * /health's probe (DynamoCatalog.ping) and the outage breaker in front of the client are one state: when
 * health says serving, the next query is sent to DynamoDB; when the breaker refuses queries, health says
 * 503 with why. A DynamoDB whose every call the test answers or fails by hand stands in for the real one.
 */
class HealthAndBreakerAgreeTest {
    /** Calls sent to the stand-in DynamoDB, in order; each completes when the test says. */
    private final List<CompletableFuture<Object>> sent = new ArrayList<>();
    private final DynamoDbAsyncClient client = OutageBreaker.guard((DynamoDbAsyncClient) Proxy.newProxyInstance(
            DynamoDbAsyncClient.class.getClassLoader(), new Class<?>[] {DynamoDbAsyncClient.class},
            (proxy, method, args) -> {
                CompletableFuture<Object> call = new CompletableFuture<>();
                synchronized (sent) {
                    sent.add(call);
                }
                return call;
            }));
    private final DynamoCatalog catalog = new DynamoCatalog(client, "movies", new CursorCodec("a test secret of 16+ chars"));

    @Test
    void aCallSentIntoAFreezeThatTimesOutAfterAHealthyProbeDoesNotRefuseTheNextQuery() {
        CompletableFuture<GetItemResponse> sentIntoTheFreeze = query();
        CompletableFuture<StoreStatus> health = catalog.ping();
        answerLast();
        assertTrue(health.join().serving(), "DynamoDB answered the probe");

        timeOut(0); // the SDK's call timeout of the call sent before the probe fires after it
        assertTrue(sentIntoTheFreeze.isCompletedExceptionally());

        int before = sentCount();
        CompletableFuture<GetItemResponse> next = query();
        assertEquals(before + 1, sentCount(), "health said serving: the next query is sent to DynamoDB");
        assertFalse(next.isDone());
        assertTrue(pingAnswered().serving());
    }

    @Test
    void whileTheBreakerRefusesQueriesHealthSays503WithTheReasonAndAHealthyProbeLetsTheNextQueryThrough()
            throws InterruptedException {
        query();
        timeOut(0);
        int sentBefore = sentCount();
        assertTrue(query().isCompletedExceptionally(), "the open breaker refuses a query at once");
        StoreStatus refusing = catalog.ping().join();
        assertEquals(sentBefore, sentCount(), "nothing was sent while the breaker is cooling down");
        assertFalse(refusing.serving());
        assertTrue(refusing.reason().contains("queries fail at once"), refusing.reason());

        // After the cool-down, a health check is the probe: polled with a deadline far past it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        StoreStatus status = refusing;
        while (!status.serving()) {
            assertTrue(System.nanoTime() < deadline, "health never probed DynamoDB: " + status);
            Thread.sleep(100);
            status = pingAnswered();
        }
        int before = sentCount();
        assertFalse(query().isDone());
        assertEquals(before + 1, sentCount(), "the probe closed the breaker: the next query is sent");
    }

    private CompletableFuture<GetItemResponse> query() {
        return client.getItem(GetItemRequest.builder().tableName("movies").build());
    }

    /** A health check whose DescribeTable, if it was sent, DynamoDB answers. */
    private StoreStatus pingAnswered() {
        int before = sentCount();
        CompletableFuture<StoreStatus> health = catalog.ping();
        if (sentCount() > before) {
            answerLast();
        }
        return health.join();
    }

    private int sentCount() {
        synchronized (sent) {
            return sent.size();
        }
    }

    private void answerLast() {
        answer(sentCount() - 1);
    }

    private void answer(int call) {
        sent.get(call).complete(DescribeTableResponse.builder().build());
    }

    private void timeOut(int call) {
        sent.get(call).completeExceptionally(ApiCallTimeoutException.builder().message("timed out").build());
    }
}
