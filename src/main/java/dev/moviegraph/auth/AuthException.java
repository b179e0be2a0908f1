package dev.moviegraph.auth;

/**
 * A credential that was refused, or could not be checked. Its message is written for the developer of the
 * client that sent the request (what was wrong with the token, in plain words) and is safe to return to them:
 * it never carries a library's message or a cause, and no stack trace is taken (refusals are routine, and the
 * detail an operator needs is logged where it is known).
 */
public final class AuthException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the credential was not accepted. */
    public enum Reason {
        /** The client sent a credential that is not valid here: a 401 for the client to fix. */
        INVALID_TOKEN,
        /** The sign-in provider could not be reached to check the credential: the client may retry later. */
        PROVIDER_UNAVAILABLE
    }

    private final Reason reason;

    public AuthException(Reason reason, String message) {
        super(message, null, false, false);
        if (reason == null || message == null) {
            throw new IllegalArgumentException("An AuthException needs a reason and a message");
        }
        this.reason = reason;
    }

    static AuthException invalid(String message) {
        return new AuthException(Reason.INVALID_TOKEN, message);
    }

    static AuthException providerUnavailable(OidcSettings settings) {
        return new AuthException(Reason.PROVIDER_UNAVAILABLE, "The sign-in provider (" + settings.issuer()
                + ") could not be reached; try again shortly");
    }

    public Reason reason() {
        return reason;
    }
}
