package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.NodeScripts;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.ZipkinServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * moviegraph as an Apollo Federation 2 subgraph behind a real router from npm: the SDL it publishes
 * ({@code _service { sdl }}) composes with a second subgraph (src/test/js/reviews-subgraph.mjs, which
 * extends Movie with reviews and needs Movie.title for Movie.shout through {@code @requires}) under
 * {@code @apollo/composition}, and Apollo Gateway inside Apollo Server answers operations that cross the two
 * (src/test/js/federation.mjs, which records every request the gateway sends a subgraph). It proves:
 * moviegraph answers root fields and {@code _entities} with the same data it gives a direct client; the
 * router's one {@code _entities} request for several movies costs one DynamoDB batch per level (never a
 * read per representation); the title the router passes to reviews is moviegraph's; the gateway's
 * Cache-Control honours moviegraph's 300 s hint; moviegraph answers the router's automatic persisted
 * queries (the hash alone the second time); and the headers a gateway forwards do their work in
 * moviegraph: the client's token signs the viewer in, and the client's traceparent is the parent of
 * moviegraph's operation spans. Hive Gateway's runtime, on the same supergraph, gives the same answers. A
 * third subgraph (bookmarks-subgraph.mjs) adds a field to every node through the Node entity interface
 * ({@code @interfaceObject}): the router resolves its bare node ids to movies and people through moviegraph.
 */
class FederationRouterTest {
    private static final String ISSUER = "moviegraph-federation";
    private static final String AUDIENCE = "moviegraph-api";
    private static final String SERVICE = "moviegraph-federation-test";
    private static final int MOVIE_MAX_AGE = 300;
    private static final Set<String> READS = Set.of("GetItem", "BatchGetItem", "Query", "Scan");
    private static final Pattern MAX_AGE = Pattern.compile("(?:^|[,\\s])max-age=(\\d+)");

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    /** Three movies with two or more cast members each (reviews are spread over them, two each). */
    private List<Movie> movies;
    private List<String> ids;

    @BeforeEach
    void pickMovies() {
        Map<String, Long> castSizes = server.sample().cast().stream().collect(Collectors.groupingBy(
                credit -> credit.movieId().value(), TreeMap::new, Collectors.counting()));
        movies = server.sample().movies().stream()
                .filter(movie -> castSizes.getOrDefault(movie.id().value(), 0L) >= 2)
                .sorted((x, y) -> x.id().value().compareTo(y.id().value()))
                .limit(3).toList();
        assertEquals(3, movies.size(), "the sample has three movies with a cast");
        ids = movies.stream().map(movie -> movie.id().value()).toList();
    }

    @Test
    void theRouterComposesMoviegraphWithReviewsAndAnswersAcrossThemWithMoviegraphsData() {
        String traceparent = traceparent(hex(16), hex(8));
        NodeScripts.Result result = NodeScripts.run("federation.mjs", endpoint(server.port()), String.join(",", ids),
                "--first=6", "--traceparent=" + traceparent, "--hive");

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode json = result.json();
        assertComposed(json);
        Map<String, List<Integer>> scores = new LinkedHashMap<>();
        json.path("reviews").forEach(review -> scores.computeIfAbsent(review.path("movieId").asText(),
                id -> new ArrayList<>()).add(review.path("score").asInt()));
        assertEquals(Set.copyOf(ids), scores.keySet(), json.path("reviews").toString());

        // (a) moviegraph's root field first, then the reviews of the movie it found
        JsonNode a = json.path("operations").path("a");
        String context = a.toString();
        assertNoErrors(a);
        Movie first = movies.get(0);
        JsonNode movie = a.path("data").path("movie");
        assertEquals(first.title(), movie.path("title").asText(), context);
        assertEquals(first.year().intValue(), movie.path("year").asInt(), context);
        assertEquals(scores.get(first.id().value()), ints(movie.path("reviews"), "score"), context);
        List<JsonNode> toMoviegraph = requestsTo(a, "moviegraph");
        assertEquals(1, toMoviegraph.size(), context);
        assertTrue(toMoviegraph.get(0).path("query").asText().contains("movie(id:"), context);
        assertEquals(2, a.path("subgraphRequests").size(), "moviegraph, then reviews: " + context);

        // (b) reviews first, then every review's movie from moviegraph's _entities in one request
        JsonNode b = json.path("operations").path("b");
        String contextB = b.toString();
        assertNoErrors(b);
        JsonNode latest = b.path("data").path("latestReviews");
        assertEquals(6, latest.size(), contextB);
        List<String> expectedOrder = new ArrayList<>();
        json.path("reviews").forEach(review -> expectedOrder.add(review.path("movieId").asText()));
        for (int i = 0; i < latest.size(); i++) {
            JsonNode routed = latest.get(i).path("movie");
            String id = routed.path("id").asText();
            assertEquals(expectedOrder.get(i), id, contextB);
            JsonNode direct = client.query("query($id: ID!) { movie(id: $id) { id title year cast(first: 2)"
                    + " { edges { node { person { name } } } } } }", Map.of("id", id)).data().path("movie");
            assertEquals(direct, routed, "the router's movie is moviegraph's own answer: " + contextB);
            assertEquals(2, routed.path("cast").path("edges").size(), contextB);
        }
        toMoviegraph = requestsTo(b, "moviegraph");
        assertEquals(1, toMoviegraph.size(), "one _entities request for every review's movie: " + contextB);
        JsonNode entities = toMoviegraph.get(0);
        assertTrue(entities.path("query").asText().contains("_entities(representations:"), contextB);
        JsonNode representations = entities.path("representations");
        assertTrue(representations.size() >= ids.size(), contextB);
        Set<String> represented = new TreeSet<>();
        representations.forEach(representation -> {
            assertEquals("Movie", representation.path("__typename").asText(), contextB);
            represented.add(representation.path("id").asText());
        });
        assertEquals(new TreeSet<>(ids), represented, contextB);

        // (c) @requires: reviews' shout is the title moviegraph gave the router, upper-cased
        JsonNode c = json.path("operations").path("c");
        String contextC = c.toString();
        assertNoErrors(c);
        assertEquals(6, c.path("data").path("latestReviews").size(), contextC);
        for (JsonNode review : c.path("data").path("latestReviews")) {
            String id = review.path("movie").path("id").asText();
            assertEquals(title(id).toUpperCase(java.util.Locale.ROOT), review.path("movie").path("shout").asText(),
                    contextC);
        }
        List<String> order = new ArrayList<>();
        c.path("subgraphRequests").forEach(request -> order.add(request.path("subgraph").asText()));
        assertEquals(List.of("reviews", "moviegraph", "reviews"), order, contextC);
        JsonNode titles = c.path("subgraphRequests").get(2).path("representations");
        titles.forEach(representation -> assertEquals(title(representation.path("id").asText()),
                representation.path("title").asText(), "the representation carries moviegraph's title: " + contextC));

        // Cache-Control: moviegraph's answers carry its hint, and the gateway's answer is bounded by it
        // (reviews hints 600 s), so the gateway's max-age is the smallest of moviegraph's
        for (JsonNode operation : List.of(a, b, c)) {
            String what = operation.path("query").asText() + ": " + operation.path("cacheControl").asText()
                    + " from " + operation.path("subgraphRequests");
            int smallest = Integer.MAX_VALUE;
            for (JsonNode request : operation.path("subgraphRequests")) {
                String header = request.path("cacheControl").asText(null);
                assertNotNull(header, "every subgraph answer has Cache-Control: " + what);
                if (request.path("subgraph").asText().equals("moviegraph")) {
                    assertEquals(MOVIE_MAX_AGE, maxAge(header), "moviegraph hints its movies' 300 s: " + what);
                }
                smallest = Math.min(smallest, maxAge(header));
            }
            assertEquals(smallest, maxAge(operation.path("cacheControl").asText()), what);
            assertTrue(operation.path("cacheControl").asText().contains("public"), what);
        }

        // (e) Hive Gateway on the same supergraph: the same answers, the same one _entities request of moviegraph
        // (its answers carry no Cache-Control: Hive Gateway does not merge its subgraphs' hints unless its
        // response cache plugin is set up, which is its users' choice, not moviegraph's)
        JsonNode hive = json.path("operations").path("e");
        for (String name : List.of("a", "b", "c")) {
            JsonNode operation = hive.path(name);
            assertNoErrors(operation);
            assertEquals(json.path("operations").path(name).path("data"), operation.path("data"),
                    "Hive Gateway's " + name + " as Apollo Gateway's: " + operation);
        }
        List<JsonNode> hiveEntities = requestsTo(hive.path("b"), "moviegraph");
        assertEquals(1, hiveEntities.size(), hive.path("b").toString());
        assertTrue(hiveEntities.get(0).path("query").asText().contains("_entities(representations:"), hiveEntities.toString());
        Set<String> hiveRepresented = new TreeSet<>();
        hiveEntities.get(0).path("representations").forEach(representation ->
                hiveRepresented.add(representation.path("id").asText()));
        assertEquals(new TreeSet<>(ids), hiveRepresented, hiveEntities.toString());

        // the client's traceparent reached moviegraph with every request, through either router
        for (JsonNode operation : List.of(a, b, c, hive.path("a"), hive.path("b"), hive.path("c"))) {
            List<JsonNode> sent = requestsTo(operation, "moviegraph");
            assertFalse(sent.isEmpty(), operation.toString());
            for (JsonNode request : sent) {
                assertEquals(traceparent, request.path("headers").path("traceparent").asText(), request.toString());
            }
        }
    }

    @Test
    void aSubgraphThatAddsAFieldToEveryNodeGetsMoviesAndPeopleResolvedByIdAloneThroughTheNodeInterface() {
        // bookmarks-subgraph.mjs knows only Node ids (@interfaceObject): the router asks moviegraph which type each is
        String personId = server.sample().people().get(0).id().value();
        List<String> bookmarked = List.of(ids.get(1), personId, ids.get(0));
        server.counter().reset();
        NodeScripts.Result result = NodeScripts.run("federation.mjs", endpoint(server.port()), String.join(",", ids),
                "--only=none", "--bookmarks=" + String.join(",", bookmarked));
        List<String> operations = reads();

        assertEquals(0, result.exitCode(), result.toString());
        assertComposed(result.json());
        JsonNode f = result.json().path("operations").path("f");
        assertNoErrors(f);
        JsonNode nodes = client.query("query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Movie { title }"
                + " ... on Person { name } } }", Map.of("ids", bookmarked)).data().path("nodes");
        JsonNode routed = f.path("data").path("bookmarks");
        assertEquals(3, routed.size(), f.toString());
        for (int i = 0; i < 3; i++) {
            JsonNode node = routed.get(i);
            assertTrue(node.path("bookmarked").asBoolean(), f.toString());
            for (String field : List.of("__typename", "id", "title", "name")) {
                assertEquals(nodes.get(i).path(field), node.path(field), "as nodes(ids:) answers: " + f);
            }
        }
        List<JsonNode> toMoviegraph = requestsTo(f, "moviegraph");
        assertEquals(1, toMoviegraph.size(), f.toString());
        toMoviegraph.get(0).path("representations").forEach(representation ->
                assertEquals("Node", representation.path("__typename").asText(), "by the interface alone: " + f));
        // moviegraph's movie, then its bookmarked from the other subgraph, keyed by the same id
        JsonNode g = result.json().path("operations").path("g");
        assertNoErrors(g);
        assertEquals(title(ids.get(0)), g.path("data").path("movie").path("title").asText(), g.toString());
        assertTrue(g.path("data").path("movie").path("bookmarked").asBoolean(), g.toString());
        // f: the three nodes' items in one batch; g: the movie by key
        assertEquals(List.of("BatchGetItem", "GetItem"), operations.stream().sorted().toList(), result.stdout());
    }

    @Test
    void entitiesForSeveralMoviesCostOneDynamoDbBatchPerLevelAsTheSameFieldsAskedDirectly() {
        // (c) alone: the router asks moviegraph the titles of six reviews' movies (three movies) in one request
        server.counter().reset();
        NodeScripts.Result titles = NodeScripts.run("federation.mjs", endpoint(server.port()), String.join(",", ids),
                "--first=6", "--only=c");
        List<String> titlesOperations = reads();
        assertEquals(0, titles.exitCode(), titles.toString());
        assertNoErrors(titles.json().path("operations").path("c"));
        assertEquals(1, requestsTo(titles.json().path("operations").path("c"), "moviegraph").size(), titles.stdout());
        assertEquals(List.of("BatchGetItem"), titlesOperations,
                "the movies' items in one batch, never a read per representation: " + titles.stdout());

        // (b) alone: titles, years and two of each cast, as movies(ids:) reads the same fields directly
        server.counter().reset();
        NodeScripts.Result casts = NodeScripts.run("federation.mjs", endpoint(server.port()), String.join(",", ids),
                "--first=6", "--only=b");
        List<String> castsOperations = reads();
        assertEquals(0, casts.exitCode(), casts.toString());
        assertNoErrors(casts.json().path("operations").path("b"));
        TestServer.Counted direct = server.counted("{ movies(ids: [" + ids.stream().map(id -> "\"" + id + "\"")
                .collect(Collectors.joining(", ")) + "]) { id title year cast(first: 2) { edges { node { person"
                + " { name } } } } } }");
        List<String> directReads = direct.operations().stream().filter(READS::contains).toList();
        assertEquals(directReads, castsOperations, "the router's _entities read as movies(ids:) does: "
                + casts.stdout());
        assertTrue(castsOperations.size() <= 1 + ids.size(), "per level, not per representation (six): "
                + castsOperations);
    }

    @Test
    void theRoutersPersistedQueriesSendMoviegraphTheHashAloneTheSecondTime() {
        NodeScripts.Result result = NodeScripts.run("federation.mjs", endpoint(server.port()), String.join(",", ids),
                "--only=a", "--apq");

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode operations = result.json().path("operations");
        // the first time: the hash alone, PersistedQueryNotFound, then the hash with the query
        JsonNode first = operations.path("a");
        String context = first.toString();
        assertNoErrors(first);
        assertEquals(movies.get(0).title(), first.path("data").path("movie").path("title").asText(), context);
        List<JsonNode> sent = requestsTo(first, "moviegraph");
        assertEquals(2, sent.size(), context);
        String hash = sent.get(0).path("sha256Hash").asText();
        assertEquals(64, hash.length(), context);
        assertTrue(sent.get(0).path("query").isNull(), context);
        assertEquals("PERSISTED_QUERY_NOT_FOUND", sent.get(0).path("errors").path(0).path("extensions").path("code")
                .asText(), context);
        assertEquals(hash, sent.get(1).path("sha256Hash").asText(), context);
        assertFalse(sent.get(1).path("query").isNull(), context);
        // the second time: the hash alone, and the data
        JsonNode again = operations.path("aAgain");
        context = again.toString();
        assertNoErrors(again);
        assertEquals(first.path("data"), again.path("data"), context);
        sent = requestsTo(again, "moviegraph");
        assertEquals(1, sent.size(), context);
        assertEquals(hash, sent.get(0).path("sha256Hash").asText(), context);
        assertTrue(sent.get(0).path("query").isNull(), context);
        assertEquals(movies.get(0).title(), sent.get(0).path("data").path("movie").path("title").asText(), context);
    }

    @Test
    void theHeadersTheRouterForwardsSignTheViewerInAndParentMoviegraphsSpans() {
        // A server of its own that signs viewers in and sends traces to Zipkin (the shared one does neither).
        MockOAuth2Server provider = new MockOAuth2Server();
        provider.start();
        Moviegraph traced = null;
        try {
            traced = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                    "OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(), "OIDC_AUDIENCE", AUDIENCE,
                    "OTEL_TRACES_EXPORTER", "zipkin", "OTEL_EXPORTER_ZIPKIN_ENDPOINT", ZipkinServer.get().spansEndpoint(),
                    "OTEL_SERVICE_NAME", SERVICE, "OTEL_BSP_SCHEDULE_DELAY", "100")), List.of());
            String token = provider.issueToken(ISSUER, "movies-web", new DefaultOAuth2TokenCallback(ISSUER,
                    "federated-viewer", "JWT", List.of(AUDIENCE), Map.of(), 600)).serialize();
            awaitProvider(traced.port(), token);
            String traceId = hex(16);
            String callerSpan = hex(8);

            NodeScripts.Result result = NodeScripts.run(Map.of("MOVIEGRAPH_TOKEN", token), "federation.mjs",
                    endpoint(traced.port()), String.join(",", ids), "--only=a,d", "--viewer",
                    "--traceparent=" + traceparent(traceId, callerSpan));

            assertEquals(0, result.exitCode(), result.toString());
            JsonNode operations = result.json().path("operations");
            JsonNode signedIn = operations.path("d").path("withToken");
            String context = signedIn.toString();
            assertNoErrors(signedIn);
            assertEquals("viewer:federated-viewer", signedIn.path("data").path("viewer").path("id").asText(), context);
            assertEquals("Bearer " + token, requestsTo(signedIn, "moviegraph").get(0).path("headers")
                    .path("authorization").asText(), context);
            // without the token moviegraph refuses the operation (401), and the gateway says so
            JsonNode anonymous = operations.path("d").path("withoutToken");
            context = anonymous.toString();
            assertTrue(anonymous.path("data").path("viewer").isNull(), context);
            assertEquals(401, requestsTo(anonymous, "moviegraph").get(0).path("status").asInt(), context);
            assertFalse(requestsTo(anonymous, "moviegraph").get(0).path("headers").has("authorization"), context);
            assertEquals("UNAUTHENTICATED", anonymous.path("errors").path(0).path("extensions").path("code").asText(),
                    context);

            // every operation moviegraph ran for the router is a span under the client's own span
            List<String> names = new ArrayList<>();
            for (JsonNode operation : List.of(operations.path("a"), signedIn)) {
                requestsTo(operation, "moviegraph").forEach(request -> names.add(
                        ("query " + request.path("operationName").asText()).toLowerCase(java.util.Locale.ROOT)));
            }
            List<JsonNode> spans = ZipkinServer.get().trace(traceId, found -> names.stream().allMatch(name ->
                    found.stream().anyMatch(span -> span.path("name").asText().equals(name))));
            for (String name : names) {
                JsonNode span = spans.stream().filter(found -> found.path("name").asText().equals(name)).findFirst()
                        .orElseThrow(() -> new AssertionError("no span " + name + " in trace " + traceId + ": " + spans));
                assertEquals(callerSpan, span.path("parentId").asText(), span.toString());
                assertEquals(SERVICE, span.path("localEndpoint").path("serviceName").asText(), span.toString());
            }
            String operationA = names.get(0);
            String movieSpan = spans.stream().filter(span -> span.path("name").asText().equals(operationA))
                    .findFirst().orElseThrow().path("id").asText();
            assertTrue(spans.stream().anyMatch(span -> span.path("name").asText().startsWith("dynamodb.")
                    && span.path("parentId").asText().equals(movieSpan)), "the movie's read under it: " + spans);
        } finally {
            if (traced != null) {
                traced.close();
            }
            provider.shutdown();
        }
    }

    /**
     * The reads sent since the counter's reset. A write finishing after an earlier test (a persisted document
     * being stored) may land in the count: these fetches write nothing, so only what they read is counted.
     */
    private List<String> reads() {
        return server.counter().operations().stream().filter(READS::contains).toList();
    }

    private static void assertComposed(JsonNode json) {
        JsonNode composition = json.path("composition");
        assertTrue(composition.path("ok").asBoolean(), composition.toString());
        assertEquals(0, composition.path("errors").size(), composition.toString());
    }

    private static void assertNoErrors(JsonNode operation) {
        assertEquals(200, operation.path("status").asInt(), operation.toString());
        assertTrue(operation.path("errors").isNull(), operation.toString());
        assertFalse(operation.path("data").isNull() || operation.path("data").isMissingNode(), operation.toString());
    }

    private static List<JsonNode> requestsTo(JsonNode operation, String subgraph) {
        List<JsonNode> requests = new ArrayList<>();
        operation.path("subgraphRequests").forEach(request -> {
            if (request.path("subgraph").asText().equals(subgraph)) {
                requests.add(request);
            }
        });
        return requests;
    }

    private static List<Integer> ints(JsonNode list, String field) {
        List<Integer> values = new ArrayList<>();
        list.forEach(item -> values.add(item.path(field).asInt()));
        return values;
    }

    /** The max-age of a Cache-Control header; 0 when it has none (no-store, no-cache, private). */
    private static int maxAge(String header) {
        Matcher matcher = MAX_AGE.matcher(header);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
    }

    private String title(String movieId) {
        return server.sample().movies().stream().filter(movie -> movie.id().value().equals(movieId)).findFirst()
                .orElseThrow().title();
    }

    private static String endpoint(int port) {
        return "http://127.0.0.1:" + port + "/graphql";
    }

    private static String traceparent(String traceId, String spanId) {
        return "00-" + traceId + "-" + spanId + "-01";
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros, which W3C trace context forbids
        return HexFormat.of().formatHex(random);
    }

    private static void awaitProvider(int port, String token) {
        GraphQLClient signedIn = new GraphQLClient(port);
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (signedIn.post(GraphQLClient.body("{ viewer { id } }", Map.of()), "application/json", "application/json",
                Map.of("Authorization", "Bearer " + token)).status() == 503 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
