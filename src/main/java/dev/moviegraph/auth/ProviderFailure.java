package dev.moviegraph.auth;

/**
 * The provider's discovery document or keys could not be had. Its message is for the operator's log (the
 * address, the status, what was wrong with the document); clients only ever see
 * {@link AuthException.Reason#PROVIDER_UNAVAILABLE}'s own message.
 */
final class ProviderFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ProviderFailure(String detail) {
        super(detail, null, false, false);
    }
}
