package dev.moviegraph.graphql;

import com.github.benmanes.caffeine.cache.Cache;

import graphql.ExecutionInput;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Parse and validation, done once per distinct query text: clients send the same few documents over and
 * over. Only documents that parsed and validated are kept, so garbage cannot evict the real ones; the
 * cache is bounded by total query length.
 */
final class CachedDocuments implements PreparsedDocumentProvider {
    private final Cache<String, PreparsedDocumentEntry> cache;

    CachedDocuments(Cache<String, PreparsedDocumentEntry> cache) {
        this.cache = cache;
    }

    @Override
    public CompletableFuture<PreparsedDocumentEntry> getDocumentAsync(
            ExecutionInput input, Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
        PreparsedDocumentEntry cached = cache.getIfPresent(input.getQuery());
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        PreparsedDocumentEntry entry = parseAndValidate.apply(input);
        if (!entry.hasErrors()) {
            cache.put(input.getQuery(), entry);
        }
        return CompletableFuture.completedFuture(entry);
    }
}
