package dev.moviegraph.graphql.persisted;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.catalog.PersistedQueryStore;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.metrics.GatewayMetrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

/**
 * {@link PersistedDocuments#resolve} on its own, as any transport calls it (HTTP today, a WebSocket
 * transport next): the document to run or the refusal, whatever the store does.
 */
class PersistedDocumentsTest {
    private static final String QUERY = "{ __typename }";
    private static final Map<String, Object> BY_HASH = extension(PersistedDocuments.sha256(QUERY));

    private static Map<String, Object> extension(String hash) {
        return Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", hash));
    }

    /** A store in memory, or one that fails every call like a DynamoDB that cannot be reached. */
    private static final class Store implements PersistedQueryStore {
        final Map<String, String> documents = new ConcurrentHashMap<>();
        final boolean failing;

        Store(boolean failing) {
            this.failing = failing;
        }

        @Override
        public CompletableFuture<Optional<String>> find(String sha256) {
            return failing ? CompletableFuture.failedFuture(new StoreUnavailableException("down"))
                    : CompletableFuture.completedFuture(Optional.ofNullable(documents.get(sha256)));
        }

        @Override
        public CompletableFuture<Void> save(String sha256, String document, Instant expiresAt) {
            if (failing) {
                return CompletableFuture.failedFuture(new StoreUnavailableException("down"));
            }
            documents.put(sha256, document);
            return CompletableFuture.completedFuture(null);
        }
    }

    private static PersistedDocuments automatic(Store store) {
        GatewayMetrics metrics = new GatewayMetrics();
        return PersistedDocuments.automatic(new AutomaticPersistedQueries(store, text -> true,
                new AutomaticPersistedQueries.Settings(16_384, 60, Duration.ofDays(7)), metrics, Clock.systemUTC()),
                metrics);
    }

    private static PersistedDocuments.Resolution resolve(PersistedDocuments documents, String query,
                                                        Map<String, Object> extensions, String documentId) {
        return documents.resolve(query, extensions, documentId).join();
    }

    @Test
    void aMissThenARegistrationThenAHitAsApolloServerAnswersThem() {
        Store store = new Store(false);
        PersistedDocuments documents = automatic(store);

        assertEquals(new PersistedDocuments.Refusal(ErrorType.PERSISTED_QUERY_NOT_FOUND, "PersistedQueryNotFound", 200),
                resolve(documents, null, BY_HASH, null));
        assertEquals(new PersistedDocuments.Run(QUERY), resolve(documents, QUERY, BY_HASH, null));
        assertEquals(Map.of(PersistedDocuments.sha256(QUERY), QUERY), store.documents);
        assertEquals(new PersistedDocuments.Run(QUERY), resolve(documents, null, BY_HASH, null));
        assertEquals(new PersistedDocuments.Run(QUERY),
                resolve(documents, null, null, "sha256:" + PersistedDocuments.sha256(QUERY)));
    }

    @Test
    void aStoreThatFailsIsAMissAndTheQueryStillRuns() {
        PersistedDocuments documents = automatic(new Store(true));

        assertEquals(ErrorType.PERSISTED_QUERY_NOT_FOUND,
                ((PersistedDocuments.Refusal) resolve(documents, null, BY_HASH, null)).code());
        assertEquals(new PersistedDocuments.Run(QUERY), resolve(documents, QUERY, BY_HASH, null));
    }

    @Test
    void withPersistedQueriesOffAHashIsNotSupportedAndAQueryRuns() {
        PersistedDocuments off = PersistedDocuments.off(new GatewayMetrics());

        assertEquals(new PersistedDocuments.Refusal(ErrorType.PERSISTED_QUERY_NOT_SUPPORTED,
                "PersistedQueryNotSupported", 200), resolve(off, QUERY, BY_HASH, null));
        assertEquals(new PersistedDocuments.Run(QUERY), resolve(off, QUERY, null, null));
    }
}
