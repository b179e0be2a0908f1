package dev.moviegraph.graphql.errors;

import dev.moviegraph.graphql.caching.CachedDocuments;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import graphql.ErrorClassification;
import graphql.ExecutionResult;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;

/**
 * Gives every error of an execution result an {@code extensions.code} of {@link ErrorType}, so clients
 * branch on one small fixed set. Errors of ours already carry one (a failed field, from
 * {@link ErrorHandler}; a document over a limit, from {@link CachedDocuments}) and are left as they are;
 * graphql-java's own (syntax, validation, an aborted execution) are classified here from their
 * {@link graphql.ErrorType}, with their message, locations and path kept.
 */
public final class ErrorCodes {
    private ErrorCodes() {
    }

    /**
     * The spec-shaped result, where every error has an {@code extensions.code}.
     *
     * @param stopped whether the request was stopped at its time limit (which also cancels execution)
     */
    public static Map<String, Object> toSpecification(ExecutionResult result, boolean stopped) {
        if (result.getErrors().isEmpty()) {
            return result.toSpecification();
        }
        List<GraphQLError> coded = result.getErrors().stream().map(error -> withCode(error, stopped)).toList();
        return result.transform(builder -> builder.errors(coded)).toSpecification();
    }

    /** @param stopped whether the request was stopped at its time limit (which also cancels execution) */
    public static GraphQLError withCode(GraphQLError error, boolean stopped) {
        if (error.getExtensions() != null && error.getExtensions().containsKey("code")) {
            return error;
        }
        ErrorType code = classify(error, stopped);
        Map<String, Object> extensions = new HashMap<>();
        if (error.getExtensions() != null) {
            extensions.putAll(error.getExtensions());
        }
        extensions.put("code", code.name());
        return GraphqlErrorBuilder.newError()
                .message(error.getMessage())
                .locations(error.getLocations())
                .path(error.getPath())
                .errorType(code)
                .extensions(extensions)
                .build();
    }

    private static ErrorType classify(GraphQLError error, boolean stopped) {
        ErrorClassification type = error.getErrorType();
        if (type instanceof ErrorType own) {
            return own; // classified by the gateway where it was raised (an @auth owner refusal, FORBIDDEN)
        }
        if (type == graphql.ErrorType.InvalidSyntax) {
            // the parser's token and character limits cut a document off with this message
            return error.getMessage() != null && error.getMessage().contains("parsing has been cancelled")
                    ? ErrorType.LIMIT_EXCEEDED : ErrorType.GRAPHQL_PARSE_FAILED;
        }
        if (type == graphql.ErrorType.ValidationError) {
            return ErrorType.GRAPHQL_VALIDATION_FAILED;
        }
        if (type == graphql.ErrorType.ExecutionAborted) {
            // the depth limit aborts before execution, the time limit cancels it while it runs
            return stopped ? ErrorType.TIMEOUT : ErrorType.LIMIT_EXCEEDED;
        }
        return ErrorType.INTERNAL;
    }
}
