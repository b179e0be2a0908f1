package dev.moviegraph.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.RSAKey;

import org.junit.jupiter.api.Test;

/** Credentials: the Authorization header to a Viewer, with and without OpenID Connect, on a sandbox or not. */
class CredentialsTest {
    private static final String WRITE_TOKEN = "s3cret-write-token";

    @Test
    void noHeaderIsAnonymous() {
        Credentials credentials = new Credentials(WRITE_TOKEN, null, false);

        assertSame(Viewer.ANONYMOUS, credentials.viewerOf(null));
        assertSame(Viewer.ANONYMOUS, credentials.viewerOf("  "));
    }

    @Test
    void noHeaderOnASandboxIsTheSandbox() {
        assertSame(Viewer.SANDBOX, new Credentials(null, null, true).viewerOf(null));
    }

    @Test
    void theWriteTokenIsTheService() {
        Credentials credentials = new Credentials(WRITE_TOKEN, null, false);

        assertSame(Viewer.SERVICE, credentials.viewerOf("Bearer " + WRITE_TOKEN));
        assertSame(Viewer.SERVICE, credentials.viewerOf("bearer " + WRITE_TOKEN));
        assertTrue(credentials.isWriteToken("Bearer " + WRITE_TOKEN));
    }

    @Test
    void anyOtherWriteTokenIsNotTheService() {
        Credentials credentials = new Credentials(WRITE_TOKEN, null, false);

        assertFalse(credentials.isWriteToken("Bearer " + WRITE_TOKEN + "x"));
        assertFalse(credentials.isWriteToken("Bearer " + WRITE_TOKEN.substring(1)));
        assertFalse(credentials.isWriteToken(WRITE_TOKEN));
        assertFalse(credentials.isWriteToken("Basic " + WRITE_TOKEN));
        assertSame(Viewer.ANONYMOUS, credentials.viewerOf("Bearer wrong"));
    }

    @Test
    void withoutAWriteTokenNothingIsTheService() {
        Credentials credentials = new Credentials(null, null, false);

        assertFalse(credentials.isWriteToken("Bearer "));
        assertFalse(credentials.isWriteToken("Bearer null"));
        assertSame(Viewer.ANONYMOUS, credentials.viewerOf("Bearer anything"));
    }

    @Test
    void aBearerTokenWithoutAVerifierIsNoIdentity() {
        assertSame(Viewer.ANONYMOUS, new Credentials(WRITE_TOKEN, null, false).viewerOf("Bearer eyJhbGciOi.x.y"));
        assertSame(Viewer.SANDBOX, new Credentials(null, null, true).viewerOf("Bearer eyJhbGciOi.x.y"));
        assertSame(Viewer.ANONYMOUS, new Credentials(null, null, false).viewerOf("Basic dXNlcjpwYXNz"));
    }

    @Test
    void withAVerifierAnotherSchemeIsRefused() throws Exception {
        try (FakeProvider provider = new FakeProvider()) {
            Credentials credentials = new Credentials(WRITE_TOKEN, new TokenVerifier(provider.settings()), false);

            for (String header : new String[] {"Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "token abc"}) {
                AuthException e = assertThrows(AuthException.class, () -> credentials.viewerOf(header));
                assertEquals(AuthException.Reason.INVALID_TOKEN, e.reason());
                assertEquals("Authorization must be 'Bearer <token>'", e.getMessage());
            }
            assertEquals(0, provider.discoveryRequests());
        }
    }

    @Test
    void withAVerifierABearerTokenIsVerified() throws Exception {
        try (FakeProvider provider = new FakeProvider()) {
            RSAKey key = provider.publish(FakeProvider.newRsaKey("key-1"));
            Credentials credentials = new Credentials(WRITE_TOKEN, new TokenVerifier(provider.settings()), false);

            Viewer viewer = credentials.viewerOf("Bearer " + FakeProvider.sign(key, provider.claims("alice")
                    .claim("roles", "editor").build()));

            assertEquals("alice", viewer.subject());
            assertTrue(viewer.hasRole(Viewer.EDITOR));
            assertThrows(AuthException.class, () -> credentials.viewerOf("Bearer not-a-jwt"));
        }
    }

    @Test
    void withAVerifierTheWriteTokenIsStillTheServiceWithoutAskingTheProvider() throws Exception {
        try (FakeProvider provider = new FakeProvider()) {
            Credentials credentials = new Credentials(WRITE_TOKEN, new TokenVerifier(provider.settings()), false);

            assertSame(Viewer.SERVICE, credentials.viewerOf("Bearer " + WRITE_TOKEN));
            assertSame(Viewer.ANONYMOUS, credentials.viewerOf(null));
            assertEquals(0, provider.discoveryRequests());
        }
    }
}
