package dev.moviegraph.dynamo.client;

import dev.moviegraph.catalog.StoreUnavailableException.Reason;
import dev.moviegraph.catalog.StoreUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The boundary of the AWS SDK's exceptions: what a DynamoDB call failed with, as the catalog's
 * {@link StoreUnavailableException}, so that no SDK type leaves this package and the layers above
 * classify failures without knowing the client library. The SDK's exception stays as the cause, for the
 * log; the message is ours, since AWS's own may name tables, keys or request ids.
 *
 * <p>Translate where a failure leaves the catalog, after the adapter has handled the SDK exceptions it
 * expects (a failed condition, a cancelled transaction): those are SDK exceptions too, and translated
 * first they would read as an outage.
 */
public final class StoreFailures {
    private StoreFailures() {
    }

    /**
     * The failure without its {@link CompletionException} and {@link ExecutionException} wrappers,
     * where an SDK exception becomes a {@link StoreUnavailableException}: {@link Reason#THROTTLED} when
     * the SDK classifies it as throttling (DynamoDB's throttling codes and HTTP 429, as its retry strategy
     * sees them; by then every retry was spent), {@link Reason#UNAVAILABLE} for any other (service errors,
     * timeouts, refused connections, the outage breaker). Anything else (the catalog's own exceptions,
     * {@code RequestStoppedException}, bugs) is returned as it is.
     */
    public static Throwable translate(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        if (current instanceof AwsServiceException service && service.isThrottlingException()) {
            return new StoreUnavailableException(Reason.THROTTLED,
                    "DynamoDB kept throttling the call through every retry", current);
        }
        if (current instanceof SdkException) {
            return new StoreUnavailableException(Reason.UNAVAILABLE, "The DynamoDB call failed", current);
        }
        return current;
    }

    /**
     * {@code future}, failing with its failure {@linkplain #translate translated}. Cancelling the result
     * cancels {@code future}, so a stopped request still aborts the SDK's HTTP exchange.
     */
    public static <T> CompletableFuture<T> translated(CompletableFuture<T> future) {
        CompletableFuture<T> result = new CompletableFuture<>();
        future.whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(translate(failure));
            }
        });
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                future.cancel(true);
            }
        });
        return result;
    }
}
