package dev.moviegraph.dynamo.client;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Fails calls at once while DynamoDB does not answer at all, instead of letting each wait out its
 * timeouts. A refused connection costs a call milliseconds, but a DynamoDB that is frozen or behind a
 * dropped route costs every call the whole 10 s call timeout: with this, only the call that found out
 * does, and the calls already in flight.
 *
 * <p>A call that ends without any answer from DynamoDB (I/O error, attempt or call timeout, after every
 * retry) opens the breaker. While open, calls fail before anything is sent. After {@link #COOL_DOWN}
 * one call at a time goes through as a probe (a query, or /health's DescribeTable); the first call that
 * gets any answer from DynamoDB, even an error, closes it. A call that started before DynamoDB last
 * answered does not open it again when it fails: after a freeze, calls sent into it time out seconds
 * after DynamoDB answers again, and opening on them would have /health (whose probe closed the breaker)
 * say 200 while every query is refused. It wraps the client rather than intercepting its requests
 * because the SDK ends a call at its call timeout without telling the interceptors. One breaker per
 * client, no static state.
 */
public final class OutageBreaker implements InvocationHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OutageBreaker.class);

    /** How long calls fail at once after DynamoDB stopped answering, before one probes again. */
    public static final Duration COOL_DOWN = Duration.ofSeconds(3);
    /** A probe whose end was never seen no longer blocks the next one after this. */
    private static final long PROBE_LIMIT_NANOS = DynamoClients.CALL_TIMEOUT.plusSeconds(5).toNanos();

    /** The message of a call refused while the breaker is open; {@link #refused} recognises it. */
    static final String REFUSED = "DynamoDB did not answer a recent call; calls fail at once until a probe gets an answer";

    private enum Admission { CALL, PROBE, REFUSED }

    private final DynamoDbAsyncClient client;
    /** When a call last got an answer (nanoTime): calls sent before it cannot tell of an outage now. */
    private long answeredAt = System.nanoTime();
    private boolean open;
    private long openedAt;
    private boolean probing;
    private long probeStartedAt;

    private OutageBreaker(DynamoDbAsyncClient client) {
        this.client = client;
    }

    /** {@code client} behind a breaker of its own: every operation that returns a future goes through it. */
    static DynamoDbAsyncClient guard(DynamoDbAsyncClient client) {
        return (DynamoDbAsyncClient) Proxy.newProxyInstance(DynamoDbAsyncClient.class.getClassLoader(),
                new Class<?>[] {DynamoDbAsyncClient.class}, new OutageBreaker(client));
    }

    /** Whether {@code failure} is a call the open breaker refused, never sent. */
    public static boolean refused(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SdkClientException && REFUSED.equals(cause.getMessage())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getReturnType() != CompletableFuture.class) {
            return forward(method, args);
        }
        Admission admission = admit();
        if (admission == Admission.REFUSED) {
            return CompletableFuture.failedFuture(SdkClientException.builder()
                    .message(REFUSED)
                    .writableStackTrace(false)
                    .build());
        }
        long sentAt = System.nanoTime();
        CompletableFuture<?> call = (CompletableFuture<?>) forward(method, args);
        // The caller sees the call end only once the breaker has: whoever saw a probe answered (/health)
        // finds the breaker closed.
        CompletableFuture<Object> result = new CompletableFuture<>();
        Relay.relay(call, result, failure -> ended(admission == Admission.PROBE, sentAt, failure));
        return result;
    }

    private Object forward(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(client, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private synchronized Admission admit() {
        if (!open) {
            return Admission.CALL;
        }
        long now = System.nanoTime();
        if (now - openedAt >= COOL_DOWN.toNanos() && (!probing || now - probeStartedAt > PROBE_LIMIT_NANOS)) {
            probing = true;
            probeStartedAt = now;
            return Admission.PROBE;
        }
        return Admission.REFUSED;
    }

    private synchronized void ended(boolean probe, long sentAt, Throwable failure) {
        if (probe) {
            probing = false;
        }
        if (failure == null || answered(failure)) {
            answeredAt = System.nanoTime();
            if (open) {
                open = false;
                LOG.info("DynamoDB answers again; calls go through");
            }
        } else if (unanswered(failure) && sentAt - answeredAt > 0) {
            openedAt = System.nanoTime();
            if (!open) {
                open = true;
                LOG.warn("DynamoDB did not answer (no connection, or timed out after every retry); calls fail at "
                        + "once, one probes every {} s", COOL_DOWN.toSeconds());
            }
        }
    }

    /** DynamoDB sent an HTTP answer, if only an error: it is reachable. */
    private static boolean answered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SdkServiceException) {
                return true;
            }
        }
        return false;
    }

    /** No answer at all: a connection that failed or broke, or an attempt or call that timed out. */
    private static boolean unanswered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof ApiCallTimeoutException
                    || cause instanceof ApiCallAttemptTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
