package dev.moviegraph.http;

import dev.moviegraph.graphql.errors.ErrorType;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Who may send mutations: with WRITE_TOKEN set, requests bearing it; without it, anyone on the embedded
 * engine (a developer's sandbox) and nobody against real DynamoDB or a URL, so that forgetting
 * the token never leaves a production catalog writable.
 */
public final class WriteGuard {
    private final byte[] token;
    private final boolean embedded;

    public WriteGuard(String token, boolean embedded) {
        this.token = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        this.embedded = embedded;
    }

    /** Whether this Authorization header bears the server's WRITE_TOKEN (constant-time). */
    public boolean bearsToken(String authorization) {
        byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
        // Constant-time: the comparison must not tell how much of a guess was right.
        return token != null && MessageDigest.isEqual(token, given);
    }

    /** Who sends a request with this Authorization header, as far as the WRITE_TOKEN tells. */
    public dev.moviegraph.auth.Viewer viewerOf(String authorization) {
        return bearsToken(authorization) ? dev.moviegraph.auth.Viewer.SERVICE
                : token == null && embedded ? dev.moviegraph.auth.Viewer.SANDBOX : dev.moviegraph.auth.Viewer.ANONYMOUS;
    }

    /** Why a mutation with this Authorization header is refused, or empty when it may run. */
    public Optional<Refusal> check(String authorization) {
        if (token == null) {
            return embedded ? Optional.empty() : Optional.of(new Refusal(403, ErrorType.FORBIDDEN,
                    "Writes are disabled: set WRITE_TOKEN on the server to allow mutations against this DynamoDB"));
        }
        if (bearsToken(authorization)) {
            return Optional.empty();
        }
        return Optional.of(new Refusal(401, ErrorType.UNAUTHENTICATED,
                "Mutations need the header Authorization: Bearer <token> with the server's WRITE_TOKEN"));
    }

    /** The HTTP status, error code and message of a refused mutation. */
    public record Refusal(int status, ErrorType code, String message) {
    }
}
