package dev.moviegraph.graphql.errors;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.StoreUnavailableException;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.execution.DataFetcherExceptionHandler;
import graphql.execution.DataFetcherExceptionHandlerParameters;
import graphql.execution.DataFetcherExceptionHandlerResult;
import graphql.execution.ResultPath;
import graphql.language.SourceLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Turns a failed field into a client-safe error: the user's own mistakes keep their message; DynamoDB
 * still throttling after the SDK's retries, store outages and bugs get a message of ours and an id, and
 * only the log sees the exception (never AWS's own message). It knows only the catalog's exceptions:
 * the store adapter has already turned its client's into {@link StoreUnavailableException}, with a
 * reason, so no AWS type is needed here.
 */
public final class ErrorHandler implements DataFetcherExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorHandler.class);
    /** A throttled call already spent its retries (a few seconds of backoff); clients wait a little more. */
    static final int THROTTLED_RETRY_AFTER_SECONDS = 2;
    /** The GraphQL context's key for the request's trace id, when it is traced. */
    public static final String TRACE_ID = "moviegraph.traceId";

    @Override
    public CompletableFuture<DataFetcherExceptionHandlerResult> handleException(
            DataFetcherExceptionHandlerParameters parameters) {
        // The log lines of a traced request's errors carry its trace id (LOG_FORMAT=json has it as a field).
        String traceId = parameters.getDataFetchingEnvironment() == null ? null
                : parameters.getDataFetchingEnvironment().getGraphQlContext().get(TRACE_ID);
        GraphQLError error;
        try (MDC.MDCCloseable ignored = traceId == null ? null : MDC.putCloseable("trace_id", traceId)) {
            error = errorFor(parameters.getException(), parameters.getPath(), parameters.getSourceLocation());
        }
        FieldErrors kept = parameters.getDataFetchingEnvironment() == null ? null
                : parameters.getDataFetchingEnvironment().getGraphQlContext().get(FieldErrors.class);
        if (kept != null) {
            kept.add(error);
        }
        return CompletableFuture.completedFuture(DataFetcherExceptionHandlerResult.newResult(error).build());
    }

    /** The client-safe error for a failure at {@code path} (also for one element of a list). */
    public static GraphQLError errorFor(Throwable exception, ResultPath path, SourceLocation location) {
        Throwable failure = unwrap(exception);
        GraphqlErrorBuilder<?> builder = GraphqlErrorBuilder.newError()
                .path(path)
                .location(location);
        if (failure instanceof InvalidInputException) {
            return builder.message(failure.getMessage()).errorType(ErrorType.BAD_USER_INPUT)
                    .extensions(Map.of("code", ErrorType.BAD_USER_INPUT.name())).build();
        }
        if (failure instanceof NotFoundException) {
            return builder.message(failure.getMessage()).errorType(ErrorType.NOT_FOUND)
                    .extensions(Map.of("code", ErrorType.NOT_FOUND.name())).build();
        }
        if (failure instanceof RequestStoppedException stopped) {
            ErrorType type = stopped.reason() == RequestStoppedException.Reason.TIME_LIMIT
                    ? ErrorType.TIMEOUT : ErrorType.LIMIT_EXCEEDED;
            return builder.message(stopped.getMessage()).errorType(type)
                    .extensions(Map.of("code", type.name())).build();
        }
        String id = UUID.randomUUID().toString();
        if (failure instanceof StoreUnavailableException unavailable && unavailable.throttled()) {
            LOG.warn("DynamoDB still throttling after every retry for {} (error id {})", path, id, failure);
            return builder.message("DynamoDB is throttling the catalog (too busy right now); retry in "
                            + THROTTLED_RETRY_AFTER_SECONDS + " s or later (error id " + id + ")")
                    .errorType(ErrorType.UNAVAILABLE)
                    .extensions(Map.of("code", ErrorType.UNAVAILABLE.name(), "errorId", id,
                            "reason", StoreUnavailableException.Reason.THROTTLED.name(),
                            "retryAfterSeconds", THROTTLED_RETRY_AFTER_SECONDS)).build();
        }
        if (failure instanceof StoreUnavailableException) {
            LOG.warn("DynamoDB call failed for {} (error id {})", path, id, failure);
            return builder.message("The catalog store is unavailable; try again shortly (error id " + id + ")")
                    .errorType(ErrorType.UNAVAILABLE)
                    .extensions(Map.of("code", ErrorType.UNAVAILABLE.name(), "errorId", id)).build();
        }
        LOG.error("Internal error at {} (error id {})", path, id, failure);
        return builder.message("Internal error (error id " + id + ")").errorType(ErrorType.INTERNAL)
                .extensions(Map.of("code", ErrorType.INTERNAL.name(), "errorId", id)).build();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while (current instanceof CompletionException && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
