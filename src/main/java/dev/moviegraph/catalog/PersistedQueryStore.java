package dev.moviegraph.catalog;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where the documents of automatic persisted queries are kept, keyed by the SHA-256 of their text and
 * shared by every replica of the gateway: a hash one replica registered, any replica knows.
 */
public interface PersistedQueryStore {
    /**
     * The document stored under {@code sha256} (64 lower-case hexadecimal characters); empty when there is
     * none or it has expired. Fails with {@link StoreUnavailableException} when the store cannot be read.
     */
    CompletableFuture<Optional<String>> find(String sha256);

    /** Stores {@code document} under {@code sha256} until {@code expiresAt}, replacing what was there. */
    CompletableFuture<Void> save(String sha256, String document, Instant expiresAt);
}
