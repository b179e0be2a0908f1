package dev.moviegraph.bench;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The HTTP side of the benchmark commands: one HTTP/1.1 client (it keeps a connection per concurrent
 * caller) that posts GraphQL requests to a server on loopback. Safe to share between threads.
 */
final class GraphQLHttp {
    /** A request not answered by then is a timeout: an error in every benchmark. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    ObjectMapper json() {
        return json;
    }

    /** POST /graphql; {@code trace} asks for {@code extensions.trace} (Moviegraph-Trace: on) besides the cost. */
    HttpResponse<String> post(URI base, String query, Map<String, Object> variables, boolean trace)
            throws IOException, InterruptedException {
        String body = json.writeValueAsString(Map.of("query", query, "variables", variables));
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/graphql"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
        if (trace) {
            request.header("Moviegraph-Trace", "on");
        }
        return http.send(request.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    String get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Twenty ids that exist, asked of the server rather than hard-coded so a new sample cannot break them. */
    List<String> twentyMovieIds(URI base) throws IOException, InterruptedException {
        HttpResponse<String> response = post(base, "{ topMovies(month: \"2024-05\", limit: 20) { movie { id } } }",
                Map.of(), false);
        List<String> ids = new ArrayList<>();
        json.readTree(response.body()).path("data").path("topMovies")
                .forEach(entry -> ids.add(entry.path("movie").path("id").asText()));
        if (response.statusCode() != 200 || ids.size() != 20) {
            throw new IllegalStateException("could not read 20 movie ids: " + response.body());
        }
        return ids;
    }
}
