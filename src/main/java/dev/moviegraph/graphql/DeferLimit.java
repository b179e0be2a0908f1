package dev.moviegraph.graphql;

import dev.moviegraph.graphql.errors.ErrorType;

import java.util.List;

import graphql.GraphqlErrorBuilder;
import graphql.execution.AbortExecutionException;
import graphql.execution.ExecutionContext;
import graphql.language.Directive;
import graphql.language.Node;

/**
 * MAX_DEFERRED_FRAGMENTS: how many {@code @defer} one operation may have, counted in its text (the operation
 * and every fragment it can spread), before anything runs. Each deferred fragment instance is a part of
 * its own, with its own payload and parse on the client: an operation with more is refused whole, as the
 * depth limit refuses one too deep.
 */
final class DeferLimit {
    private final int max;

    DeferLimit(int max) {
        this.max = max;
    }

    /** Throws graphql-java's abort, an error with code LIMIT_EXCEEDED, when the operation defers too many fragments. */
    void check(ExecutionContext context) {
        int count = count(context.getOperationDefinition());
        for (Node<?> fragment : context.getFragmentsByName().values()) {
            count += count(fragment);
        }
        if (count > max) {
            throw new AbortExecutionException(List.of(GraphqlErrorBuilder.newError()
                    .message("The operation has " + count + " deferred fragments (@defer); at most " + max
                            + " are allowed (MAX_DEFERRED_FRAGMENTS)")
                    .errorType(ErrorType.LIMIT_EXCEEDED)
                    .extensions(java.util.Map.of("code", ErrorType.LIMIT_EXCEEDED.name()))
                    .build()));
        }
    }

    private static int count(Node<?> node) {
        int count = node instanceof Directive directive && directive.getName().equals("defer") ? 1 : 0;
        for (Node<?> child : node.getChildren()) {
            count += count(child);
        }
        return count;
    }
}
