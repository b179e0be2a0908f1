package dev.moviegraph.support;

import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/** Fails the nth TransactWriteItems and every request after it, as a killed process would. */
public final class DiesAtTransaction implements ExecutionInterceptor {
    private final int nth;
    private final AtomicInteger seen = new AtomicInteger();

    public DiesAtTransaction(int nth) {
        this.nth = nth;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (seen.get() >= nth || context.request() instanceof TransactWriteItemsRequest && seen.incrementAndGet() >= nth) {
            throw new IllegalStateException("killed");
        }
    }
}
