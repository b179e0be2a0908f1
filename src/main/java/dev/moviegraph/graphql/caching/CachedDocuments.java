package dev.moviegraph.graphql.caching;

import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.errors.LiteralMessages;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import graphql.ExecutionInput;
import graphql.GraphqlErrorBuilder;
import graphql.ParseAndValidate;
import graphql.ParseAndValidateResult;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.Node;
import graphql.language.NodeTraverser;
import graphql.language.NodeVisitorStub;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

/**
 * Parse and validation, done once per distinct query text: clients send the same few documents over and
 * over. Only documents that parsed, validated and stay within the fragment and alias limits are kept, so
 * garbage cannot evict the real ones; the cache is bounded by total query length.
 */
public final class CachedDocuments implements PreparsedDocumentProvider {
    /**
     * GraphQL context key: set on a request's second execution (a query runs after its estimate), so
     * the cache's hit and miss counts stay one lookup per request.
     */
    public static final String SECOND_LOOKUP = CachedDocuments.class.getName() + ".secondLookup";

    /**
     * Fragment definitions one document may have. graphql-java's fragment-cycle check takes time growing with
     * the cube of a chain of fragments: 300 chained ones (2,700 tokens) took 5 to 10 s to validate, 50 take 25 ms.
     */
    static final int MAX_FRAGMENTS = 50;

    private final Cache<String, PreparsedDocumentEntry> cache;
    private final int maxAliases;

    public CachedDocuments(Cache<String, PreparsedDocumentEntry> cache, int maxAliases) {
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
        int fragments = fragments(input);
        if (fragments > MAX_FRAGMENTS) {
            return limitExceeded("The document has " + fragments + " fragments; at most " + MAX_FRAGMENTS
                    + " are allowed");
        }
        PreparsedDocumentEntry entry = LiteralMessages.rewrite(parseAndValidate.apply(input));
        if (!entry.hasErrors()) {
            int aliases = aliases(entry.getDocument());
            if (aliases > maxAliases) {
                return limitExceeded("The document has " + aliases + " aliased fields; at most " + maxAliases
                        + " are allowed");
            }
            cache.put(input.getQuery(), entry);
        }
        return CompletableFuture.completedFuture(entry);
    }

    private static CompletableFuture<PreparsedDocumentEntry> limitExceeded(String message) {
        return CompletableFuture.completedFuture(new PreparsedDocumentEntry(GraphqlErrorBuilder.newError()
                .message(message)
                .errorType(ErrorType.LIMIT_EXCEEDED)
                .extensions(Map.of("code", ErrorType.LIMIT_EXCEEDED.name()))
                .build()));
    }

    /**
     * How many fragments the document defines, known before validation: up to the limit, the times the word
     * "fragment" occurs (an upper bound, no parse needed); past it, the fragment definitions of the parsed
     * document (0 when it does not parse: validation reports that).
     */
    private static int fragments(ExecutionInput input) {
        String query = input.getQuery();
        int words = 0;
        int at = query.indexOf("fragment");
        while (at >= 0 && words <= MAX_FRAGMENTS) {
            words++;
            at = query.indexOf("fragment", at + 1);
        }
        if (words <= MAX_FRAGMENTS) {
            return words;
        }
        ParseAndValidateResult parsed = ParseAndValidate.parse(input);
        return parsed.isFailure() ? 0 : parsed.getDocument().getDefinitionsOfType(FragmentDefinition.class).size();
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
