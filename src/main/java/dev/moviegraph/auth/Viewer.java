package dev.moviegraph.auth;

import java.time.Instant;
import java.util.Set;

/**
 * Who sends a request: a signed-in viewer (a verified OpenID Connect token: its subject and roles), the
 * deployment's own scripts (the WRITE_TOKEN: an editor with no subject of a person), or nobody known (no
 * credential). Made once per request or WebSocket connection by the transport and handed to execution in
 * the GraphQL context; rules in the schema ({@code @auth}) and viewer-owned reads consult it.
 *
 * @param subject   the token's {@code sub}; null when anonymous or for the service credential
 * @param roles     the roles the token's roles claim lists (lower case), {@link #EDITOR} among them for an editor
 * @param expiresAt when the token expires; null when no token or a credential that does not expire
 */
public record Viewer(String subject, Set<String> roles, Instant expiresAt) {
    /** The role that may change the catalog. */
    public static final String EDITOR = "editor";

    /** No credential: may read the catalog, nothing that belongs to a viewer. */
    public static final Viewer ANONYMOUS = new Viewer(null, Set.of(), null);

    /** The WRITE_TOKEN's bearer: the deployment's scripts, an editor that owns nothing. */
    public static final Viewer SERVICE = new Viewer(null, Set.of(EDITOR), null);

    /**
     * Nobody known, on a developer's sandbox (the embedded engine with neither WRITE_TOKEN nor OIDC_ISSUER
     * set): may change the catalog, as before sign-in existed; still owns nothing.
     */
    public static final Viewer SANDBOX = new Viewer(null, Set.of(EDITOR), null);

    public Viewer {
        roles = Set.copyOf(roles);
    }

    /** A signed-in viewer: a person with a subject, who may own things (a watchlist). */
    public boolean signedIn() {
        return subject != null;
    }

    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    /** Whether a credential was presented: a signed-in viewer or the service credential. */
    public boolean authenticated() {
        return this != ANONYMOUS && this != SANDBOX;
    }
}
