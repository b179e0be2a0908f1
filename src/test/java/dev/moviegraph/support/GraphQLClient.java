package dev.moviegraph.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A plain HTTP client for the server under test: what a web client would send, nothing more. */
public final class GraphQLClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI base;

    public GraphQLClient(int port) {
        this("127.0.0.1", port);
    }

    /** A server elsewhere than on loopback, e.g. a container's mapped port. */
    public GraphQLClient(String host, int port) {
        this.base = URI.create("http://" + host + ":" + port);
    }

    public record Response(int status, String contentType, HttpResponse<String> raw, JsonNode body) {
        public JsonNode data() {
            return body.path("data");
        }

        public JsonNode errors() {
            return body.path("errors");
        }

        public String firstErrorCode() {
            return errors().path(0).path("extensions").path("code").asText();
        }
    }

    /** POSTs a query with variables as JSON and returns the parsed response. */
    public Response query(String query, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode().put("query", query);
        body.set("variables", JSON.valueToTree(variables));
        return post(body.toString(), "application/json", "application/graphql-response+json, application/json");
    }

    public Response query(String query) {
        return query(query, Map.of());
    }

    /** A JSON request body with this query and these variables. */
    public static String body(String query, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode().put("query", query);
        body.set("variables", JSON.valueToTree(variables));
        return body.toString();
    }

    /** POSTs a query with the Moviegraph-Trace header set to {@code trace} (on, plan, ...). */
    public Response traced(String trace, String query, Map<String, Object> variables) {
        ObjectNode body = JSON.createObjectNode().put("query", query);
        body.set("variables", JSON.valueToTree(variables));
        return post(body.toString(), "application/json", "application/graphql-response+json, application/json",
                Map.of("Moviegraph-Trace", trace));
    }

    public Response post(String body, String contentType, String accept) {
        return post(body, contentType, accept, Map.of());
    }

    public Response post(String body, String contentType, String accept, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/graphql"))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        return send(request.build());
    }

    public Response get(String path, Map<String, String> parameters, String accept) {
        return get(path, parameters, accept, Map.of());
    }

    /** A GET with these request headers too (If-None-Match, Authorization, ...). */
    public Response get(String path, Map<String, String> parameters, String accept, Map<String, String> headers) {
        return send(getRequest(path, parameters, accept, headers));
    }

    /** The GET request {@link #get} sends, for tests that read the raw bytes (a gzipped body). */
    public HttpRequest getRequest(String path, Map<String, String> parameters, String accept,
                                  Map<String, String> headers) {
        StringBuilder uri = new StringBuilder(path);
        String separator = "?";
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            uri.append(separator).append(parameter.getKey()).append('=')
                    .append(URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
            separator = "&";
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(uri.toString())).GET();
        headers.forEach(request::header);
        if (accept != null) {
            request.header("Accept", accept);
        }
        return request.build();
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String contentType = response.headers().firstValue("Content-Type").orElse("");
            JsonNode body = contentType.contains("json") ? JSON.readTree(response.body()) : JSON.nullNode();
            return new Response(response.statusCode(), contentType, response, body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
