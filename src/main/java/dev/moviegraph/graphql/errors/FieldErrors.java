package dev.moviegraph.graphql.errors;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import graphql.GraphQLError;

/**
 * The field errors one request's data fetchers raised, kept for its deferred parts. graphql-java 26 builds
 * a deferred part whose non-null field came back null from its "was null" error alone, dropping the error
 * that made it null (its {@code DeferredFragmentCall}); without {@code @defer} that field error is what the
 * client gets. The parts put it back from here ({@code DeferredParts}).
 */
public final class FieldErrors {
    private final Queue<GraphQLError> errors = new ConcurrentLinkedQueue<>();

    void add(GraphQLError error) {
        errors.add(error);
    }

    /** The errors raised at {@code path} or under it. */
    public List<GraphQLError> under(List<Object> path) {
        return errors.stream().filter(error -> error.getPath() != null && error.getPath().size() >= path.size()
                && error.getPath().subList(0, path.size()).equals(path)).toList();
    }
}
