package dev.moviegraph.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * Turns a request's {@code Authorization} header into its {@link Viewer}: no header is nobody known (on a
 * sandbox, {@link Viewer#SANDBOX}); {@code Bearer <WRITE_TOKEN>} is the deployment's own scripts
 * ({@link Viewer#SERVICE}); with OpenID Connect on, any other {@code Bearer} token must be one the provider
 * signed. Without OpenID Connect nobody can check another credential, so it gives no identity: the schema's
 * rules then refuse whatever needs one.
 */
public final class Credentials {
    private static final String BEARER = "bearer";

    private final byte[] writeTokenDigest;
    private final TokenVerifier verifier;
    private final boolean sandbox;

    /**
     * @param writeToken the WRITE_TOKEN; null or blank when there is none
     * @param verifier   the provider's token verifier; null when OpenID Connect is off
     * @param sandbox    a developer's sandbox, where nobody known may change the catalog
     */
    public Credentials(String writeToken, TokenVerifier verifier, boolean sandbox) {
        this.writeTokenDigest = writeToken == null || writeToken.isBlank() ? null : digest(writeToken);
        this.verifier = verifier;
        this.sandbox = sandbox;
    }

    /**
     * Who sent a request with this {@code Authorization} header.
     *
     * @param authorizationHeader the header's value; null when the request has none
     * @throws AuthException INVALID_TOKEN for a credential that is refused (with OpenID Connect on), or
     *                       PROVIDER_UNAVAILABLE when the provider is needed to check it and cannot be reached
     */
    public Viewer viewerOf(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.isBlank()) {
            return nobody();
        }
        if (isWriteToken(authorizationHeader)) {
            return Viewer.SERVICE;
        }
        if (verifier == null) {
            return nobody();
        }
        String token = bearerToken(authorizationHeader);
        if (token == null) {
            throw new AuthException(AuthException.Reason.INVALID_TOKEN,
                    "Authorization must be 'Bearer <token>'");
        }
        return verifier.verify(token);
    }

    /** Whether the header is {@code Bearer <WRITE_TOKEN>}; compared in constant time. */
    public boolean isWriteToken(String authorizationHeader) {
        if (writeTokenDigest == null || authorizationHeader == null) {
            return false;
        }
        String token = bearerToken(authorizationHeader);
        // Digests of both, compared with MessageDigest.isEqual: the time taken says nothing of how much of the
        // token was right, nor of its length.
        return token != null && MessageDigest.isEqual(writeTokenDigest, digest(token));
    }

    private Viewer nobody() {
        return sandbox ? Viewer.SANDBOX : Viewer.ANONYMOUS;
    }

    /** The credential after {@code Bearer} (the scheme in any case, RFC 9110), or null for another form. */
    private static String bearerToken(String header) {
        String value = header.strip();
        int space = indexOfWhitespace(value);
        if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return null;
        }
        String token = value.substring(space).strip();
        return token.isEmpty() ? null : token;
    }

    private static int indexOfWhitespace(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (Character.isWhitespace(value.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }
}
