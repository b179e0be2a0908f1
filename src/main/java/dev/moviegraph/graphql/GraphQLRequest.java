package dev.moviegraph.graphql;

import io.opentelemetry.context.Context;

import java.util.Map;

/**
 * One GraphQL request as the transport received it; variables may be empty, never null. {@code traceParent}
 * is the trace it belongs to (its {@code traceparent} header), the root context when it has none or
 * tracing is off.
 */
public record GraphQLRequest(String query, String operationName, Map<String, Object> variables, Context traceParent) {
    public GraphQLRequest {
        variables = variables == null ? Map.of() : variables;
        traceParent = traceParent == null ? Context.root() : traceParent;
    }

    public GraphQLRequest(String query, String operationName, Map<String, Object> variables) {
        this(query, operationName, variables, Context.root());
    }

    /** The same request, in the trace {@code parent}. */
    public GraphQLRequest inTrace(Context parent) {
        return new GraphQLRequest(query, operationName, variables, parent);
    }
}
