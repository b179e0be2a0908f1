package dev.moviegraph.graphql.persisted;

import dev.moviegraph.catalog.PersistedQueryStore;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.metrics.GatewayMetrics;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The documents of Apollo's automatic persisted queries: kept in the {@link PersistedQueryStore} every
 * replica shares, with a short-lived local cache in front so a hot hash costs no DynamoDB read. Only a
 * document that is worth keeping is stored: within {@link Settings#maxDocumentBytes}, parsing and
 * validating against the schema, and within this replica's rate of new registrations; each expires after
 * {@link Settings#ttl}. A document that is not stored still runs: its client just keeps sending it whole.
 */
public final class AutomaticPersistedQueries {
    private static final Logger LOG = LoggerFactory.getLogger(AutomaticPersistedQueries.class);
    /** How long a replica keeps a document it read or wrote without asking the store again. */
    static final Duration LOCAL = Duration.ofMinutes(5);
    /** Total characters of the locally cached documents: a bound on the cache's memory. */
    static final long LOCAL_CHARS = 2_000_000;

    /**
     * @param maxDocumentBytes       APQ_MAX_DOCUMENT_BYTES: larger documents (UTF-8) are never stored
     * @param registrationsPerMinute APQ_REGISTRATIONS_PER_MINUTE: new documents this replica stores a minute
     *                               (a token bucket, so a burst of that many, then one per 60/n s); 0 stores none
     * @param ttl                    APQ_TTL_SECONDS: how long a stored document is kept
     */
    public record Settings(int maxDocumentBytes, int registrationsPerMinute, Duration ttl) {
    }

    private final PersistedQueryStore store;
    private final Predicate<String> validates;
    private final Settings settings;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final Cache<String, String> known;
    /** Null when registrations are off (0 a minute). */
    private final Bucket registrations;

    /** @param validates whether a document parses and validates ({@link GraphQLService#validates}) */
    public AutomaticPersistedQueries(PersistedQueryStore store, Predicate<String> validates, Settings settings,
                                     GatewayMetrics metrics, Clock clock) {
        this.store = store;
        this.validates = validates;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
        this.known = Caffeine.newBuilder()
                .expireAfterWrite(settings.ttl().compareTo(LOCAL) < 0 ? settings.ttl() : LOCAL)
                .maximumWeight(LOCAL_CHARS)
                .weigher((String hash, String document) -> document.length())
                .recordStats()
                .build();
        metrics.monitor(known, "graphql.persisted.queries");
        int perMinute = settings.registrationsPerMinute();
        this.registrations = perMinute <= 0 ? null : Bucket.builder()
                .addLimit(limit -> limit.capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)))
                .build();
    }

    /**
     * The document stored under {@code sha256}. A store that cannot be read counts as a miss: the client
     * then sends the query itself, which is the protocol's own way out.
     */
    CompletableFuture<Optional<String>> find(String sha256) {
        String local = known.getIfPresent(sha256);
        if (local != null) {
            metrics.persistedQuery("hit");
            return CompletableFuture.completedFuture(Optional.of(local));
        }
        return store.find(sha256).handle((found, failure) -> {
            if (failure != null) {
                LOG.warn("Persisted query {} could not be read from the store; answered as not found: {}",
                        sha256, failure.getMessage());
                metrics.persistedQuery("store_failed");
                return Optional.empty();
            }
            found.ifPresent(document -> known.put(sha256, document));
            metrics.persistedQuery(found.isPresent() ? "hit" : "miss");
            return found;
        });
    }

    /**
     * Stores {@code document} under {@code sha256} (already checked to be its hash) if it is worth keeping;
     * completes once it is stored (so any replica knows it from then on) or has been let go. Never fails:
     * the request runs either way.
     */
    CompletableFuture<Void> register(String sha256, String document) {
        if (known.getIfPresent(sha256) != null) {
            return CompletableFuture.completedFuture(null);
        }
        String refused = document.getBytes(StandardCharsets.UTF_8).length > settings.maxDocumentBytes() ? "too_large"
                : !validates.test(document) ? "invalid"
                : registrations == null || !registrations.tryConsume(1) ? "rate_limited"
                : null;
        if (refused != null) {
            metrics.persistedQuery(refused);
            return CompletableFuture.completedFuture(null);
        }
        return store.save(sha256, document, clock.instant().plus(settings.ttl())).handle((saved, failure) -> {
            if (failure != null) {
                LOG.warn("Persisted query {} could not be stored: {}", sha256, failure.getMessage());
                metrics.persistedQuery("store_failed");
            } else {
                known.put(sha256, document);
                metrics.persistedQuery("registered");
            }
            return null;
        });
    }
}
