package dev.moviegraph.graphql.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;

import graphql.ErrorClassification;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.language.SourceLocation;
import org.junit.jupiter.api.Test;

/** graphql-java's own errors get one of our codes; errors that already carry a code keep it. */
class ErrorCodesTest {

    private static GraphQLError error(ErrorClassification type, String message) {
        return GraphqlErrorBuilder.newError().errorType(type).message(message)
                .location(new SourceLocation(1, 2)).extensions(Map.of("detail", "kept")).build();
    }

    private static Object code(GraphQLError error, boolean stopped) {
        return ErrorCodes.withCode(error, stopped).getExtensions().get("code");
    }

    @Test
    void graphqlJavasClassificationsBecomeOurCodes() {
        assertEquals("GRAPHQL_PARSE_FAILED", code(error(graphql.ErrorType.InvalidSyntax, "Invalid syntax"), false));
        assertEquals("LIMIT_EXCEEDED", code(error(graphql.ErrorType.InvalidSyntax,
                "Invalid syntax: More than 5000 'grammar' tokens have been presented. To prevent Denial Of Service"
                        + " attacks, parsing has been cancelled."), false));
        assertEquals("GRAPHQL_VALIDATION_FAILED", code(error(graphql.ErrorType.ValidationError, "no field"), false));
        assertEquals("LIMIT_EXCEEDED", code(error(graphql.ErrorType.ExecutionAborted, "too deep"), false));
        assertEquals("TIMEOUT", code(error(graphql.ErrorType.ExecutionAborted, "cancelled"), true));
        assertEquals("INTERNAL", code(error(graphql.ErrorType.DataFetchingException, "?"), false));
    }

    @Test
    void anErrorClassifiedWithOneOfOurTypesKeepsItAsItsCode() {
        // The @auth owner check raises FORBIDDEN / UNAUTHENTICATED field errors this way, without a code extension.
        assertEquals("FORBIDDEN", code(error(ErrorType.FORBIDDEN, "another viewer's"), false));
        assertEquals("UNAUTHENTICATED", code(error(ErrorType.UNAUTHENTICATED, "nobody signed in"), false));
    }

    @Test
    void theMessageLocationsAndOtherExtensionsAreKept() {
        GraphQLError coded = ErrorCodes.withCode(error(graphql.ErrorType.ValidationError, "no field"), false);

        assertEquals("no field", coded.getMessage());
        assertEquals(List.of(new SourceLocation(1, 2)), coded.getLocations());
        assertEquals("kept", coded.getExtensions().get("detail"));
        assertEquals(ErrorType.GRAPHQL_VALIDATION_FAILED, coded.getErrorType());
    }

    @Test
    void anErrorThatHasACodeKeepsIt() {
        GraphQLError ours = GraphqlErrorBuilder.newError().errorType(ErrorType.NOT_FOUND).message("There is no movie")
                .extensions(Map.of("code", ErrorType.NOT_FOUND.name())).build();

        assertSame(ours, ErrorCodes.withCode(ours, true));
    }
}
