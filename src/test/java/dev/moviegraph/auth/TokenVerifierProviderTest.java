package dev.moviegraph.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What TokenVerifier asks of the provider, counted on a provider the test controls: one discovery, keys
 * fetched once and then kept, one more fetch for a rotated key, none for a key id that was just looked for;
 * and a provider that is down, broken or stalled refused quickly as PROVIDER_UNAVAILABLE.
 */
class TokenVerifierProviderTest {
    /** Generous: the point is "returns", not how fast; the calls themselves give up after 500 ms. */
    private static final long RETURNS_WITHIN_MILLIS = 5_000;

    private FakeProvider provider;
    private RSAKey key;

    @BeforeEach
    void start() throws Exception {
        provider = new FakeProvider();
        key = provider.publish(FakeProvider.newRsaKey("key-1"));
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    private String token(RSAKey signingKey, String subject) throws Exception {
        return FakeProvider.sign(signingKey, provider.claims(subject).build());
    }

    private static AuthException unavailable(TokenVerifier verifier, String token) {
        AuthException e = assertThrows(AuthException.class, () -> verifier.verify(token));
        assertEquals(AuthException.Reason.PROVIDER_UNAVAILABLE, e.reason(), e.getMessage());
        return e;
    }

    @Test
    void anEs256TokenIsAccepted() throws Exception {
        ECKey ecKey = provider.publish(FakeProvider.newEcKey("ec-1"));
        String token = FakeProvider.sign(ecKey, provider.claims("carol").build());

        assertEquals("carol", new TokenVerifier(provider.settings()).verify(token).subject());
    }

    @Test
    void cachedKeysVerifyManyTokensWithoutAnotherCall() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings());

        for (int i = 0; i < 50; i++) {
            assertEquals("viewer-" + i, verifier.verify(token(key, "viewer-" + i)).subject());
        }

        assertEquals(1, provider.discoveryRequests());
        assertEquals(1, provider.keyRequests());
    }

    @Test
    void aTokenWithoutAudienceIsForThisApiWhenItsClientIdIs() throws Exception {
        // Amazon Cognito's access tokens: no aud, the app client in client_id.
        TokenVerifier verifier = new TokenVerifier(provider.settings());
        String cognitoAccess = FakeProvider.sign(key, provider.claims("alice").audience((java.util.List<String>) null)
                .claim("token_use", "access").claim("client_id", FakeProvider.AUDIENCE).build());
        assertEquals("alice", verifier.verify(cognitoAccess).subject());

        String otherClient = FakeProvider.sign(key, provider.claims("bob").audience((java.util.List<String>) null)
                .claim("client_id", "another-app").build());
        AuthException refused = assertThrows(AuthException.class, () -> verifier.verify(otherClient));
        assertTrue(refused.getMessage().contains("not meant for this API"), refused.getMessage());

        String otherAudience = FakeProvider.sign(key, provider.claims("carl").audience("another-api")
                .claim("client_id", FakeProvider.AUDIENCE).build());
        assertThrows(AuthException.class, () -> verifier.verify(otherAudience), "an aud, when there is one, decides");
    }

    @Test
    void staleKeysStillVerifyNewTokensWhileTheProviderIsDown() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings(), TokenVerifier.DISCOVERY_RETRY_INTERVAL,
                java.time.Duration.ofSeconds(1));
        assertEquals("alice", verifier.verify(token(key, "alice")).subject());
        provider.answerKeysWith(503);
        Thread.sleep(1500); // the keys are stale: the next token makes the verifier fetch them, in vain

        assertEquals("bob", verifier.verify(token(key, "bob")).subject(), "the last keys, through the outage");
        assertTrue(provider.keyRequests() >= 2, "it did try the provider: " + provider.keyRequests());
    }

    @Test
    void aTokenSentAgainIsNotCheckedAgainUntilItExpires() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings().withClockSkew(java.time.Duration.ZERO));
        String token = token(key, "alice");
        for (int i = 0; i < 20; i++) {
            assertEquals("alice", verifier.verify(token).subject());
        }
        assertEquals(1, verifier.signatureChecks(), "its signature checked once");

        String shortLived = FakeProvider.sign(key, provider.claims("bob")
                .expirationTime(java.util.Date.from(java.time.Instant.now().plusMillis(4000))).build());
        assertEquals("bob", verifier.verify(shortLived).subject());
        Thread.sleep(4500); // exp is in whole seconds: 3 to 4 s from signing
        AuthException expired = assertThrows(AuthException.class, () -> verifier.verify(shortLived));
        assertEquals(AuthException.Reason.INVALID_TOKEN, expired.reason());
        assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
    }

    @Test
    void aRotatedKeyIsAcceptedAfterExactlyOneMoreFetch() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings());
        verifier.verify(token(key, "alice"));
        assertEquals(1, provider.keyRequests());

        RSAKey rotated = provider.publish(FakeProvider.newRsaKey("key-2"));
        assertEquals("bob", verifier.verify(token(rotated, "bob")).subject());
        assertEquals("bob", verifier.verify(token(rotated, "bob")).subject());

        assertEquals(2, provider.keyRequests());
        assertEquals(1, provider.discoveryRequests());
    }

    @Test
    void anUnknownKeyCausesOneFetchThenIsRefusedWithoutMore() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings());
        verifier.verify(token(key, "alice"));
        RSAKey stranger = FakeProvider.newRsaKey("ghost");

        for (int i = 0; i < 5; i++) {
            AuthException e = assertThrows(AuthException.class, () -> verifier.verify(token(stranger, "mallory")));
            assertEquals(AuthException.Reason.INVALID_TOKEN, e.reason(), e.getMessage());
            assertTrue(e.getMessage().contains("does not publish") && e.getMessage().contains("ghost"),
                    e.getMessage());
        }

        assertEquals(2, provider.keyRequests());
    }

    @Test
    void warmUpLoadsTheKeysSoTheFirstTokenMakesNoCall() throws Exception {
        TokenVerifier verifier = new TokenVerifier(provider.settings());

        assertTrue(verifier.warmUp());
        assertEquals(1, provider.keyRequests());
        verifier.verify(token(key, "alice"));

        assertEquals(1, provider.discoveryRequests());
        assertEquals(1, provider.keyRequests());
    }

    @Test
    void creatingAVerifierCallsNothing() {
        new TokenVerifier(provider.settings());

        assertEquals(0, provider.discoveryRequests());
    }

    @Test
    void aDiscoveryDocumentNamingAnotherIssuerIsRefused() throws Exception {
        provider.nameIssuerInDocument("https://login.elsewhere.example");

        unavailable(new TokenVerifier(provider.settings()), token(key, "alice"));

        assertEquals(0, provider.keyRequests());
    }

    @Test
    void aFailedDiscoveryIsNotRetriedWithinTheIntervalButIsAfterIt() throws Exception {
        provider.answerDiscoveryWith(503);
        TokenVerifier verifier = new TokenVerifier(provider.settings(), Duration.ofMillis(300));
        String token = token(key, "alice");

        AuthException e = unavailable(verifier, token);
        unavailable(verifier, token);
        assertEquals(1, provider.discoveryRequests());
        assertTrue(e.getMessage().contains(provider.issuer()) && e.getMessage().contains("could not be reached"),
                e.getMessage());

        provider.answerDiscoveryWith(200);
        Thread.sleep(400);
        assertEquals("alice", verifier.verify(token).subject());
        assertEquals(2, provider.discoveryRequests());
    }

    @Test
    void keysThatAreNotAKeySetMakeTheProviderUnavailable() throws Exception {
        provider.answerKeysWith("<html>maintenance</html>");

        unavailable(new TokenVerifier(provider.settings()), token(key, "alice"));
    }

    @Test
    void aProviderThatIsDownIsReportedQuickly() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        TokenVerifier verifier = new TokenVerifier(OidcSettings.of("http://127.0.0.1:" + closedPort, "api")
                .withTimeout(Duration.ofMillis(500)));

        String token = token(key, "alice");
        long start = System.nanoTime();
        AuthException e = assertTimeoutPreemptively(Duration.ofMillis(RETURNS_WITHIN_MILLIS),
                () -> unavailable(verifier, token));
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(millis < RETURNS_WITHIN_MILLIS, millis + " ms");
        assertTrue(e.getMessage().contains("127.0.0.1:" + closedPort), e.getMessage());
        assertFalse(verifier.warmUp());
    }

    @Test
    void aProviderThatNeverAnswersIsReportedWithinTheTimeout() throws Exception {
        try (ServerSocket silent = silentServer()) {
            TokenVerifier verifier = new TokenVerifier(OidcSettings.of("http://127.0.0.1:" + silent.getLocalPort(),
                    "api").withTimeout(Duration.ofMillis(500)));

            long millis = millisToRefuse(verifier, token(key, "alice"));

            assertTrue(millis >= 400, "gave up before the timeout: " + millis + " ms");
            assertTrue(millis < RETURNS_WITHIN_MILLIS, millis + " ms");
        }
    }

    @Test
    void keysThatNeverArriveAreReportedWithinTheTimeout() throws Exception {
        try (ServerSocket silent = silentServer()) {
            provider.pointKeysTo("http://127.0.0.1:" + silent.getLocalPort() + "/jwks");
            TokenVerifier verifier = new TokenVerifier(provider.settings().withTimeout(Duration.ofMillis(500)));

            long millis = millisToRefuse(verifier, token(key, "alice"));

            assertTrue(millis < RETURNS_WITHIN_MILLIS, millis + " ms");
            assertEquals(1, provider.discoveryRequests());
        }
    }

    /** Accepts connections (the kernel's backlog completes them) and never says a word. */
    private static ServerSocket silentServer() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        return socket;
    }

    /** How long the verifier took to give up; fails (rather than hangs) if it waits past the generous bound. */
    private static long millisToRefuse(TokenVerifier verifier, String token) {
        long start = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofMillis(RETURNS_WITHIN_MILLIS), () -> unavailable(verifier, token));
        return (System.nanoTime() - start) / 1_000_000;
    }
}
