package dev.moviegraph.graphql.errors;

import graphql.ErrorClassification;

/** The small fixed set of codes every error carries in {@code extensions.code}. */
public enum ErrorType implements ErrorClassification {
    /**
     * The HTTP request is malformed before any GraphQL is read: a body that is not a JSON object, no
     * 'query' string, the wrong Content-Type, a bad Moviegraph-Trace header, a plan asked for a mutation.
     */
    BAD_REQUEST,
    /** The query is not valid GraphQL text. */
    GRAPHQL_PARSE_FAILED,
    /** The query does not fit the schema, or a variable has the wrong type. */
    GRAPHQL_VALIDATION_FAILED,
    /** An argument is malformed or out of range (ids, months, cursors, page sizes). */
    BAD_USER_INPUT,
    /**
     * The request asks for or uses more than a limit allows: depth, aliases, tokens, characters, result
     * nodes, or read units (estimated before, or consumed while executing).
     */
    LIMIT_EXCEEDED,
    /** The query ran past its time limit (REQUEST_TIMEOUT_MS) and was stopped, its DynamoDB calls cancelled. */
    TIMEOUT,
    /** A write named a movie or actor that does not exist. */
    NOT_FOUND,
    /** A mutation without the right bearer token (HTTP 401). */
    UNAUTHENTICATED,
    /** Writes are switched off for this deployment (HTTP 403). */
    FORBIDDEN,
    /**
     * The client has spent its read units per second (CLIENT_READ_UNITS_PER_SECOND): HTTP 429 with
     * Retry-After, or an {@code error} message on a WebSocket; {@code extensions.retryAfterSeconds} says when.
     */
    RATE_LIMITED,
    /** DynamoDB could not be reached or refused the call; retry later. */
    UNAVAILABLE,
    /** A fault of the gateway; the message carries an id that is also in the server log. */
    INTERNAL,
    /**
     * Automatic persisted queries: no document is stored under this hash (yet); send the query with it.
     * Answered as Apollo Server does (message {@code PersistedQueryNotFound}, HTTP 200, not cacheable), so
     * Apollo's persisted-query link sends the full query next.
     */
    PERSISTED_QUERY_NOT_FOUND,
    /** Persisted queries are switched off (APQ=off); Apollo's link then stops sending hashes. */
    PERSISTED_QUERY_NOT_SUPPORTED,
    /** Trusted documents: no listed document has this id or hash (HTTP 404, Apollo Router's code). */
    PERSISTED_QUERY_NOT_IN_LIST,
    /** Trusted documents: the query text is not one of the listed documents (HTTP 403, Apollo Router's code). */
    QUERY_NOT_IN_SAFELIST
}
