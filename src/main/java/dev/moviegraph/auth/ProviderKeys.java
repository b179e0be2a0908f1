package dev.moviegraph.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;

/**
 * The provider's signing keys (its JWKS), fetched with Nimbus's source chain: kept for
 * {@link TokenVerifier#KEYS_TIME_TO_LIVE} so that verifying a token makes no call, and fetched again
 * before then only when a token names a key the cached set lacks (a key rotation) — at most twice in
 * {@link TokenVerifier#KEYS_MIN_FETCH_INTERVAL}, so a stream of tokens with made-up key ids cannot make the
 * server hammer the provider. Every fetch uses the settings' connect and read timeouts.
 */
final class ProviderKeys {
    private final JWKSource<SecurityContext> source;
    private final Recording fetches;
    private final long timeToLiveMillis;

    ProviderKeys(URI jwksUri, OidcSettings settings, Duration timeToLive, Duration minFetchInterval)
            throws ProviderFailure {
        int timeout = (int) settings.timeout().toMillis();
        DefaultResourceRetriever retriever = new DefaultResourceRetriever(timeout, timeout,
                JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT);
        try {
            this.fetches = new Recording(new URLBasedJWKSetSource<>(jwksUri.toURL(), retriever));
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new ProviderFailure("The jwks_uri '" + jwksUri + "' is not a URL Java can fetch");
        }
        this.timeToLiveMillis = timeToLive.toMillis();
        this.source = JWKSourceBuilder.create(fetches)
                // A thread that finds another one fetching waits no longer than a fetch may take.
                .cache(timeToLiveMillis, 2L * timeout + 500)
                // No refresh-ahead: it would run a thread pool of its own per verifier; a fetch every few
                // minutes on the request that finds the keys stale costs one round trip.
                .refreshAheadCache(false)
                .rateLimited(minFetchInterval.toMillis())
                // Stale keys are still used for a while when a fetch fails (the provider is down): new
                // sign-ins go on through a short outage; a key cannot rotate while nobody can fetch it.
                .outageTolerant(TokenVerifier.KEYS_OUTAGE_TOLERANCE.toMillis())
                .build();
    }

    /** What the token processor selects its keys from. */
    JWKSource<SecurityContext> source() {
        return source;
    }

    /** Fetches the keys now (unless cached), for a warm-up: how many the provider publishes. */
    int load() throws KeySourceException {
        return source.get(new JWKSelector(new JWKMatcher.Builder().build()), null).size();
    }

    /**
     * Whether a set fetched within its time to live is cached: then a refusal of the rate limit means the
     * token's key is unknown, not that the provider is down.
     */
    boolean fresh() {
        long last = fetches.lastSuccessMillis;
        return last > 0 && System.currentTimeMillis() - last < timeToLiveMillis;
    }

    /** Notes when a fetch last succeeded. */
    private static final class Recording implements JWKSetSource<SecurityContext> {
        private final JWKSetSource<SecurityContext> fetch;
        private volatile long lastSuccessMillis;

        Recording(JWKSetSource<SecurityContext> fetch) {
            this.fetch = fetch;
        }

        @Override
        public JWKSet getJWKSet(JWKSetCacheRefreshEvaluator refreshEvaluator, long currentTime,
                                SecurityContext context) throws KeySourceException {
            JWKSet keys = fetch.getJWKSet(refreshEvaluator, currentTime, context);
            lastSuccessMillis = System.currentTimeMillis();
            return keys;
        }

        @Override
        public void close() throws IOException {
            fetch.close();
        }
    }
}
