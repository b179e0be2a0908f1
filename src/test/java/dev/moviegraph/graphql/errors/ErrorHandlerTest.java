package dev.moviegraph.graphql.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.StoreUnavailableException;

import java.util.Map;
import java.util.concurrent.CompletionException;

import graphql.GraphQLError;
import graphql.execution.ResultPath;
import graphql.language.SourceLocation;
import org.junit.jupiter.api.Test;

/** A failed field's error comes from the catalog's exceptions alone: the store's reason decides the code. */
class ErrorHandlerTest {
    private static final ResultPath PATH = ResultPath.rootPath().segment("movie");
    private static final SourceLocation LOCATION = new SourceLocation(1, 3);
    private static final RuntimeException CLIENT_FAILURE = new RuntimeException("AWS text: table/moviegraph");

    private static GraphQLError errorFor(Throwable failure) {
        return ErrorHandler.errorFor(new CompletionException(failure), PATH, LOCATION);
    }

    @Test
    void aThrottledStoreIsUnavailableWithAReasonAndWhenToRetry() {
        GraphQLError error = errorFor(new StoreUnavailableException(StoreUnavailableException.Reason.THROTTLED,
                "DynamoDB kept throttling", CLIENT_FAILURE));

        Map<String, Object> extensions = error.getExtensions();
        assertEquals("UNAVAILABLE", extensions.get("code"));
        assertEquals("THROTTLED", extensions.get("reason"));
        assertEquals(2, extensions.get("retryAfterSeconds"));
        assertNotNull(extensions.get("errorId"));
        assertTrue(error.getMessage().contains("throttling"), error.getMessage());
        assertTrue(error.getMessage().contains((String) extensions.get("errorId")), error.getMessage());
        assertFalse(error.getMessage().contains("AWS text"), error.getMessage());
        assertEquals(ErrorType.UNAVAILABLE, error.getErrorType());
    }

    @Test
    void anyOtherStoreFailureIsUnavailableWithoutAReason() {
        for (StoreUnavailableException failure : new StoreUnavailableException[] {
                new StoreUnavailableException("The movie tt0000001 could not be read in time"),
                new StoreUnavailableException(StoreUnavailableException.Reason.UNAVAILABLE, "down", CLIENT_FAILURE)}) {
            GraphQLError error = errorFor(failure);

            assertEquals("UNAVAILABLE", error.getExtensions().get("code"));
            assertFalse(error.getExtensions().containsKey("reason"), error.getExtensions().toString());
            assertNotNull(error.getExtensions().get("errorId"));
            assertFalse(error.getMessage().contains("AWS text"), error.getMessage());
        }
    }

    @Test
    void theOneArgumentConstructorMeansUnavailable() {
        assertEquals(StoreUnavailableException.Reason.UNAVAILABLE, new StoreUnavailableException("busy").reason());
    }

    @Test
    void anythingUnknownIsInternalAndTheUsersMistakeKeepsItsMessage() {
        GraphQLError bug = errorFor(CLIENT_FAILURE);
        assertEquals("INTERNAL", bug.getExtensions().get("code"));
        assertFalse(bug.getMessage().contains("AWS text"), bug.getMessage());

        GraphQLError input = errorFor(new InvalidInputException("id must look like tt0000001"));
        assertEquals("BAD_USER_INPUT", input.getExtensions().get("code"));
        assertEquals("id must look like tt0000001", input.getMessage());
        assertEquals(PATH.toList(), input.getPath());
    }
}
