package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.StoreUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * The SDK's exceptions become the catalog's StoreUnavailableException at the dynamo package's boundary,
 * with the reason the error handler needs (throttled or not), AWS's message only in the cause.
 */
class StoreFailuresTest {
    private static final String AWS_TEXT = "arn:aws:dynamodb:eu-west-1:123456789012:table/moviegraph secret detail";

    private static ProvisionedThroughputExceededException throttled() {
        return (ProvisionedThroughputExceededException) ProvisionedThroughputExceededException.builder()
                .message(AWS_TEXT)
                .statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode("ProvisionedThroughputExceededException").errorMessage(AWS_TEXT).build())
                .build();
    }

    @Test
    void aThrottledCallIsAThrottledStoreWithTheSdkExceptionOnlyAsItsCause() {
        ProvisionedThroughputExceededException sdk = throttled();

        StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class,
                StoreFailures.translate(new CompletionException(sdk)));

        assertEquals(StoreUnavailableException.Reason.THROTTLED, e.reason());
        assertTrue(e.throttled());
        assertSame(sdk, e.getCause());
        assertFalse(e.getMessage().contains("arn:aws"), e.getMessage());
    }

    @Test
    void http429IsThrottlingWhateverTheErrorCode() {
        DynamoDbException sdk = (DynamoDbException) DynamoDbException.builder().message(AWS_TEXT).statusCode(429).build();

        StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class, StoreFailures.translate(sdk));

        assertTrue(e.throttled());
    }

    @Test
    void anyOtherSdkFailureIsAnUnavailableStore() {
        DynamoDbException serverError = (DynamoDbException) DynamoDbException.builder()
                .message(AWS_TEXT).statusCode(500)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalServerError").build())
                .build();
        SdkClientException refused = SdkClientException.create("Unable to execute HTTP request: " + AWS_TEXT);
        ApiCallTimeoutException timeout = ApiCallTimeoutException.create(2_000);

        for (Throwable sdk : new Throwable[] {serverError, refused, timeout}) {
            StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class,
                    StoreFailures.translate(new CompletionException(new ExecutionException(sdk))), sdk.toString());
            assertEquals(StoreUnavailableException.Reason.UNAVAILABLE, e.reason(), sdk.toString());
            assertSame(sdk, e.getCause());
            assertFalse(e.getMessage().contains("arn:aws"), e.getMessage());
        }
    }

    @Test
    void everythingElseIsLeftAsItIsOnlyUnwrapped() {
        RequestStoppedException stopped = new RequestStoppedException(RequestStoppedException.Reason.TIME_LIMIT, "late");
        NotFoundException missing = new NotFoundException("There is no movie tt0000001");
        StoreUnavailableException already = new StoreUnavailableException("The store was too busy");
        IllegalStateException bug = new IllegalStateException("a bug");

        assertSame(stopped, StoreFailures.translate(new CompletionException(stopped)));
        assertSame(missing, StoreFailures.translate(missing));
        assertSame(already, StoreFailures.translate(new CompletionException(already)));
        assertSame(bug, StoreFailures.translate(new ExecutionException(bug)));
        CompletionException bare = new CompletionException("no cause", null);
        assertSame(bare, StoreFailures.translate(bare));
    }

    @Test
    void aTranslatedFutureFailsWithTheCatalogsExceptionAndKeepsItsValue() {
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletableFuture<String> translated = StoreFailures.translated(failing);
        failing.completeExceptionally(throttled());

        CompletionException e = assertThrows(CompletionException.class, translated::join);
        assertTrue(assertInstanceOf(StoreUnavailableException.class, e.getCause()).throttled());
        assertEquals("item", StoreFailures.translated(CompletableFuture.completedFuture("item")).join());
    }

    @Test
    void cancellingTheTranslatedFutureCancelsTheSdkCall() {
        CompletableFuture<String> sdkCall = new CompletableFuture<>();

        StoreFailures.translated(sdkCall).cancel(true);

        assertTrue(sdkCall.isCancelled(), "a stopped request must still abort the HTTP exchange");
    }
}
