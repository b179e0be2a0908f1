package dev.moviegraph.dynamo.client;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * A DynamoDB client that has at most N calls in flight; the others wait their turn, first come first
 * served, before the SDK sees them, so their wait is not part of an attempt's time limit. Any method
 * that returns a future is one call; anything else (close, waiters, the configuration) goes straight
 * through. Cancelling a waiting call drops it from the line; cancelling a sent one cancels the SDK's.
 */
final class InFlightLimit implements InvocationHandler {
    private final Object delegate;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int free;

    private InFlightLimit(Object delegate, int calls) {
        this.delegate = delegate;
        this.free = calls;
    }

    static DynamoDbAsyncClient wrap(DynamoDbAsyncClient client, int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("calls must be at least 1: " + calls);
        }
        return (DynamoDbAsyncClient) Proxy.newProxyInstance(DynamoDbAsyncClient.class.getClassLoader(),
                new Class<?>[] {DynamoDbAsyncClient.class}, new InFlightLimit(client, calls));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getReturnType() != CompletableFuture.class) {
            return direct(method, args);
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        Runnable send = () -> send(method, args, result);
        boolean now;
        synchronized (this) {
            now = free > 0;
            if (now) {
                free--;
            } else {
                waiting.add(send);
            }
        }
        if (now) {
            send.run();
        }
        return result;
    }

    private void send(Method method, Object[] args, CompletableFuture<Object> result) {
        if (result.isDone()) {
            // cancelled while it waited
            release();
            return;
        }
        CompletableFuture<?> sent;
        try {
            sent = (CompletableFuture<?>) direct(method, args);
        } catch (Throwable e) {
            release();
            result.completeExceptionally(e);
            return;
        }
        Relay.relay(sent, result, failure -> release());
    }

    /** Hands the slot to the next call in line, or frees it. */
    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                free++;
            }
        }
        if (next != null) {
            next.run();
        }
    }

    private Object direct(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
