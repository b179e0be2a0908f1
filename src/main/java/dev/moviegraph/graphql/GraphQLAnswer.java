package dev.moviegraph.graphql;

import dev.moviegraph.graphql.caching.CachePolicy;

import java.util.Map;

/**
 * One operation's answer: the GraphQL response (data, errors, extensions) and how long HTTP caches may
 * keep it ({@link CachePolicy#NO_STORE} for anything with errors, a trace or plan, or a mutation).
 */
public record GraphQLAnswer(Map<String, Object> body, CachePolicy cache) {
}
