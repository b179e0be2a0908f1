package dev.moviegraph.support;

import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/** Fails the nth request of one kind (UpdateItem, PutItem, ...) and every request after it, as a killed process would. */
public final class DiesAtRequest implements ExecutionInterceptor {
    private final Class<? extends SdkRequest> kind;
    private final int nth;
    private final AtomicInteger seen = new AtomicInteger();

    public DiesAtRequest(Class<? extends SdkRequest> kind, int nth) {
        this.kind = kind;
        this.nth = nth;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (seen.get() >= nth || kind.isInstance(context.request()) && seen.incrementAndGet() >= nth) {
            throw new IllegalStateException("killed");
        }
    }
}
