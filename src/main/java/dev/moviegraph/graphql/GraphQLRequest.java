package dev.moviegraph.graphql;

import dev.moviegraph.auth.Viewer;

import io.opentelemetry.context.Context;

import java.util.Map;

/**
 * One GraphQL request as the transport received it; variables may be empty, never null. {@code traceParent}
 * is the trace it belongs to (its {@code traceparent} header), the root context when it has none or
 * tracing is off. {@code viewer} is who sent it (the transport verified the credential); anonymous when
 * none was given. {@code incremental}: the transport can deliver an answer in parts ({@code @defer}: multipart,
 * an event stream, a socket's messages); otherwise a deferred fragment is answered with the rest, in one piece.
 */
public record GraphQLRequest(String query, String operationName, Map<String, Object> variables, Context traceParent,
                             Viewer viewer, boolean incremental) {
    public GraphQLRequest {
        variables = variables == null ? Map.of() : variables;
        traceParent = traceParent == null ? Context.root() : traceParent;
        viewer = viewer == null ? Viewer.ANONYMOUS : viewer;
    }

    public GraphQLRequest(String query, String operationName, Map<String, Object> variables) {
        this(query, operationName, variables, Context.root(), Viewer.ANONYMOUS, false);
    }

    public GraphQLRequest(String query, String operationName, Map<String, Object> variables, Context traceParent,
                          Viewer viewer) {
        this(query, operationName, variables, traceParent, viewer, false);
    }

    /** The same request, in the trace {@code parent}. */
    public GraphQLRequest inTrace(Context parent) {
        return new GraphQLRequest(query, operationName, variables, parent, viewer, incremental);
    }

    /** The same request, sent by {@code who}. */
    public GraphQLRequest by(Viewer who) {
        return new GraphQLRequest(query, operationName, variables, traceParent, who, incremental);
    }

    /** The same request, from a transport that can deliver deferred parts. */
    public GraphQLRequest inParts() {
        return new GraphQLRequest(query, operationName, variables, traceParent, viewer, true);
    }
}
