package dev.moviegraph.graphql.wiring;

import graphql.execution.ResultPath;
import graphql.schema.DataFetchingEnvironment;

/**
 * GraphQL paths as a trace shows them: result keys joined by dots, list indexes left out, so that the
 * twenty movies of one batch all read "movies.cast".
 */
final class Paths {
    private Paths() {
    }

    /** The path of the field being fetched. */
    static String of(DataFetchingEnvironment env) {
        return join(env.getExecutionStepInfo().getPath());
    }

    /** The path of the object the field belongs to (a movie, for its title). */
    static String parent(DataFetchingEnvironment env) {
        return join(env.getExecutionStepInfo().getParent().getPath());
    }

    private static String join(ResultPath path) {
        return String.join(".", path.getKeysOnly());
    }
}
