package dev.moviegraph.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * Which OpenID Connect provider signs in the viewers, and how far its tokens are trusted. Every constructor
 * checks its values, so settings that exist are usable; {@link #of(String, String)} and
 * {@link #of(String, String, String)} read them from text (the environment) with the defaults below.
 *
 * @param issuer     the provider's issuer, exactly as its tokens' {@code iss} and its discovery document say it:
 *                   an absolute https URL (http only for {@code localhost} or {@code 127.0.0.1}, for a provider
 *                   run beside the server in development); its keys are found at
 *                   {@code {issuer}/.well-known/openid-configuration}
 * @param audience   the value the tokens' {@code aud} must contain: this API's identifier at the provider
 *                   (its client id, or the API audience where the provider has one)
 * @param rolesClaim the claim that lists a viewer's roles; default {@value #DEFAULT_ROLES_CLAIM}. A name with
 *                   dots that is no top-level claim is followed as a path ({@code realm_access.roles} for
 *                   Keycloak); {@code cognito:groups} for Cognito is a plain name
 * @param clockSkew  how far the server's clock and the provider's may differ when {@code exp} and {@code nbf}
 *                   are checked; default 60 seconds
 * @param timeout    the connect timeout and the read timeout of every call to the provider (its discovery
 *                   document and its keys); default 3 seconds
 */
public record OidcSettings(URI issuer, String audience, String rolesClaim, Duration clockSkew, Duration timeout) {
    /** The roles claim when none is named. */
    public static final String DEFAULT_ROLES_CLAIM = "roles";
    /** 60 seconds: the clock difference tolerated when none is named. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    /** 3 seconds: each call to the provider gives up after this when none is named. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    /**
     * Checks every value; a null roles claim, clock skew or timeout takes its default.
     *
     * @throws IllegalArgumentException naming the value that is wrong and what it accepts
     */
    public OidcSettings {
        issuer = checkedIssuer(issuer);
        if (audience == null || audience.isBlank()) {
            throw new IllegalArgumentException("The OpenID Connect audience is empty: set it to this API's "
                    + "identifier at the provider (the value its access tokens carry in 'aud')");
        }
        audience = audience.strip();
        if (rolesClaim == null) {
            rolesClaim = DEFAULT_ROLES_CLAIM;
        } else if (rolesClaim.isBlank()) {
            throw new IllegalArgumentException("The OpenID Connect roles claim is blank: name the claim that "
                    + "lists a viewer's roles (for example 'roles', 'realm_access.roles' or 'cognito:groups'), "
                    + "or leave it unset for '" + DEFAULT_ROLES_CLAIM + "'");
        } else {
            rolesClaim = rolesClaim.strip();
        }
        clockSkew = clockSkew == null ? DEFAULT_CLOCK_SKEW : clockSkew;
        if (clockSkew.isNegative() || clockSkew.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("The OpenID Connect clock skew must be between 0 and 1 hour, not "
                    + clockSkew);
        }
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("The OpenID Connect provider timeout must be more than 0 and at "
                    + "most 1 minute, not " + timeout);
        }
    }

    /**
     * Settings with the default roles claim, clock skew and timeout.
     *
     * @throws IllegalArgumentException when the issuer is no usable URL or the audience is blank
     */
    public static OidcSettings of(String issuer, String audience) {
        return of(issuer, audience, null);
    }

    /**
     * Settings with the default clock skew and timeout.
     *
     * @param rolesClaim null or empty for {@value #DEFAULT_ROLES_CLAIM}
     * @throws IllegalArgumentException when the issuer is no usable URL or the audience is blank
     */
    public static OidcSettings of(String issuer, String audience, String rolesClaim) {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("The OpenID Connect issuer is empty: set it to the provider's "
                    + "issuer URL, for example https://login.example.com/realms/movies");
        }
        URI uri;
        try {
            uri = new URI(issuer.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("The OpenID Connect issuer '" + issuer.strip() + "' is not a URL: "
                    + "set it to the provider's issuer URL, for example https://login.example.com/realms/movies");
        }
        String claim = rolesClaim == null || rolesClaim.isBlank() ? null : rolesClaim;
        return new OidcSettings(uri, audience, claim, null, null);
    }

    /** The same settings with another clock skew. */
    public OidcSettings withClockSkew(Duration skew) {
        return new OidcSettings(issuer, audience, rolesClaim, skew, timeout);
    }

    /** The same settings with another timeout for calls to the provider. */
    public OidcSettings withTimeout(Duration providerTimeout) {
        return new OidcSettings(issuer, audience, rolesClaim, clockSkew, providerTimeout);
    }

    /** The discovery document's address: the issuer without a trailing slash, then the well-known path. */
    URI discoveryUri() {
        String base = issuer.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + "/.well-known/openid-configuration");
    }

    private static URI checkedIssuer(URI issuer) {
        if (issuer == null) {
            throw new IllegalArgumentException("The OpenID Connect issuer is empty: set it to the provider's "
                    + "issuer URL, for example https://login.example.com/realms/movies");
        }
        String problem = urlProblem(issuer);
        if (problem != null) {
            throw new IllegalArgumentException("The OpenID Connect issuer '" + issuer + "' " + problem);
        }
        if (issuer.getRawQuery() != null || issuer.getRawFragment() != null) {
            throw new IllegalArgumentException("The OpenID Connect issuer '" + issuer + "' has a query or a "
                    + "fragment, which an issuer never has: give the URL its tokens carry in 'iss'");
        }
        return issuer;
    }

    /**
     * Why a URL the server fetches from the provider is refused, or null when it is fine: only https, since
     * the provider's keys decide who is signed in, except plain http to this machine for development.
     */
    static String urlProblem(URI url) {
        if (!url.isAbsolute() || url.getHost() == null) {
            return "is not an absolute URL: give it with its scheme and host, for example "
                    + "https://login.example.com/realms/movies";
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        String host = url.getHost().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            return null;
        }
        if (scheme.equals("http") && (host.equals("localhost") || host.equals("127.0.0.1"))) {
            return null;
        }
        if (scheme.equals("http")) {
            return "uses plain http: only https is accepted (http only for localhost or 127.0.0.1)";
        }
        return "is not an https URL: only https is accepted (http only for localhost or 127.0.0.1)";
    }
}
