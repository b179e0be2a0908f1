package dev.moviegraph.support;

import dev.moviegraph.support.GraphQLClient.Response;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The requests of persisted queries as clients send them: by hash (APQ extension or documentId), or registering. */
public final class PersistedRequests {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCEPT = "application/graphql-response+json, application/json";

    private PersistedRequests() {
    }

    /** Lower-case hex SHA-256 of the UTF-8 text, as Apollo's links compute it. */
    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A document no server has seen: {@code query} with a comment that makes its text (and hash) new. */
    public static String fresh(String query) {
        return query + " # " + UUID.randomUUID();
    }

    /** The APQ extension for {@code hash}. */
    public static String extension(String hash) {
        return "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"" + hash + "\"}}";
    }

    /** POST of the query with its hash: what Apollo's link sends after a miss, which registers it. */
    public static Response register(GraphQLClient client, String query, Map<String, Object> variables) {
        return register(client, query, sha256(query), variables);
    }

    /** POST of a query with the hash given (which may not be the query's). */
    public static Response register(GraphQLClient client, String query, String hash, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode().put("query", query);
        body.set("extensions", read(extension(hash)));
        body.set("variables", JSON.valueToTree(variables));
        return client.post(body.toString(), "application/json", ACCEPT);
    }

    /** POST of the hash alone, with variables. */
    public static Response postHash(GraphQLClient client, String hash, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode();
        body.set("extensions", read(extension(hash)));
        body.set("variables", JSON.valueToTree(variables));
        return client.post(body.toString(), "application/json", ACCEPT);
    }

    /** GET of the hash alone (what a CDN can cache), with variables. */
    public static Response getHash(GraphQLClient client, String hash, Map<String, Object> variables) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("extensions", extension(hash));
        parameters.put("variables", write(variables));
        return client.get("/graphql", parameters, ACCEPT);
    }

    /** POST naming the document by {@code documentId} (GraphQL-over-HTTP's persisted documents). */
    public static Response postDocumentId(GraphQLClient client, String documentId, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode().put("documentId", documentId);
        body.set("variables", JSON.valueToTree(variables));
        return client.post(body.toString(), "application/json", ACCEPT);
    }

    /** GET naming the document by {@code documentId}. */
    public static Response getDocumentId(GraphQLClient client, String documentId, Map<String, Object> variables) {
        return client.get("/graphql", Map.of("documentId", documentId, "variables", write(variables)), ACCEPT);
    }

    private static com.fasterxml.jackson.databind.JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
