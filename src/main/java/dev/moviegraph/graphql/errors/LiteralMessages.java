package dev.moviegraph.graphql.errors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.language.AstPrinter;
import graphql.language.Node;
import graphql.language.Value;

/**
 * graphql-java's validation messages show a literal as its syntax tree node ({@code with value
 * 'StringValue{value='2024-13'}'}); the client wrote {@code "2024-13"}. Each literal of the document is
 * put back as written ({@link AstPrinter}), whatever its kind: strings, numbers, enums, lists, objects.
 */
public final class LiteralMessages {
    private LiteralMessages() {
    }

    /** The entry with every literal in its errors' messages printed as GraphQL; as it is when none is. */
    public static PreparsedDocumentEntry rewrite(PreparsedDocumentEntry entry) {
        if (!entry.hasErrors() || entry.getDocument() == null) {
            return entry;
        }
        Map<String, String> printed = new LinkedHashMap<>();
        collect(entry.getDocument(), printed);
        if (printed.isEmpty()) {
            return entry;
        }
        // Outer literals first: a list's text contains its elements', which must not be replaced inside it.
        List<Map.Entry<String, String>> longestFirst = new ArrayList<>(printed.entrySet());
        longestFirst.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        List<GraphQLError> errors = entry.getErrors().stream().map(error -> {
            String message = error.getMessage();
            if (message == null) {
                return error;
            }
            String rewritten = message;
            for (Map.Entry<String, String> literal : longestFirst) {
                // 'StringValue{...}' becomes "2024-13", not '"2024-13"'
                rewritten = rewritten.replace("'" + literal.getKey() + "'", literal.getValue())
                        .replace(literal.getKey(), literal.getValue());
            }
            return rewritten.equals(message) ? error : GraphqlErrorBuilder.newError()
                    .message(rewritten)
                    .locations(error.getLocations())
                    .path(error.getPath())
                    .errorType(error.getErrorType())
                    .extensions(error.getExtensions())
                    .build();
        }).toList();
        return new PreparsedDocumentEntry(entry.getDocument(), errors);
    }

    private static void collect(Node<?> node, Map<String, String> printed) {
        if (node instanceof Value<?> value) {
            printed.putIfAbsent(value.toString(), AstPrinter.printAstCompact(value));
        }
        for (Node<?> child : node.getChildren()) {
            collect(child, printed);
        }
    }
}
