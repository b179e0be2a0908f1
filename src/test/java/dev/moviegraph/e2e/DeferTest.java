package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.StreamedResponse;
import dev.moviegraph.support.TestServer;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * {@code @defer} over HTTP, against the shared server: multipart/mixed as Apollo's clients ask for it, the
 * parts merged give the answer the same query gets in one piece, a client that does not take parts gets
 * that one piece, the batches per level are the same with and without {@code @defer}, and the gateway's
 * rules (the plan, {@code @auth}, caching) hold for deferred fields.
 */
class DeferTest {
    static final String APOLLO_ACCEPT = "multipart/mixed;deferSpec=20220824,application/json";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    private String movieId() {
        return server.sample().movies().get(0).id().value();
    }

    static String movieQuery(String id, String defer) {
        return "{ movie(id: \"" + id + "\") { title ... " + defer + " { cast(first: 3) { totalCount"
                + " edges { node { characters person { name birthYear } } } } } } }";
    }

    private StreamedResponse multipart(String query) {
        return StreamedResponse.post(server.port(), GraphQLClient.body(query, Map.of()), APOLLO_ACCEPT, Map.of());
    }

    @Test
    void aDeferredFragmentIsAPartOfItsOwnAfterTheRestAndTheMergeIsTheWholeAnswer() {
        String id = movieId();
        JsonNode whole = client.query(movieQuery(id, "")).body();
        assertTrue(whole.path("errors").isMissingNode(), whole.toString());

        try (StreamedResponse response = multipart(movieQuery(id, "@defer(label: \"cast\")"))) {
            assertEquals(200, response.status());
            assertEquals("multipart/mixed; boundary=\"-\"; deferSpec=20220824", response.contentType());
            assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(""));
            assertEquals("no", response.headers().firstValue("X-Accel-Buffering").orElse(""));
            assertTrue(response.headers().firstValue("Vary").orElse("").contains("Accept"), response.headers().toString());
            assertTrue(response.headers().firstValue("ETag").isEmpty(), "a part is never validated nor kept");
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), "the closing boundary ends the response: " + response.raw());
            assertEquals(2, parts.size(), response.raw());

            JsonNode first = parts.get(0);
            assertTrue(first.path("hasNext").asBoolean(), first.toString());
            assertEquals(whole.path("data").path("movie").path("title"), first.path("data").path("movie").path("title"));
            assertTrue(first.path("data").path("movie").path("cast").isMissingNode(), "the cast is deferred: " + first);

            JsonNode last = parts.get(1);
            assertFalse(last.path("hasNext").asBoolean(true), last.toString());
            JsonNode item = last.path("incremental").get(0);
            assertEquals("cast", item.path("label").asText());
            assertEquals("[\"movie\"]", item.path("path").toString());
            // The receipt of the whole request rides on the last part.
            assertEquals(whole.path("extensions").path("cost").path("requests"),
                    last.path("extensions").path("cost").path("requests"), last.toString());

            assertEquals(whole.path("data"), merged(parts));
        }
    }

    @Test
    void aClientThatDoesNotTakePartsGetsTheWholeAnswerInOnePiece() {
        String deferred = movieQuery(movieId(), "@defer");
        JsonNode whole = client.query(movieQuery(movieId(), "")).body();

        Response post = client.post(GraphQLClient.body(deferred, Map.of()), "application/json", "application/json");
        assertEquals(200, post.status());
        assertTrue(post.contentType().startsWith("application/json"), post.contentType());
        assertEquals(whole.path("data"), post.data(), post.raw().body());
        assertTrue(post.body().path("hasNext").isMissingNode(), post.raw().body());

        // By GET it is an ordinary answer, validated and kept as any.
        Response get = client.get("/graphql", Map.of("query", deferred), "application/graphql-response+json");
        assertEquals(200, get.status());
        assertEquals(whole.path("data"), get.data(), get.raw().body());
        assertTrue(get.raw().headers().firstValue("ETag").isPresent());
    }

    @Test
    void anOperationThatDefersNothingIsOneJsonAnswerEvenWhenPartsAreAccepted() {
        try (StreamedResponse response = multipart(movieQuery(movieId(), ""))) {
            assertTrue(response.contentType().startsWith("application/json"), response.contentType());
            List<JsonNode> bodies = response.jsonUntilEnd(WAIT);
            assertEquals(1, bodies.size(), response.raw());
            assertTrue(bodies.get(0).path("hasNext").isMissingNode(), response.raw());
        }
    }

    @Test
    void aDeferredQueryByGetComesInPartsAndWithoutAnETag() {
        String query = URLEncoder.encode(movieQuery(movieId(), "@defer"), StandardCharsets.UTF_8);
        try (StreamedResponse response = StreamedResponse.get(server.port(), "/graphql?query=" + query, APOLLO_ACCEPT)) {
            assertTrue(response.contentType().startsWith("multipart/mixed"), response.contentType());
            assertTrue(response.headers().firstValue("ETag").isEmpty());
            assertEquals(2, response.jsonUntilEnd(WAIT).size(), response.raw());
            assertTrue(response.closedProperly(), response.raw());
        }
    }

    /**
     * The promise of the whole product holds under {@code @defer}: the deferred fragment of every list item
     * loads with the others of its level (graphql-java alone dispatches each instance on its own: ten
     * movies' casts would be ten rounds, their people ten BatchGetItems).
     */
    @Test
    void everyInstanceOfADeferredFragmentAtOneLevelLoadsInOneBatchAsWithoutDefer() {
        String person = personWithMovies(6);
        String shape = "{ person(id: \"" + person + "\") { name movies(first: 6) { edges { node { characters"
                + " ... %s { movie { title cast(first: 3) { edges { node { person { name birthYear } } } } } } } } } } }";

        server.counter().reset();
        JsonNode whole = client.query(shape.formatted("")).body();
        List<String> without = server.counter().operations();
        assertTrue(whole.path("errors").isMissingNode(), whole.toString());

        server.counter().reset();
        List<JsonNode> parts;
        try (StreamedResponse response = multipart(shape.formatted("@defer"))) {
            parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), response.raw());
        }
        List<String> with = server.counter().operations();

        assertEquals(1 + 6, parts.size(), "the first payload, then one part per movie");
        assertEquals(sorted(without), sorted(with), "the same DynamoDB requests, with and without @defer");
        assertEquals(whole.path("data"), merged(parts));
    }

    @Test
    void aPlanCoversTheDeferredFieldsAsIfTheyWereNot() {
        String id = movieId();
        Response plain = client.traced("plan", movieQuery(id, ""), Map.of());
        Response deferred = client.traced("plan", movieQuery(id, "@defer"), Map.of());

        JsonNode plan = deferred.body().path("extensions").path("plan");
        assertFalse(plan.isMissingNode(), deferred.raw().body());
        assertEquals(plain.body().path("extensions").path("plan").path("calls"), plan.path("calls"));
        assertEquals(plain.body().path("extensions").path("plan").path("readUnits"), plan.path("readUnits"));
        assertTrue(deferred.body().path("data").isMissingNode(), "a plan is never executed");
    }

    @Test
    void aDeferredFieldTheCallerMayNotReadRefusesTheWholeOperationBeforeAnyRead() {
        server.counter().reset();
        Response response = client.post(GraphQLClient.body("{ movie(id: \"" + movieId() + "\") { title }"
                + " ... @defer { viewer { id } } }", Map.of()), "application/json", APOLLO_ACCEPT);

        // Sign-in is off on this server, so no credential would help: FORBIDDEN (UNAUTHENTICATED, 401, with it on).
        assertEquals(403, response.status(), response.raw().body());
        assertEquals("FORBIDDEN", response.firstErrorCode());
        assertTrue(server.counter().operations().isEmpty(), "refused before any DynamoDB call");
    }

    @Test
    void anErrorInADeferredPartIsThatPartsOwnAndTheResponseStillEnds() {
        try (StreamedResponse response = multipart("{ movie(id: \"" + movieId() + "\") { title }"
                + " ... @defer(label: \"bad\") { bad: movie(id: \"xx12\") { title } } }")) {
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), response.raw());
            assertEquals(2, parts.size(), response.raw());
            assertTrue(parts.get(0).path("errors").isMissingNode(), "the first payload is whole: " + parts.get(0));
            JsonNode item = parts.get(1).path("incremental").get(0);
            assertTrue(item.path("data").path("bad").isNull(), item.toString());
            assertEquals("BAD_USER_INPUT", item.path("errors").get(0).path("extensions").path("code").asText(),
                    item.toString());
            assertEquals("[\"bad\"]", item.path("errors").get(0).path("path").toString());
        }
    }

    @Test
    void aPersistedDeferredQueryNamedByItsHashComesInParts() throws Exception {
        String query = movieQuery(movieId(), "@defer(label: \"persisted\")");
        String hash = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(query.getBytes(StandardCharsets.UTF_8)));
        Map<String, Object> extensions = Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", hash));
        String register = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
                Map.of("query", query, "extensions", extensions));
        try (StreamedResponse registered = StreamedResponse.post(server.port(), register, APOLLO_ACCEPT, Map.of())) {
            assertEquals(2, registered.jsonUntilEnd(WAIT).size(), registered.raw());
        }
        String byHash = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of("extensions", extensions));
        try (StreamedResponse response = StreamedResponse.post(server.port(), byHash, APOLLO_ACCEPT, Map.of())) {
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertEquals(2, parts.size(), response.raw());
            assertEquals("persisted", parts.get(1).path("incremental").get(0).path("label").asText(), response.raw());
        }
    }

    /**
     * A non-null field that fails in a deferred part reports its own error, as without {@code @defer}
     * (graphql-java alone reports only that a non-null field was null: an INTERNAL error here).
     */
    @Test
    void aNonNullFieldFailingInADeferredPartReportsItsOwnErrorAsWithoutDefer() {
        String shape = "{ movie(id: \"" + movieId() + "\") { title ... %s { cast(first: 0) { totalCount } } } }";
        JsonNode whole = client.query(shape.formatted("")).body();
        JsonNode expected = whole.path("errors").get(0);
        assertEquals("BAD_USER_INPUT", expected.path("extensions").path("code").asText(), whole.toString());

        try (StreamedResponse response = multipart(shape.formatted("@defer"))) {
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), response.raw());
            JsonNode errors = parts.get(parts.size() - 1).path("incremental").get(0).path("errors");
            assertEquals(1, errors.size(), response.raw());
            assertEquals(expected.path("message"), errors.get(0).path("message"), response.raw());
            assertEquals(expected.path("path"), errors.get(0).path("path"), response.raw());
            assertEquals("BAD_USER_INPUT", errors.get(0).path("extensions").path("code").asText(), response.raw());
        }
    }

    /** The data of a multipart answer with each incremental item merged in at its path. */
    static JsonNode merged(List<JsonNode> parts) {
        ObjectNode data = parts.get(0).path("data").deepCopy();
        for (JsonNode part : parts.subList(1, parts.size())) {
            for (JsonNode item : part.path("incremental")) {
                JsonNode at = data;
                for (JsonNode step : item.path("path")) {
                    at = step.isInt() ? at.get(step.asInt()) : at.get(step.asText());
                }
                ((ObjectNode) at).setAll((ObjectNode) item.path("data"));
            }
        }
        return data;
    }

    private static List<String> sorted(List<String> operations) {
        List<String> sorted = new ArrayList<>(operations);
        sorted.sort(Comparator.naturalOrder());
        return sorted;
    }

    /** A person of the sample with at least {@code count} roles in its cast lists. */
    private String personWithMovies(int count) {
        Map<String, Long> roles = server.sample().cast().stream()
                .collect(Collectors.groupingBy(credit -> credit.personId().value(), Collectors.counting()));
        return roles.entrySet().stream().filter(entry -> entry.getValue() >= count)
                .map(Map.Entry::getKey).sorted().findFirst()
                .orElseThrow(() -> new AssertionError("no person of the sample plays " + count + " roles"));
    }
}
