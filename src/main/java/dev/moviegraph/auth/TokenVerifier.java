package dev.moviegraph.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSetRetrievalException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;

import java.net.http.HttpClient;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies the access tokens of one OpenID Connect provider and says who sent them.
 *
 * <p>The provider is found lazily: the first token (or {@link #warmUp()}) reads its discovery document and
 * then its keys, so a provider that is down never stops the server from starting. A failed discovery is tried
 * again by a later token, but not within {@link #DISCOVERY_RETRY_INTERVAL} of the last try: meanwhile tokens
 * are refused at once as {@link AuthException.Reason#PROVIDER_UNAVAILABLE}, without a call. Every call to the
 * provider gives up after the settings' timeout, so no request waits on a provider that stalls.
 *
 * <p>Once the keys are cached (for {@link #KEYS_TIME_TO_LIVE}), verifying a token makes no network call. A
 * token signed with a key the cached set lacks makes one fetch of the keys (the provider may have rotated
 * them) and is refused if the key is still not there; such fetches happen at most twice in
 * {@link #KEYS_MIN_FETCH_INTERVAL}.
 *
 * <p>Accepted: tokens signed with RS256 or ES256 by a key the provider publishes, whose {@code iss} is the
 * configured issuer exactly, whose {@code aud} contains the configured audience (or, without aud, whose
 * {@code client_id} is it), that have a subject and an
 * expiry and are within {@code nbf} and {@code exp} give or take the settings' clock skew. Everything else is
 * refused with {@link AuthException.Reason#INVALID_TOKEN} and a message that says which of these failed.
 * Thread-safe; one instance serves the whole server.
 */
public final class TokenVerifier {
    /** How long a fetched key set is used before it is fetched again. */
    public static final Duration KEYS_TIME_TO_LIVE = Duration.ofMinutes(5);
    /**
     * How long the last keys fetched are still used while the provider cannot be reached once they are
     * stale: a provider's short outage does not refuse every new sign-in (no key can rotate meanwhile).
     */
    public static final Duration KEYS_OUTAGE_TOLERANCE = Duration.ofHours(1);
    /** The rate limit of key fetches: at most two in this interval (a scheduled one and one for a new key). */
    public static final Duration KEYS_MIN_FETCH_INTERVAL = Duration.ofSeconds(30);
    /** How long after a failed discovery tokens are refused without trying the provider again. */
    public static final Duration DISCOVERY_RETRY_INTERVAL = Duration.ofSeconds(5);

    /** How many verified tokens are remembered: the viewers active within a few minutes, on one replica. */
    static final int VERIFIED_TOKENS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(TokenVerifier.class);
    private static final Set<JWSAlgorithm> ACCEPTED_ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
    /** Plain JWTs, and RFC 9068's access-token type, which some providers (Auth0, Okta) put in typ. */
    private static final Set<JOSEObjectType> ACCEPTED_TYPES = Set.of(JOSEObjectType.JWT,
            new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"));

    /**
     * Tokens verified lately, by digest, until their expiry (checked again at each use, with the clock skew)
     * and at most {@link #KEYS_TIME_TO_LIVE}: the time a removed key may still be trusted anyway.
     */
    private final com.github.benmanes.caffeine.cache.Cache<String, Viewer> verified =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(VERIFIED_TOKENS)
                    .expireAfterWrite(KEYS_TIME_TO_LIVE).build();
    private final java.util.concurrent.atomic.AtomicLong signatureChecks = new java.util.concurrent.atomic.AtomicLong();
    private final OidcSettings settings;
    private final Discovery discovery;
    private final Duration discoveryRetryInterval;
    private final Duration keysTimeToLive;
    private final Object discoveryLock = new Object();
    /** Null until discovery succeeds; then fixed. */
    private volatile Provider provider;
    /** When the last discovery failed (System.nanoTime()), guarded by discoveryLock; meaningful when failedOnce. */
    private long lastFailureNanos;
    private boolean failedOnce;

    /** The provider's keys and the processor that checks tokens against them. */
    private record Provider(ProviderKeys keys, DefaultJWTProcessor<SecurityContext> processor) {
    }

    public TokenVerifier(OidcSettings settings) {
        this(settings, DISCOVERY_RETRY_INTERVAL);
    }

    /** With another pause between discovery attempts (tests). */
    TokenVerifier(OidcSettings settings, Duration discoveryRetryInterval) {
        this(settings, discoveryRetryInterval, KEYS_TIME_TO_LIVE);
    }

    /** With another pause between discovery attempts and another time to live of the keys (tests). */
    TokenVerifier(OidcSettings settings, Duration discoveryRetryInterval, Duration keysTimeToLive) {
        if (settings == null) {
            throw new IllegalArgumentException("TokenVerifier needs OidcSettings");
        }
        this.settings = settings;
        this.discoveryRetryInterval = discoveryRetryInterval;
        this.keysTimeToLive = keysTimeToLive;
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
        this.discovery = new Discovery(settings, http, new ObjectMapper());
    }

    public OidcSettings settings() {
        return settings;
    }

    /**
     * Who sent this token.
     *
     * @param compactToken the token as sent after {@code Bearer }
     * @return a signed-in viewer: the token's subject, its roles (lower case) and its expiry
     * @throws AuthException INVALID_TOKEN with what was wrong with the token, or PROVIDER_UNAVAILABLE when the
     *                       provider's discovery document or keys cannot be had right now
     */
    public Viewer verify(String compactToken) {
        // A client sends the same token with every request until it expires: its signature is checked once.
        String key = digest(compactToken);
        Viewer known = verified.getIfPresent(key);
        if (known != null && Instant.now().isBefore(known.expiresAt().plus(settings.clockSkew()))) {
            return known;
        }
        Viewer viewer = verifyNow(compactToken);
        verified.put(key, viewer);
        return viewer;
    }

    /** How many tokens had their signature and claims checked (not answered from the verified tokens). */
    long signatureChecks() {
        return signatureChecks.get();
    }

    /** The SHA-256 of a token, in hex: its key among the verified ones (a token may be kilobytes long). */
    private static String digest(String token) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java has SHA-256", e);
        }
    }

    private Viewer verifyNow(String compactToken) {
        signatureChecks.incrementAndGet();
        SignedJWT token = signedToken(compactToken);
        Provider current = provider();
        JWTClaimsSet claims;
        try {
            claims = current.processor().process(token, null);
        } catch (BadJWSException e) {
            throw AuthException.invalid("The token's signature does not match its contents: it was altered, or "
                    + "signed by someone else");
        } catch (BadJWTException e) {
            throw claimsRefusal(token, e);
        } catch (BadJOSEException e) {
            throw unknownKey(token);
        } catch (KeySourceException e) {
            throw keysRefusal(token, current.keys(), e);
        } catch (JOSEException e) {
            throw AuthException.invalid("The token's signature could not be checked: it is not a valid "
                    + token.getHeader().getAlgorithm() + " signature");
        }
        if (!meantForThisApi(claims)) {
            throw notMeantForThisApi();
        }
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank()) {
            throw noSubject();
        }
        Instant expiresAt = claims.getExpirationTime().toInstant();
        return new Viewer(subject, Roles.of(claims.getClaims(), settings.rolesClaim()), expiresAt);
    }

    /**
     * Reads the discovery document and the keys now, unless done already, so the first signed-in request
     * does not wait for them. Meant to run in the background at start-up; logs the outcome.
     *
     * @return whether the provider's keys are in hand
     */
    public boolean warmUp() {
        try {
            int keys = provider().keys().load();
            LOG.info("OpenID Connect provider {}: {} signing key(s) loaded", settings.issuer(), keys);
            return true;
        } catch (AuthException e) {
            LOG.warn("OpenID Connect provider {} not ready: {}", settings.issuer(), e.getMessage());
            return false;
        } catch (KeySourceException e) {
            LOG.warn("OpenID Connect provider {}: its keys could not be loaded: {}", settings.issuer(),
                    e.getMessage());
            return false;
        }
    }

    /** The token as a signed JWT with an accepted algorithm, or the refusal that says why not. */
    private static SignedJWT signedToken(String compactToken) {
        JWT token;
        try {
            if (compactToken == null || compactToken.isBlank()) {
                throw new ParseException("empty", 0);
            }
            token = JWTParser.parse(compactToken.strip());
        } catch (ParseException e) {
            throw AuthException.invalid("The token is not a well-formed JWT (three base64url parts: "
                    + "header.payload.signature)");
        }
        if (token instanceof PlainJWT) {
            throw AuthException.invalid("The token is not signed (alg 'none'); only RS256 and ES256 signed "
                    + "tokens are accepted");
        }
        if (token instanceof EncryptedJWT || !(token instanceof SignedJWT)) {
            throw AuthException.invalid("The token is encrypted (JWE); only RS256 and ES256 signed tokens are "
                    + "accepted");
        }
        SignedJWT signed = (SignedJWT) token;
        JWSHeader header = signed.getHeader();
        if (!ACCEPTED_ALGORITHMS.contains(header.getAlgorithm())) {
            throw AuthException.invalid("The token is signed with " + header.getAlgorithm() + "; only RS256 and "
                    + "ES256 signed tokens are accepted");
        }
        if (header.getType() != null && !ACCEPTED_TYPES.contains(header.getType())) {
            throw AuthException.invalid("The token's type (typ '" + header.getType() + "') is not accepted; send "
                    + "an access token (typ JWT or at+jwt)");
        }
        return signed;
    }

    /** The provider, discovered now if it has not been and the last failure is not too recent. */
    private Provider provider() {
        Provider found = provider;
        if (found != null) {
            return found;
        }
        synchronized (discoveryLock) {
            if (provider != null) {
                return provider;
            }
            if (failedOnce && System.nanoTime() - lastFailureNanos < discoveryRetryInterval.toNanos()) {
                throw AuthException.providerUnavailable(settings);
            }
            try {
                provider = discover();
                return provider;
            } catch (ProviderFailure e) {
                failedOnce = true;
                lastFailureNanos = System.nanoTime();
                LOG.warn("OpenID Connect provider {} unavailable (next try in {} s at the earliest): {}",
                        settings.issuer(), discoveryRetryInterval.toSeconds(), e.getMessage());
                throw AuthException.providerUnavailable(settings);
            }
        }
    }

    private Provider discover() throws ProviderFailure {
        // Nimbus wants the rate limit's interval below the keys' time to live (only tests make it short).
        Duration minFetchInterval = KEYS_MIN_FETCH_INTERVAL.compareTo(keysTimeToLive) < 0 ? KEYS_MIN_FETCH_INTERVAL
                : keysTimeToLive.dividedBy(2);
        ProviderKeys keys = new ProviderKeys(discovery.jwksUri(), settings, keysTimeToLive, minFetchInterval);
        // No audience here: meantForThisApi checks it after, as aud or, without aud, client_id.
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>((String) null,
                new JWTClaimsSet.Builder().issuer(settings.issuer().toString()).build(), Set.of("sub", "exp"));
        claims.setMaxClockSkew((int) settings.clockSkew().toSeconds());
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(typesWithNone()));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ACCEPTED_ALGORITHMS, keys.source()));
        processor.setJWTClaimsSetVerifier(claims);
        return new Provider(keys, processor);
    }

    private static Set<JOSEObjectType> typesWithNone() {
        Set<JOSEObjectType> types = new java.util.HashSet<>(ACCEPTED_TYPES);
        types.add(null); // no typ header at all, as most providers send
        return types;
    }

    /**
     * Whether the token is for this API: its {@code aud} includes the audience, or, for a token with no
     * {@code aud} at all, its {@code client_id} is the audience (Amazon Cognito's access tokens name the
     * app client so, RFC 9068's {@code client_id}).
     */
    private boolean meantForThisApi(JWTClaimsSet claims) {
        List<String> audience = claims.getAudience();
        if (audience != null && !audience.isEmpty()) {
            return audience.contains(settings.audience());
        }
        return settings.audience().equals(claims.getClaim("client_id"));
    }

    private AuthException notMeantForThisApi() {
        return AuthException.invalid("The token is not meant for this API: its audience (aud) must include '"
                + settings.audience() + "' (or, without aud, its client_id must be it)");
    }

    /**
     * Which claim check failed. The claims verifier runs after the signature is checked, so the claims read
     * here are the provider's; they are checked in the verifier's own order (audience, required claims,
     * issuer, expiry, not-before) so the first failure found is the one it refused.
     */
    private AuthException claimsRefusal(SignedJWT token, BadJWTException failure) {
        JWTClaimsSet claims;
        try {
            claims = token.getJWTClaimsSet();
        } catch (ParseException e) {
            return AuthException.invalid("The token's payload is not a JSON object of claims");
        }
        if (failure instanceof ExpiredJWTException) {
            return AuthException.invalid("The token expired at " + instant(claims.getExpirationTime()));
        }
        if (!meantForThisApi(claims)) {
            return notMeantForThisApi();
        }
        if (claims.getClaim("sub") == null) {
            return noSubject();
        }
        if (claims.getExpirationTime() == null) {
            return AuthException.invalid("The token has no expiry (exp claim)");
        }
        if (!settings.issuer().toString().equals(claims.getIssuer())) {
            return AuthException.invalid("The token was not issued by this API's sign-in provider: its issuer "
                    + "(iss) must be '" + settings.issuer() + "'");
        }
        if (claims.getNotBeforeTime() != null) {
            return AuthException.invalid("The token is not valid yet: not before " + instant(claims.getNotBeforeTime()));
        }
        return AuthException.invalid("The token's claims were refused");
    }

    /**
     * The keys could not be had. A refusal of the rate limit while a fresh set is cached means the token's
     * key was looked for once already and is not the provider's; anything else is the provider's failure.
     */
    private AuthException keysRefusal(SignedJWT token, ProviderKeys keys, KeySourceException failure) {
        if (failure instanceof RateLimitReachedException && keys.fresh()) {
            return unknownKey(token);
        }
        if (!(failure instanceof RateLimitReachedException)) {
            LOG.warn("OpenID Connect provider {}: its keys could not be fetched: {}", settings.issuer(),
                    failure instanceof JWKSetRetrievalException ? failure.getMessage() : failure.toString());
        }
        return AuthException.providerUnavailable(settings);
    }

    private AuthException unknownKey(SignedJWT token) {
        String kid = token.getHeader().getKeyID();
        return AuthException.invalid("The token is signed with a key that the sign-in provider ("
                + settings.issuer() + ") does not publish" + (kid == null ? "" : " (kid '" + kid + "')"));
    }

    private static AuthException noSubject() {
        return AuthException.invalid("The token has no subject (sub claim): it does not say who signed in");
    }

    private static Instant instant(Date date) {
        return date.toInstant();
    }
}
