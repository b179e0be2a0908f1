package dev.moviegraph.graphql;

import com.github.benmanes.caffeine.cache.Cache;

import graphql.ExecutionInput;
import graphql.GraphqlErrorBuilder;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.Node;
import graphql.language.NodeTraverser;
import graphql.language.NodeVisitorStub;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Parse and validation, done once per distinct query text: clients send the same few documents over and
 * over. Only documents that parsed, validated and stay within the alias limit are kept, so garbage cannot
 * evict the real ones; the cache is bounded by total query length.
 */
final class CachedDocuments implements PreparsedDocumentProvider {
    /**
     * GraphQL context key: set on a request's second execution (a query runs after its estimate), so
     * the cache's hit and miss counts stay one lookup per request.
     */
    static final String SECOND_LOOKUP = CachedDocuments.class.getName() + ".secondLookup";

    private final Cache<String, PreparsedDocumentEntry> cache;
    private final int maxAliases;

    CachedDocuments(Cache<String, PreparsedDocumentEntry> cache, int maxAliases) {
        this.cache = cache;
        this.maxAliases = maxAliases;
    }

    @Override
    public CompletableFuture<PreparsedDocumentEntry> getDocumentAsync(
            ExecutionInput input, Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
        PreparsedDocumentEntry cached = input.getGraphQLContext().getBoolean(SECOND_LOOKUP, false)
                ? cache.asMap().get(input.getQuery())
                : cache.getIfPresent(input.getQuery());
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        PreparsedDocumentEntry entry = parseAndValidate.apply(input);
        if (!entry.hasErrors()) {
            int aliases = aliases(entry.getDocument());
            if (aliases > maxAliases) {
                return CompletableFuture.completedFuture(new PreparsedDocumentEntry(GraphqlErrorBuilder.newError()
                        .message("The document has " + aliases + " aliased fields; at most " + maxAliases
                                + " are allowed")
                        .errorType(ErrorType.LIMIT_EXCEEDED)
                        .extensions(Map.of("code", ErrorType.LIMIT_EXCEEDED.name()))
                        .build()));
            }
            cache.put(input.getQuery(), entry);
        }
        return CompletableFuture.completedFuture(entry);
    }

    /** Aliased fields written in the document (each fragment counted once: the text bounds it). */
    static int aliases(Document document) {
        int[] count = {0};
        NodeTraverser traverser = new NodeTraverser();
        traverser.preOrder(new NodeVisitorStub() {
            @Override
            public TraversalControl visitField(Field field, TraverserContext<Node> context) {
                if (field.getAlias() != null) {
                    count[0]++;
                }
                return TraversalControl.CONTINUE;
            }
        }, document);
        return count[0];
    }
}
