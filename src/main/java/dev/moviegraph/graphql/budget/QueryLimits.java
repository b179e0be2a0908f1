package dev.moviegraph.graphql.budget;

import java.time.Duration;

import graphql.parser.ParserOptions;

/**
 * What one request may ask for and use: nesting depth, aliased fields, parser tokens and characters
 * (graphql-java's ParserOptions, so a huge document is cut off while it is parsed), whether
 * introspection is on, result nodes (fields and list elements of the response), the read units its
 * plan may estimate and its execution may consume, and how long a query may run. Anything beyond is an
 * error with code LIMIT_EXCEEDED (TIMEOUT for time); the document limits and the estimate refuse a
 * request before any DynamoDB call.
 *
 * @param maxReadUnits read units per request, estimated and consumed; 0 for no budget
 * @param timeout      how long a query may run before it is stopped; mutations always run to their end
 * @param maxDeferred  {@code @defer} directives in one operation's text
 */
public record QueryLimits(int maxDepth, int maxAliases, int maxTokens, int maxChars, boolean introspection,
                          int maxResultNodes, double maxReadUnits, Duration timeout, int maxDeferred) {
    public static final int DEFAULT_MAX_DEFERRED = 16;
    public static final QueryLimits DEFAULTS =
            new QueryLimits(15, 50, 5_000, 20_000, true, 20_000, 100, Duration.ofSeconds(15), DEFAULT_MAX_DEFERRED);

    public QueryLimits(int maxDepth, int maxAliases, int maxTokens, int maxChars, boolean introspection,
                       int maxResultNodes, double maxReadUnits, Duration timeout) {
        this(maxDepth, maxAliases, maxTokens, maxChars, introspection, maxResultNodes, maxReadUnits, timeout,
                DEFAULT_MAX_DEFERRED);
    }

    public ParserOptions parserOptions() {
        return ParserOptions.getDefaultOperationParserOptions().transform(options -> options
                .maxTokens(maxTokens)
                .maxCharacters(maxChars));
    }
}
