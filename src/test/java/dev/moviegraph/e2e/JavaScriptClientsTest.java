package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.NodeScripts;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Real JavaScript clients against the shared server over HTTP: each case runs one script of
 * {@code src/test/js} with Node ({@link NodeScripts}), asserts its exit code and the exchanges it
 * printed, and checks the server's side of the same story.
 */
class JavaScriptClientsTest {
    private static final Pattern COUNTER = Pattern.compile(
            "^moviegraph_persisted_queries_total\\{outcome=\"([a-z_]+)\"[^}]*} ([0-9.E+]+)$", Pattern.MULTILINE);

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    @Test
    void apolloPersistedQueryLinkMissesOnceThenSendsOnlyTheHashByPostAndByGet() {
        Movie movie = server.sample().movies().get(0);
        Map<String, Double> before = persistedQueryCounters();

        NodeScripts.Result result = NodeScripts.run("apq.mjs", endpoint(), movie.id().value());

        assertEquals(0, result.exitCode(), result.toString());
        assertNotNull(result.json(), result.toString());
        for (String method : List.of("post", "get")) {
            JsonNode run = result.json().path(method);
            assertEquals(List.of(movie.title(), movie.title()), texts(run.path("titles")), method + ": " + run);
            JsonNode exchanges = run.path("exchanges");
            assertEquals(3, exchanges.size(), method + ": " + exchanges);
            String hashed = method.equals("get") ? "GET" : "POST";
            JsonNode miss = exchanges.get(0);
            JsonNode registration = exchanges.get(1);
            JsonNode hit = exchanges.get(2);
            // 1. the hash alone: not found, as Apollo Server answers it (200, never cached)
            assertEquals(hashed, miss.path("method").asText(), miss.toString());
            assertTrue(miss.path("query").isNull(), miss.toString());
            assertEquals(200, miss.path("status").asInt(), miss.toString());
            assertEquals("PERSISTED_QUERY_NOT_FOUND", miss.path("code").asText(), miss.toString());
            assertEquals("private, no-cache, must-revalidate", miss.path("cacheControl").asText(), miss.toString());
            // 2. the link falls back: the query with its hash, by POST, answered with data
            assertEquals("POST", registration.path("method").asText(), registration.toString());
            String document = registration.path("query").asText();
            assertTrue(document.contains("movie(id: $id)"), registration.toString());
            assertEquals(miss.path("sha256Hash").asText(), registration.path("sha256Hash").asText());
            assertEquals(movie.title(), registration.path("data").path("movie").path("title").asText());
            // 3. the next request of it is the hash alone again, and now runs
            assertEquals(hashed, hit.path("method").asText(), hit.toString());
            assertTrue(hit.path("query").isNull(), hit.toString());
            assertEquals(movie.title(), hit.path("data").path("movie").path("title").asText(), hit.toString());

            // The server stored it: a hash-only GET of our own runs it too.
            Response stored = client.get("/graphql", Map.of(
                    "extensions", "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"" + hit.path("sha256Hash").asText()
                            + "\"}}",
                    "variables", "{\"id\":\"" + movie.id().value() + "\"}"), "application/json");
            assertEquals(movie.title(), stored.data().path("movie").path("title").asText(), stored.raw().body());
        }
        Map<String, Double> after = persistedQueryCounters();
        assertEquals(2, delta(before, after, "miss"), after.toString());
        assertEquals(2, delta(before, after, "registered"), after.toString());
        // the script's two hits, then our own two GETs (served from the replica's local cache)
        assertEquals(4, delta(before, after, "hit"), after.toString());
    }

    @Test
    void graphqlWsAndApolloGraphQLWsLinkGetTheTopListAtOnceAndAgainAfterAWrite() {
        var months = server.sample().months();
        String month = months.get(months.size() - 1).toString();

        NodeScripts.Result result = NodeScripts.run("subscriptions.mjs", endpoint(), month);

        assertEquals(0, result.exitCode(), result.toString());
        for (String clientName : List.of("graphqlWs", "apollo")) {
            JsonNode streams = result.json().path(clientName).path("streams");
            assertEquals(2, streams.size(), clientName + ": " + result.json());
            // The second answer is the first plus the stream the script recorded over HTTP.
            assertEquals(streams.get(0).asLong() + 1, streams.get(1).asLong(), clientName + ": " + result.json());
        }
        // Every message carries its own receipt: one GetItem of the month's top list (the movie's id and title
        // are the list's own copies, so no other read).
        assertEquals(List.of("1", "1"), texts(result.json().path("graphqlWs").path("costs")), result.toString());
    }

    @Test
    void graphiqlRunsASubscriptionOverTheSocketAndShowsTheUpdate() {
        var months = server.sample().months();
        String month = months.get(months.size() - 2).toString();

        NodeScripts.Result result = NodeScripts.run("graphiql-ws.mjs", endpoint(), month,
                java.nio.file.Path.of("src", "main", "resources", "graphiql", "app.js").toAbsolutePath().toString());

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode streams = result.json().path("streams");
        assertEquals(streams.get(0).asLong() + 1, streams.get(1).asLong(), result.toString());
        assertTrue(result.json().path("cost").path("requests").asInt() >= 1, result.toString());
    }

    @Test
    void apolloBatchHttpLinkAndGraphqlRequestSendOneArrayAndGetEveryAnswer() {
        Movie movie = server.sample().movies().get(0);
        var person = server.sample().people().get(0);

        NodeScripts.Result result = NodeScripts.run("batch.mjs", endpoint(), movie.id().value(), person.id().value());

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode apollo = result.json().path("apollo");
        assertEquals(movie.title(), apollo.path("title").asText(), result.toString());
        assertEquals(person.name(), apollo.path("name").asText(), result.toString());
        // Two queries issued together went out as one POST of a two-element array.
        assertEquals(1, apollo.path("requests").asInt(), result.toString());
        assertEquals(List.of("2"), texts(apollo.path("arrays")), result.toString());
        JsonNode batched = result.json().path("graphqlRequest");
        assertEquals(movie.title(), batched.path("title").asText(), result.toString());
        assertEquals(person.name(), batched.path("name").asText(), result.toString());
    }

    @Test
    void relayCompilesItsPaginationFragmentsAndPagesACastAndASearchThroughItsStore() {
        // The sample movie with the longest cast, so that two pages of 3 are full.
        Map<String, List<Credit>> casts = server.sample().cast().stream().collect(Collectors.groupingBy(
                credit -> credit.movieId().value(), TreeMap::new, Collectors.toList()));
        String movieId = casts.entrySet().stream().max(Comparator.comparing(entry -> entry.getValue().size()))
                .orElseThrow().getKey();
        // Top-billed first, uncredited last by person id: the cast's order.
        List<String> cast = casts.get(movieId).stream()
                .sorted(Comparator.comparing((Credit c) -> c.position() == null ? Integer.MAX_VALUE : c.position())
                        .thenComparing(c -> c.personId().value()))
                .map(Credit::personName).toList();
        Person freeman = server.sample().people().stream().filter(p -> p.id().value().equals("nm0000151"))
                .findFirst().orElseThrow();

        NodeScripts.Result result = NodeScripts.run("relay.mjs", endpoint(), movieId, freeman.id().value(), "the");

        assertEquals(0, result.exitCode(), result.toString());
        JsonNode json = result.json();
        assertEquals(List.of(), texts(json.path("warnings")), "Relay warned: " + result);
        assertEquals(List.of("MovieCastPaginationQuery", "MovieCastQuery", "MovieCast_movie", "PersonCardRefetchQuery",
                "PersonCard_person", "SearchResultsPaginationQuery", "SearchResultsQuery", "SearchResults_query"),
                texts(json.path("compiled")), result.toString());
        // The refetch query reads the person through node(id:).
        JsonNode refetched = json.path("refetch");
        assertEquals(freeman.name(), refetched.path("name").asText(), result.toString());
        assertEquals(freeman.birthYear(), refetched.path("birthYear").asInt(), result.toString());
        // The cast: 3, then 3 more by the first page's endCursor, appended by Relay's connection handler.
        JsonNode movieCast = json.path("cast");
        assertEquals(cast.size(), movieCast.path("totalCount").asInt(), result.toString());
        assertEquals(cast.subList(0, 3), texts(movieCast.path("first").path("nodes")), result.toString());
        assertTrue(movieCast.path("first").path("hasNextPage").asBoolean(), result.toString());
        assertEquals(cast.subList(0, 6), texts(movieCast.path("both").path("nodes")), result.toString());
        assertEquals(cast.size() > 6, movieCast.path("both").path("hasNextPage").asBoolean(), result.toString());
        // The search: the same two pages as the first 6 results asked for at once.
        List<String> expected = new ArrayList<>();
        client.query("{ search(query: \"the\", first: 6) { edges { node { __typename ... on Movie { id }"
                + " ... on Person { id } } } } }").data().path("search").path("edges").forEach(edge ->
                expected.add(edge.path("node").path("__typename").asText() + ":" + edge.path("node").path("id").asText()));
        assertEquals(6, expected.size(), "the sample has 6 results for \"the\"");
        JsonNode search = json.path("search");
        assertEquals(expected.subList(0, 3), texts(search.path("first").path("nodes")), result.toString());
        assertEquals(expected, texts(search.path("both").path("nodes")), result.toString());
    }

    private String endpoint() {
        return "http://127.0.0.1:" + server.port() + "/graphql";
    }

    private static List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private Map<String, Double> persistedQueryCounters() {
        String metrics = client.get("/metrics", Map.of(), null).raw().body();
        Map<String, Double> counters = new java.util.HashMap<>();
        Matcher matcher = COUNTER.matcher(metrics);
        while (matcher.find()) {
            counters.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
        }
        return counters;
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String outcome) {
        return after.getOrDefault(outcome, 0.0) - before.getOrDefault(outcome, 0.0);
    }
}
