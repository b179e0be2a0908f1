package dev.moviegraph.graphql.auth;

import dev.moviegraph.graphql.errors.ErrorType;

/**
 * A field the viewer may not ask for, and why: {@link ErrorType#UNAUTHENTICATED} when a credential would
 * help (none was sent, or not the one needed: HTTP 401), {@link ErrorType#FORBIDDEN} when the viewer is known
 * and still not allowed (HTTP 403).
 *
 * @param path where in the operation the field is ({@code putMovie}, {@code viewer.watchlist})
 * @param rule the rule as the schema writes it ({@code @auth(requires: EDITOR)})
 */
public record Refusal(String path, String rule, ErrorType code, String message) {
}
