package dev.moviegraph.graphql;

import graphql.parser.ParserOptions;

/**
 * What one GraphQL document may ask for: nesting depth, aliased fields, parser tokens and characters
 * (graphql-java's ParserOptions, so a huge document is cut off while it is parsed), and whether
 * introspection is on. Anything beyond is a LIMIT_EXCEEDED error before any DynamoDB call.
 */
public record QueryLimits(int maxDepth, int maxAliases, int maxTokens, int maxChars, boolean introspection) {
    public static final QueryLimits DEFAULTS = new QueryLimits(15, 50, 5_000, 20_000, true);

    ParserOptions parserOptions() {
        return ParserOptions.getDefaultOperationParserOptions().transform(options -> options
                .maxTokens(maxTokens)
                .maxCharacters(maxChars));
    }
}
