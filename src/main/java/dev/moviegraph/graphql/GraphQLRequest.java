package dev.moviegraph.graphql;

import java.util.Map;

/** One GraphQL request as the transport received it; variables may be empty, never null. */
public record GraphQLRequest(String query, String operationName, Map<String, Object> variables) {
    public GraphQLRequest {
        variables = variables == null ? Map.of() : variables;
    }
}
