package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.graphql.wiring.GatewaySchema;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * MAX_QUERY_DEPTH holds whatever the shape of the document: nesting through fragments counts, and a document
 * whose depth bound is past the limit is checked exactly, with each request's variables, every time it runs
 * (the bound is kept per document, the verdict never).
 */
class DepthLimitTest {
    /** 18 fields deep, through a named and an inline fragment. */
    private static final String DEEP = "query Deep($skip: Boolean!) { movie(id: \"tt0111161\") { title"
            + " ...Deep @skip(if: $skip) } }"
            + " fragment Deep on Movie { cast { edges { node { person { movies { edges { node { movie { cast { edges {"
            + " node { person { movies { edges { node { movie { ... on Movie { title } } } } } } } } } } } } } } } } } }";

    private final Map<String, PreparsedDocumentEntry> documents = new ConcurrentHashMap<>();
    private final GraphQL engine = GraphQL.newGraphQL(GatewaySchema.load(StubCatalog.complete(Set.of()), Clock.systemUTC()).schema())
            .instrumentation(new GatewayInstrumentation(15, 16))
            // As the server's document cache does: every run of one query text gets the same document.
            .preparsedDocumentProvider((input, parse) -> CompletableFuture.completedFuture(
                    documents.computeIfAbsent(input.getQuery(), query -> parse.apply(input))))
            .build();

    private List<String> messages(String query, Map<String, Object> variables) {
        ExecutionResult result = engine.execute(ExecutionInput.newExecutionInput().query(query).variables(variables).build());
        return result.getErrors().stream().map(graphql.GraphQLError::getMessage).toList();
    }

    private static boolean tooDeep(List<String> messages) {
        return messages.stream().anyMatch(message -> message.contains("maximum query depth exceeded"));
    }

    @Test
    void aDocumentTooDeepThroughItsFragmentsIsRefusedEachTimeItsVariablesMakeItSo() {
        assertTrue(tooDeep(messages(DEEP, Map.of("skip", false))));
        // The same document, its deep part skipped: within the limit, so it runs.
        assertFalse(tooDeep(messages(DEEP, Map.of("skip", true))));
        // And refused again: what was kept of the document is its bound, not the last verdict.
        assertTrue(tooDeep(messages(DEEP, Map.of("skip", false))));
        assertEquals(1, documents.size());
    }

    @Test
    void theBoundCountsEveryFieldThroughFragmentsAndNoFragmentTwice() {
        assertEquals(18, DepthBound.of(Parser.parse(DEEP)));
        assertEquals(2, DepthBound.of(Parser.parse("{ movie(id: \"x\") { title } person(id: \"y\") { name } }")));
        assertEquals(3, DepthBound.of(Parser.parse("query A { movie(id: \"x\") { title } }"
                + " query B { person(id: \"y\") { ...F ...F } } fragment F on Person { movies { totalCount } }")));
    }
}
