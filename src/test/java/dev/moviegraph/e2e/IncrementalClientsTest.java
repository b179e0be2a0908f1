package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.NodeScripts;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The clients web teams use, reading @defer from the shared server (issue 44): Apollo Client 3 and 4 and
 * urql over multipart/mixed, Relay through a network layer of its own, graphql-sse's client over
 * Server-Sent Events (with a subscription), and graphql-ws's over the WebSocket. Each case runs one script
 * of {@code src/test/js} ({@link NodeScripts}) and checks what the client showed: the movie's title first
 * and no cast, then the cast, the same as the whole answer without @defer; and for a deferred part that
 * fails, the first part's data kept with the error where the client's users look for it.
 */
class IncrementalClientsTest {
    private static final String ISSUER = "moviegraph-sse";
    private static final String AUDIENCE = "moviegraph-api";
    private static final Pattern SUBSCRIPTIONS = Pattern.compile("^graphql_subscriptions ([0-9.E+]+)$", Pattern.MULTILINE);

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    /** A movie with three or more cast members, the cast's first three as the whole answer has them. */
    private String movieId;
    private List<String> cast;
    /** The movie of the failing operation's first part, and an id that is no movie id for its deferred one. */
    private Movie other;
    private String notAMovieId;

    @BeforeEach
    void pickMovies() {
        Map<String, List<Credit>> casts = server.sample().cast().stream().collect(Collectors.groupingBy(
                credit -> credit.movieId().value(), TreeMap::new, Collectors.toList()));
        movieId = casts.entrySet().stream().filter(entry -> entry.getValue().size() >= 3).findFirst().orElseThrow()
                .getKey();
        JsonNode whole = client.query("query($id: ID!) { movie(id: $id) { cast(first: 3) { edges { node"
                + " { person { name } } } } } }", Map.of("id", movieId)).data();
        cast = new ArrayList<>();
        whole.path("movie").path("cast").path("edges").forEach(edge -> cast.add(edge.path("node").path("person")
                .path("name").asText()));
        assertEquals(3, cast.size(), whole.toString());
        other = server.sample().movies().stream().filter(movie -> !movie.id().value().equals(movieId)).findFirst()
                .orElseThrow();
        notAMovieId = server.sample().people().get(0).id().value();
    }

    @Test
    void apolloClient3And4RenderTheTitleFirstThenTheMergedCastAndKeepTheFirstPartWhenALaterOneFails() {
        NodeScripts.Result result = NodeScripts.run("defer-apollo.mjs", endpoint(), movieId, other.id().value(),
                notAMovieId);

        assertEquals(0, result.exitCode(), result.toString());
        for (String version : List.of("apollo3", "apollo4")) {
            JsonNode deferred = result.json().path(version).path("deferred");
            String context = version + ": " + deferred;
            assertMultipart(deferred.path("exchanges"), context);
            assertTrue(deferred.path("exchanges").get(0).path("accept").asText().contains("deferSpec=20220824"), context);
            // HttpLink read the parts one by one: the first with data, the last saying there is no more
            JsonNode chunks = deferred.path("chunks");
            assertTrue(chunks.size() >= 2, context);
            assertTrue(chunks.get(0).path("hasNext").asBoolean(), context);
            assertTrue(texts(chunks.get(0).path("keys")).contains("data"), context);
            assertFalse(chunks.get(chunks.size() - 1).path("hasNext").asBoolean(true), context);
            assertEquals(List.of("cast"), labels(chunks), context);

            List<JsonNode> shown = withTitle(deferred.path("emissions"));
            assertTrue(shown.size() >= 2, "the title alone, then with the cast: " + context);
            JsonNode first = shown.get(0);
            JsonNode last = shown.get(shown.size() - 1);
            assertTrue(first.path("cast").isNull(), context);
            assertEquals(cast, texts(last.path("cast")), context);
            assertEquals(List.of(), texts(last.path("errors")), context);
            shown.forEach(emission -> assertEquals(title(movieId), emission.path("title").asText(), context));
            if (version.equals("apollo4")) {
                // Apollo 4 says what it renders: partial data still streaming, then complete
                assertEquals("streaming", first.path("dataState").asText(), context);
                assertTrue(first.path("loading").asBoolean(), context);
                assertEquals("complete", last.path("dataState").asText(), context);
                assertFalse(last.path("loading").asBoolean(), context);
            }

            JsonNode failing = result.json().path(version).path("failing");
            String failed = version + " failing: " + failing;
            assertMultipart(failing.path("exchanges"), failed);
            shown = withTitle(failing.path("emissions"));
            first = shown.get(0);
            last = shown.get(shown.size() - 1);
            assertEquals(List.of(), texts(first.path("errors")), failed);
            assertFalse(first.path("hasOther").asBoolean(), failed);
            // errorPolicy 'all': the first part's movie stays, the failed field is null, the error beside it
            assertEquals(other.title(), last.path("title").asText(), failed);
            assertTrue(last.path("hasOther").asBoolean(), failed);
            assertTrue(last.path("other").isNull(), failed);
            assertBadMovieId(last.path("errors"), failed);
            if (version.equals("apollo4")) {
                assertEquals("CombinedGraphQLErrors", last.path("error").path("name").asText(), failed);
            }
        }
    }

    @Test
    void urqlShowsTheTitleThenTheMergedCastAndAFailedLaterPartAsACombinedError() {
        NodeScripts.Result result = NodeScripts.run("defer-urql.mjs", endpoint(), movieId, other.id().value(), notAMovieId);

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode deferred = result.json().path("deferred");
        String context = deferred.toString();
        // urql accepts both incremental formats (multipart/mixed and text/event-stream) and reads either
        JsonNode exchange = deferred.path("exchanges").get(0);
        assertTrue(exchange.path("contentType").asText().matches("(?i)(multipart/mixed|text/event-stream).*"), context);
        JsonNode results = deferred.path("results");
        assertTrue(results.size() >= 2, context);
        JsonNode first = results.get(0);
        JsonNode last = results.get(results.size() - 1);
        assertEquals(title(movieId), first.path("title").asText(), context);
        assertTrue(first.path("cast").isNull(), context);
        assertTrue(first.path("hasNext").asBoolean(), context);
        assertEquals(title(movieId), last.path("title").asText(), context);
        assertEquals(cast, texts(last.path("cast")), context);
        assertFalse(last.path("hasNext").asBoolean(true), context);
        assertTrue(last.path("error").isNull(), context);

        JsonNode failing = result.json().path("failing").path("results");
        context = failing.toString();
        first = failing.get(0);
        last = failing.get(failing.size() - 1);
        assertTrue(first.path("error").isNull(), context);
        assertEquals(other.title(), last.path("title").asText(), context);
        assertTrue(last.path("hasOther").asBoolean(), context);
        assertTrue(last.path("other").isNull(), context);
        assertFalse(last.path("hasNext").asBoolean(true), context);
        assertEquals("CombinedError", last.path("error").path("name").asText(), context);
        assertTrue(last.path("error").path("networkError").isNull(), context);
        assertBadMovieId(last.path("error").path("graphQLErrors"), context);
    }

    @Test
    void aNonNullFieldFailingInALaterPartReachesUrqlWithItsOwnErrorAsWithoutDefer() {
        NodeScripts.Result result = NodeScripts.run("defer-urql.mjs", endpoint(), movieId, other.id().value(), notAMovieId);

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode results = result.json().path("failingNonNull").path("results");
        String context = results.toString();
        JsonNode last = results.get(results.size() - 1);
        assertEquals(title(movieId), last.path("title").asText(), context);
        assertTrue(last.path("cast").isNull(), context);
        assertFalse(last.path("hasNext").asBoolean(true), context);
        // cast(first: 0) answers BAD_USER_INPUT on movie.cast without @defer (BadInputTest): the deferred part
        // carries that error, not only the null it leaves in a non-null field
        JsonNode errors = last.path("error").path("graphQLErrors");
        assertEquals(1, errors.size(), context);
        assertEquals("BAD_USER_INPUT", errors.get(0).path("code").asText(), context);
        assertTrue(errors.get(0).path("message").asText().contains("'first' must be between 1 and 100"), context);
        assertEquals(List.of("movie", "cast"), texts(errors.get(0).path("path")), context);
    }

    @Test
    void relayMatchesTheDeferredPayloadToItsFragmentByLabelAndPathAndReadsAFailedOnesErrorWithCatch() {
        NodeScripts.Result result = NodeScripts.run("defer-relay.mjs", endpoint(), movieId, other.id().value(),
                notAMovieId);

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode json = result.json();
        String context = json.toString();
        assertEquals(List.of(), texts(json.path("warnings")), "Relay warned: " + result);
        assertEquals(List.of("MovieDeferredCast_movie", "MovieDeferredOtherQuery", "MovieDeferredOther_query",
                "MovieDeferredQuery"), texts(json.path("compiled")), context);
        assertEquals(2, json.path("exchanges").size(), context);
        json.path("exchanges").forEach(exchange -> assertMultipartExchange(exchange, context));
        // The network layer gave Relay the first payload, then one {data, path, label, hasNext} for the fragment,
        // under the label relay-compiler wrote into the query text.
        JsonNode payloads = json.path("payloads");
        assertEquals(2, payloads.size(), context);
        assertTrue(payloads.get(0).path("hasNext").asBoolean(), context);
        assertEquals(json.path("label").asText(), payloads.get(1).path("label").asText(), context);
        assertEquals("MovieDeferredQuery$defer$cast", json.path("label").asText(), context);
        assertEquals(List.of("movie"), texts(payloads.get(1).path("path")), context);
        assertFalse(payloads.get(1).path("hasNext").asBoolean(true), context);
        // What a component reads after each: the title with the fragment still missing, then the fragment.
        JsonNode snapshots = json.path("snapshots");
        assertEquals(2, snapshots.size(), context);
        assertEquals(title(movieId), snapshots.get(0).path("title").asText(), context);
        assertFalse(snapshots.get(0).path("queryMissingData").asBoolean(true), context);
        assertTrue(snapshots.get(0).path("castMissingData").asBoolean(), context);
        assertFalse(snapshots.get(1).path("castMissingData").asBoolean(true), context);
        assertEquals(cast, texts(snapshots.get(1).path("cast")), context);
        assertEquals(cast, texts(json.path("final").path("cast")), context);

        // The failing fragment: missing (a component suspends) until its payload, then read with @catch, the
        // field's error in place of its value, the first payload's movie kept.
        JsonNode failing = json.path("failing");
        payloads = failing.path("payloads");
        assertEquals(2, payloads.size(), context);
        assertEquals("MovieDeferredOtherQuery$defer$other", payloads.get(1).path("label").asText(), context);
        assertEquals(List.of(), texts(payloads.get(1).path("path")), context);
        assertTrue(failing.path("snapshots").get(0).path("otherMissingData").asBoolean(), context);
        JsonNode last = failing.path("final");
        assertEquals(other.title(), last.path("title").asText(), context);
        assertFalse(last.path("otherMissingData").asBoolean(true), context);
        assertFalse(last.path("other").path("ok").asBoolean(true), context);
        assertTrue(last.path("other").path("value").isNull(), context);
        assertEquals(1, last.path("other").path("errors").size(), context);
        assertEquals("BAD_USER_INPUT", last.path("other").path("errors").get(0).path("extensions").path("code").asText(),
                context);
    }

    @Test
    void graphqlSseRunsAQueryADeferredQueryAndASubscriptionThatSeesAChange() {
        NodeScripts.Result result = NodeScripts.run("defer-sse.mjs", endpoint(), movieId, other.id().value(),
                notAMovieId, month());

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode json = result.json();
        String context = json.toString();
        // distinct connections mode: every operation its own request, each answered as an event stream
        JsonNode exchanges = json.path("exchanges");
        assertEquals(4, exchanges.size(), context);
        exchanges.forEach(exchange -> assertEventStream(exchange, context));
        JsonNode query = json.path("query");
        assertEquals(1, query.size(), context);
        assertEquals(title(movieId), query.get(0).path("title").asText(), context);
        assertDeferredPayloads(json.path("deferred"), "sse");
        assertFailedLaterPayload(json.path("failing"), "sse");
        JsonNode streams = json.path("subscription").path("streams");
        assertEquals(2, streams.size(), context);
        assertEquals(streams.get(0).asLong() + 1, streams.get(1).asLong(), context);
    }

    @Test
    void aGraphqlSseClientLeavingASubscriptionFreesItAtOnce() {
        double before = openSubscriptions();

        NodeScripts.Result result = NodeScripts.run("defer-sse.mjs", endpoint(), movieId, other.id().value(),
                notAMovieId, month(), "subscription");

        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(2, result.json().path("subscription").path("streams").size(), result.toString());
        assertEventStream(result.json().path("exchanges").get(0), result.toString());
        // The client left the iteration (it aborts its request) and its process ended: nothing more will be
        // written to that connection, and the server lets the subscription go without waiting for a change.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (openSubscriptions() > before && System.nanoTime() < deadline) {
            sleep(50);
        }
        assertEquals(before, openSubscriptions(), "the SSE subscription is still open");
    }

    @Test
    void graphqlSseSignsInWithItsAuthorizationHeaderForADeferredQueryAndTheWatchlistSubscription() {
        // A server of its own that signs viewers in (the shared one has no OpenID Connect provider).
        MockOAuth2Server provider = new MockOAuth2Server();
        provider.start();
        Moviegraph signedIn = null;
        try {
            signedIn = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                    "OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(), "OIDC_AUDIENCE", AUDIENCE)), List.of());
            String token = provider.issueToken(ISSUER, "movies-web", new DefaultOAuth2TokenCallback(ISSUER, "sse-viewer",
                    "JWT", List.of(AUDIENCE), Map.of(), 600)).serialize();
            awaitProvider(signedIn.port(), token);

            NodeScripts.Result result = NodeScripts.run(Map.of("MOVIEGRAPH_TOKEN", token), "sse-signin.mjs",
                    "http://127.0.0.1:" + signedIn.port() + "/graphql", movieId);

            assertEquals(0, result.exitCode(), result.toString());
            JsonNode json = result.json();
            String context = json.toString();
            JsonNode exchanges = json.path("exchanges");
            assertEquals(2, exchanges.size(), context);
            exchanges.forEach(exchange -> {
                assertEventStream(exchange, context);
                assertTrue(exchange.path("signedIn").asBoolean(), context);
            });
            // The viewer at once, their own watchlist (under @auth) in the deferred part.
            JsonNode deferred = json.path("deferred");
            assertEquals(2, deferred.size(), context);
            assertEquals("viewer:sse-viewer", deferred.get(0).path("data").path("viewer").path("id").asText(), context);
            assertTrue(deferred.get(0).path("hasNext").asBoolean(), context);
            JsonNode item = deferred.get(1).path("incremental").path(0);
            assertEquals("list", item.path("label").asText(), context);
            assertEquals(List.of("viewer"), texts(item.path("path")), context);
            assertEquals(0, item.path("data").path("watchlist").path("totalCount").asInt(-1), context);
            assertTrue(item.path("errors").isMissingNode(), context);
            assertFalse(deferred.get(1).path("hasNext").asBoolean(true), context);
            // The subscription: the empty list, then the list with the movie the viewer added.
            JsonNode changes = json.path("subscription");
            assertEquals(2, changes.size(), context);
            assertEquals(0, changes.get(0).path("list").path("totalCount").asInt(-1), context);
            assertEquals(1, changes.get(1).path("list").path("totalCount").asInt(), context);
            assertEquals(List.of(movieId), texts(changes.get(1).path("list").path("movieIds")), context);
            // Without the header the same subscription is refused before anything is read: the client's iteration
            // gets one result, no data and UNAUTHENTICATED errors, then ends.
            JsonNode anonymous = json.path("anonymous");
            assertFalse(anonymous.path("exchanges").path(0).path("signedIn").asBoolean(true), context);
            assertTrue(anonymous.path("thrown").isNull(), context);
            assertEquals(1, anonymous.path("results").size(), context);
            JsonNode refused = anonymous.path("results").get(0);
            assertTrue(refused.path("data").isNull(), context);
            assertEquals("watchlistChanged", refused.path("errors").path(0).path("path").path(0).asText(), context);
            refused.path("errors").forEach(error ->
                    assertEquals("UNAUTHENTICATED", error.path("extensions").path("code").asText(), context));
        } finally {
            if (signedIn != null) {
                signedIn.close();
            }
            provider.shutdown();
        }
    }

    @Test
    void graphqlWsGetsEachDeferredPartAsANextMessageThenComplete() {
        NodeScripts.Result result = NodeScripts.run("defer-ws.mjs", endpoint(), movieId, other.id().value(), notAMovieId);

        assertEquals(0, result.exitCode(), result.toString());
        assertDeferredPayloads(result.json().path("deferred"), "graphql-ws");
        assertFailedLaterPayload(result.json().path("failing"), "graphql-ws");
    }

    /** The payloads of the deferred query as a transport delivered them (graphql-sse, graphql-ws). */
    private void assertDeferredPayloads(JsonNode payloads, String transport) {
        String context = transport + ": " + payloads;
        assertTrue(payloads.size() >= 2, context);
        JsonNode first = payloads.get(0);
        assertTrue(first.path("hasNext").asBoolean(), context);
        assertEquals(title(movieId), first.path("title").asText(), context);
        assertTrue(first.path("cast").isNull(), context);
        assertFalse(payloads.get(payloads.size() - 1).path("hasNext").asBoolean(true), context);
        List<JsonNode> items = new ArrayList<>();
        for (int i = 1; i < payloads.size(); i++) {
            assertFalse(texts(payloads.get(i).path("keys")).contains("data"), context);
            payloads.get(i).path("incremental").forEach(items::add);
        }
        assertEquals(1, items.size(), context);
        JsonNode item = items.get(0);
        assertEquals("cast", item.path("label").asText(), context);
        assertEquals(List.of("movie"), texts(item.path("path")), context);
        assertEquals(cast, texts(item.path("cast")), context);
        assertEquals(0, item.path("errors").size(), context);
    }

    /** The failing operation's payloads: the first with its movie and no error, a later item with the error. */
    private void assertFailedLaterPayload(JsonNode payloads, String transport) {
        String context = transport + " failing: " + payloads;
        assertTrue(payloads.size() >= 2, context);
        assertEquals(other.title(), payloads.get(0).path("title").asText(), context);
        assertEquals(0, payloads.get(0).path("errors").size(), context);
        JsonNode last = payloads.get(payloads.size() - 1);
        assertFalse(last.path("hasNext").asBoolean(true), context);
        JsonNode item = last.path("incremental").get(0);
        assertNotNull(item, context);
        assertEquals("other", item.path("label").asText(), context);
        assertTrue(item.path("data").path("other").isNull(), context);
        assertBadMovieId(item.path("errors"), context);
    }

    private void assertBadMovieId(JsonNode errors, String context) {
        assertEquals(1, errors.size(), context);
        assertEquals("BAD_USER_INPUT", errors.get(0).path("code").asText(), context);
        assertTrue(errors.get(0).path("message").asText().contains("is not a movie id"), context);
        assertEquals(List.of("other"), texts(errors.get(0).path("path")), context);
    }

    private static void assertEventStream(JsonNode exchange, String context) {
        assertEquals(200, exchange.path("status").asInt(), context);
        assertEquals("text/event-stream", exchange.path("accept").asText(), context);
        assertTrue(exchange.path("contentType").asText().startsWith("text/event-stream"), context);
    }

    private static void assertMultipart(JsonNode exchanges, String context) {
        assertEquals(1, exchanges.size(), context);
        assertMultipartExchange(exchanges.get(0), context);
    }

    private static void assertMultipartExchange(JsonNode exchange, String context) {
        assertEquals(200, exchange.path("status").asInt(), context);
        assertTrue(exchange.path("accept").asText().contains("multipart/mixed"), context);
        assertTrue(exchange.path("contentType").asText().startsWith("multipart/mixed"), context);
    }

    /** The labels of the incremental items the chunks carried, in order. */
    private static List<String> labels(JsonNode chunks) {
        List<String> labels = new ArrayList<>();
        chunks.forEach(chunk -> chunk.path("incremental").forEach(item -> labels.add(item.path("label").asText())));
        return labels;
    }

    /** The emissions that show data (Apollo 4 emits a loading state with none first). */
    private static List<JsonNode> withTitle(JsonNode emissions) {
        return StreamSupport.stream(emissions.spliterator(), false)
                .filter(emission -> !emission.path("title").isNull() && !emission.path("title").isMissingNode())
                .toList();
    }

    private String title(String id) {
        return server.sample().movies().stream().filter(movie -> movie.id().value().equals(id)).findFirst()
                .orElseThrow().title();
    }

    /** A month of the sample whose top list the other client tests (JavaScriptClientsTest: the last two) leave alone. */
    private String month() {
        var months = server.sample().months();
        return months.get(months.size() - 3).toString();
    }

    /** The provider's first answer, on a busy machine, may outlast the gateway's timeout (a 503): wait it out. */
    private static void awaitProvider(int port, String token) {
        GraphQLClient signedIn = new GraphQLClient(port);
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (signedIn.post(GraphQLClient.body("{ viewer { id } }", Map.of()), "application/json", "application/json",
                Map.of("Authorization", "Bearer " + token)).status() == 503 && System.nanoTime() < deadline) {
            sleep(500);
        }
    }

    private String endpoint() {
        return "http://127.0.0.1:" + server.port() + "/graphql";
    }

    private double openSubscriptions() {
        Matcher matcher = SUBSCRIPTIONS.matcher(client.get("/metrics", Map.of(), null).raw().body());
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
