package dev.moviegraph.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import kotlin.jvm.functions.Function0;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * TokenVerifier against a real OpenID Connect provider (navikt's mock-oauth2-server, started here): its
 * discovery document, its JWKS and the RS256 (or ES256) tokens it issues; each refusal with its message.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenVerifierTest {
    private static final String ISSUER_ID = "movies";
    private static final String AUDIENCE = "moviegraph-api";
    private static final Duration PATIENT = Duration.ofSeconds(15);

    /** How far the provider's clock is from ours, to issue tokens that expired or are not valid yet. */
    private final AtomicReference<Duration> providerClockShift = new AtomicReference<>(Duration.ZERO);
    private MockOAuth2Server provider;

    @BeforeAll
    void startProvider() {
        Function0<Instant> clock = () -> Instant.now().plus(providerClockShift.get());
        provider = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
                new OAuth2TokenProvider(new KeyProvider(), clock)));
        provider.start();
        // Its first answer loads much of the mock (Kotlin, templates): taken here, not in the first test.
        try {
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(provider.wellKnownUrl(ISSUER_ID)
                    .toString())).build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            throw new IllegalStateException("mock-oauth2-server did not answer", e);
        }
    }

    @AfterAll
    void stopProvider() {
        provider.shutdown();
    }

    @AfterEach
    void resetClock() {
        providerClockShift.set(Duration.ZERO);
    }

    private String issuer() {
        return provider.issuerUrl(ISSUER_ID).toString();
    }

    private TokenVerifier verifier(String rolesClaim) {
        return new TokenVerifier(settings(issuer(), rolesClaim));
    }

    /** A timeout well above the default: these tests are about tokens, and a shared machine can be slow. */
    private static OidcSettings settings(String issuer, String rolesClaim) {
        return OidcSettings.of(issuer, AUDIENCE, rolesClaim).withTimeout(PATIENT);
    }

    private TokenVerifier verifier() {
        return verifier(null);
    }

    /** A token the provider issues for this API, with these extra claims. */
    private SignedJWT issued(String subject, Map<String, Object> claims) {
        return provider.issueToken(ISSUER_ID, "movies-web",
                new DefaultOAuth2TokenCallback(ISSUER_ID, subject, "JWT", List.of(AUDIENCE), claims, 3600));
    }

    /** A token signed by the provider's own key with exactly these claims (none added but iat/nbf/exp). */
    private String signedByProvider(Map<String, Object> claims) {
        return provider.getConfig().getTokenProvider().jwt(claims, Duration.ofHours(1), ISSUER_ID).serialize();
    }

    /** The claims as sent: times in whole seconds (the issued object keeps milliseconds it never sends). */
    private static JWTClaimsSet sent(SignedJWT token) throws java.text.ParseException {
        return SignedJWT.parse(token.serialize()).getJWTClaimsSet();
    }

    private static AuthException refused(TokenVerifier verifier, String token) {
        AuthException e = assertThrows(AuthException.class, () -> verifier.verify(token));
        assertEquals(AuthException.Reason.INVALID_TOKEN, e.reason(), e.getMessage());
        return e;
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + message + "' should mention '" + part + "'");
        }
    }

    @Test
    void aValidTokenGivesItsSubjectRolesAndExpiry() throws Exception {
        SignedJWT token = issued("alice", Map.of("roles", List.of("Editor", "critic")));

        Viewer viewer = verifier().verify(token.serialize());

        assertEquals("alice", viewer.subject());
        assertEquals(Set.of(Viewer.EDITOR, "critic"), viewer.roles());
        assertTrue(viewer.signedIn());
        assertEquals(sent(token).getExpirationTime().toInstant(), viewer.expiresAt());
    }

    @Test
    void anEs256TokenIsAccepted() {
        MockOAuth2Server ecProvider = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
                new OAuth2TokenProvider(new KeyProvider(List.of(), "ES256"), (Function0<Instant>) Instant::now)));
        ecProvider.start();
        try {
            SignedJWT token = ecProvider.issueToken(ISSUER_ID, "movies-web",
                    new DefaultOAuth2TokenCallback(ISSUER_ID, "bob", "JWT", List.of(AUDIENCE), Map.of(), 3600));
            assertEquals(JWSAlgorithm.ES256, token.getHeader().getAlgorithm());

            Viewer viewer = new TokenVerifier(settings(ecProvider.issuerUrl(ISSUER_ID).toString(), null))
                    .verify(token.serialize());

            assertEquals("bob", viewer.subject());
        } finally {
            ecProvider.shutdown();
        }
    }

    @Test
    void anExpiredTokenIsRefusedSayingWhenItExpired() throws Exception {
        providerClockShift.set(Duration.ofHours(-2));
        SignedJWT token = issued("alice", Map.of());
        Instant expiry = sent(token).getExpirationTime().toInstant();

        AuthException e = refused(verifier(), token.serialize());

        assertMentions(e.getMessage(), "expired", expiry.toString());
    }

    @Test
    void aTokenNotValidYetIsRefused() throws Exception {
        providerClockShift.set(Duration.ofHours(1));
        SignedJWT token = issued("alice", Map.of());
        Instant notBefore = sent(token).getNotBeforeTime().toInstant();

        AuthException e = refused(verifier(), token.serialize());

        assertMentions(e.getMessage(), "not valid yet", notBefore.toString());
    }

    @Test
    void aTokenWithinTheClockSkewIsAccepted() {
        providerClockShift.set(Duration.ofSeconds(20)); // nbf 20 s ahead of us: within the default 60 s
        assertEquals("alice", verifier().verify(issued("alice", Map.of()).serialize()).subject());
    }

    @Test
    void aTokenForAnotherAudienceIsRefusedNamingTheExpectedOne() {
        SignedJWT token = provider.issueToken(ISSUER_ID, "movies-web",
                new DefaultOAuth2TokenCallback(ISSUER_ID, "alice", "JWT", List.of("another-api"), Map.of(), 3600));

        AuthException e = refused(verifier(), token.serialize());

        assertMentions(e.getMessage(), "audience", AUDIENCE);
    }

    @Test
    void aTokenFromAnotherIssuerIsRefusedNamingTheExpectedOne() {
        String token = signedByProvider(Map.of("iss", "https://login.elsewhere.example", "sub", "alice",
                "aud", AUDIENCE));

        AuthException e = refused(verifier(), token);

        assertMentions(e.getMessage(), "issuer", issuer());
    }

    @Test
    void aTokenWithoutSubjectIsRefused() {
        String token = signedByProvider(Map.of("iss", issuer(), "aud", AUDIENCE));

        AuthException e = refused(verifier(), token);

        assertMentions(e.getMessage(), "no subject");
    }

    @Test
    void aTokenSignedWithAKeyTheProviderDoesNotPublishIsRefused() throws Exception {
        RSAKey stranger = FakeProvider.newRsaKey("not-published");
        String token = FakeProvider.sign(stranger, new JWTClaimsSet.Builder().issuer(issuer()).audience(AUDIENCE)
                .subject("mallory").expirationTime(Date.from(Instant.now().plusSeconds(3600))).build());

        AuthException e = refused(verifier(), token);

        assertMentions(e.getMessage(), "does not publish", "not-published");
    }

    @Test
    void anAlteredTokenIsRefusedForItsSignature() {
        String[] parts = issued("alice", Map.of()).serialize().split("\\.");
        String payload = new String(Base64URL.from(parts[1]).decode(), StandardCharsets.UTF_8)
                .replace("\"alice\"", "\"admin\"");
        String forged = parts[0] + "." + Base64URL.encode(payload) + "." + parts[2];

        AuthException e = refused(verifier(), forged);

        assertMentions(e.getMessage(), "signature");
    }

    @Test
    void anUnsignedTokenIsRefused() {
        String token = new PlainJWT(new JWTClaimsSet.Builder().issuer(issuer()).audience(AUDIENCE).subject("mallory")
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).build()).serialize();

        AuthException e = refused(verifier(), token);

        assertMentions(e.getMessage(), "not signed", "RS256", "ES256");
    }

    /** The classic confusion: HS256 "signed" with the provider's public key, which anyone can download. */
    @Test
    void anHs256TokenSignedWithTheProvidersPublicKeyIsRefused() throws Exception {
        String jwks = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(provider.jwksUrl(ISSUER_ID)
                .toString())).build(), HttpResponse.BodyHandlers.ofString()).body();
        RSAKey published = (RSAKey) JWKSet.parse(jwks).getKeys().get(0);
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(published.getKeyID()).build(),
                new JWTClaimsSet.Builder().issuer(issuer()).audience(AUDIENCE).subject("mallory")
                        .expirationTime(Date.from(Instant.now().plusSeconds(3600))).build());
        token.sign(new MACSigner(published.toRSAPublicKey().getEncoded()));
        TokenVerifier verifier = verifier();
        verifier.verify(issued("alice", Map.of()).serialize()); // the provider's keys are in hand

        AuthException e = refused(verifier, token.serialize());

        assertMentions(e.getMessage(), "HS256", "only RS256 and ES256");
    }

    @Test
    void aMalformedTokenIsRefused() {
        AuthException e = refused(verifier(), "not.a-token");

        assertMentions(e.getMessage(), "not a well-formed JWT");
    }

    @Test
    void rolesComeFromAJsonArrayInLowerCase() {
        Viewer viewer = verifier("groups").verify(issued("alice", Map.of("groups", List.of("Editor", "Critic")))
                .serialize());

        assertEquals(Set.of("editor", "critic"), viewer.roles());
    }

    @Test
    void rolesComeFromASpaceOrCommaSeparatedString() {
        Viewer viewer = verifier("scp").verify(issued("alice", Map.of("scp", "editor  Critic,viewer")).serialize());

        assertEquals(Set.of("editor", "critic", "viewer"), viewer.roles());
    }

    @Test
    void rolesComeFromADottedPathAsKeycloakNestsThem() {
        Viewer viewer = verifier("realm_access.roles").verify(issued("alice",
                Map.of("realm_access", Map.of("roles", List.of("editor", "offline_access")))).serialize());

        assertEquals(Set.of("editor", "offline_access"), viewer.roles());
    }

    @Test
    void rolesComeFromCognitoGroupsAsAPlainClaimName() {
        Viewer viewer = verifier("cognito:groups").verify(issued("alice",
                Map.of("cognito:groups", List.of("Editor"))).serialize());

        assertEquals(Set.of(Viewer.EDITOR), viewer.roles());
    }

    @Test
    void aTokenWithoutTheRolesClaimHasNoRoles() {
        Viewer viewer = verifier().verify(issued("alice", Map.of()).serialize());

        assertEquals(Set.of(), viewer.roles());
    }
}
