package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

/**
 * HTTP caching of /graphql answers on the shared server (default ages: catalog 300 s from the schema,
 * totals of a finished month 3600 s, of the current month 10 s): ETag and 304, Vary, and Cache-Control
 * from what the answer contains.
 */
class HttpCachingTest {
    private static final String JSON = "application/json";
    private static final String FINISHED_TOP = "{ topMovies(month: \"2024-05\", limit: 3) { streams month } }";

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    private Response get(String query, Map<String, String> headers) {
        return client.get("/graphql", Map.of("query", query), JSON, headers);
    }

    private static String header(Response response, String name) {
        return response.raw().headers().firstValue(name).orElse("");
    }

    private static List<String> vary(Response response) {
        return List.of(header(response, "Vary").split("\\s*,\\s*"));
    }

    @Test
    void aGetAnswerHasAWeakETagAndIfNoneMatchWithItIs304WithoutABodyRepeatingTheCachingHeaders() {
        Response first = get(FINISHED_TOP, Map.of());
        String etag = header(first, "ETag");
        assertEquals(200, first.status());
        assertTrue(etag.matches("W/\"[A-Za-z0-9_-]+\""), etag);

        Response again = get(FINISHED_TOP, Map.of("If-None-Match", etag));

        assertEquals(304, again.status());
        assertEquals("", again.raw().body());
        assertEquals(etag, header(again, "ETag"));
        assertEquals(header(first, "Cache-Control"), header(again, "Cache-Control"));
        assertEquals(header(first, "Vary"), header(again, "Vary"));
        assertEquals("", header(again, "Content-Type"), "a 304 carries no representation metadata");
        assertEquals(304, get(FINISHED_TOP, Map.of("If-None-Match", "\"other\", " + etag.substring(2))).status(),
                "If-None-Match compares weakly and takes a list");
        assertEquals(200, get(FINISHED_TOP, Map.of("If-None-Match", "W/\"other\"")).status());
    }

    @Test
    void aChangedAnswerGetsANewETagAndTheOldOneIsAnsweredInFull() {
        String query = "{ movie(id: \"tt9400001\") { title } }";
        put("tt9400001", "Before");
        String before = header(get(query, Map.of()), "ETag");

        put("tt9400001", "After");
        Response after = get(query, Map.of("If-None-Match", before));

        assertEquals(200, after.status());
        assertEquals("After", after.data().path("movie").path("title").asText());
        assertNotEquals(before, header(after, "ETag"));
        assertEquals(304, get(query, Map.of("If-None-Match", header(after, "ETag"))).status());
    }

    private void put(String id, String title) {
        Response response = client.query("mutation($id: ID!, $t: String!) { putMovie(input: {id: $id, title: $t}) { id } }",
                Map.of("id", id, "t", title));
        assertTrue(response.errors().isMissingNode(), response.raw().body());
    }

    @Test
    void theETagDependsOnTheMediaType() {
        Response json = client.get("/graphql", Map.of("query", FINISHED_TOP), JSON, Map.of());
        Response graphql = client.get("/graphql", Map.of("query", FINISHED_TOP), "application/graphql-response+json",
                Map.of());

        assertEquals(json.raw().body(), graphql.raw().body());
        assertNotEquals(header(json, "ETag"), header(graphql, "ETag"));
    }

    @Test
    void gzippedAndPlainAnswersCarryTheSameETagAndBothVaryOnAcceptEncoding() throws Exception {
        // 100 totals with titles: well past the 1,500 bytes from which Javalin compresses
        String query = "{ topMovies(month: \"2024-05\", limit: 100) { streams movie { title } } }";
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<byte[]> gzipped = http.send(client.getRequest("/graphql", Map.of("query", query), JSON,
                Map.of("Accept-Encoding", "gzip")), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> plain = http.send(client.getRequest("/graphql", Map.of("query", query), JSON, Map.of()),
                HttpResponse.BodyHandlers.ofByteArray());

        assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(plain.headers().firstValue("Content-Encoding").isEmpty());
        assertArrayEquals(plain.body(), gunzip(gzipped.body()));
        assertEquals(plain.headers().firstValue("ETag"), gzipped.headers().firstValue("ETag"));
        for (HttpResponse<byte[]> response : List.of(gzipped, plain)) {
            assertTrue(response.headers().firstValue("Vary").orElse("").contains("Accept-Encoding"),
                    response.headers().toString());
        }
        Response small = get("{ movie(id: \"tt0111161\") { title } }", Map.of("Accept-Encoding", "gzip"));
        assertTrue(vary(small).contains("Accept-Encoding"), "too small to compress, yet another client's would be");
    }

    private static byte[] gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        }
    }

    @Test
    void varyNamesAcceptAcceptEncodingAndTheTraceHeaderAndNotOriginWithoutCors() {
        for (Response response : List.of(get(FINISHED_TOP, Map.of()), client.query(FINISHED_TOP),
                get("{ nope }", Map.of()))) {
            assertEquals(List.of("Accept", "Accept-Encoding", "Moviegraph-Trace"), vary(response));
        }
    }

    @Test
    void aFinishedMonthsTotalsAreKeptLongerThanTheCurrentMonths() {
        YearMonth now = YearMonth.now(ZoneOffset.UTC);

        assertEquals("max-age=3600, public", header(get(FINISHED_TOP, Map.of()), "Cache-Control"));
        assertEquals("max-age=10, public", header(get("{ topMovies(month: \"" + now + "\") { streams } }", Map.of()),
                "Cache-Control"));
        assertEquals("max-age=10, public", header(get("{ topMovies(month: \"" + now.plusMonths(3)
                + "\") { streams } }", Map.of()), "Cache-Control"), "a future month is not finished either");
        assertEquals("max-age=3600, public", header(get("{ streamTotal(movieId: \"tt0111161\", month: \"2024-02\") "
                + "{ streams } }", Map.of()), "Cache-Control"));
        assertEquals("max-age=10, public", header(get("{ streamTotal(movieId: \"tt0111161\", month: \"" + now
                + "\") { streams } }", Map.of()), "Cache-Control"));
    }

    @Test
    void anAnswerIsKeptForTheLeastAgeOfWhatItContains() {
        // the movie itself (300 s) is shorter-lived than its totals of finished months (3600 s)
        assertEquals("max-age=300, public", header(get("{ movie(id: \"tt0111161\") { title "
                + "streamTotals(from: \"2024-01\", to: \"2024-03\") { streams } } }", Map.of()), "Cache-Control"));
        // a range without an end takes in the current month
        assertEquals("max-age=10, public", header(get("{ movie(id: \"tt0111161\") { title "
                + "streamTotals(from: \"2024-01\") { streams } } }", Map.of()), "Cache-Control"));
        // a finished month's list, with the movies it names (300 s)
        assertEquals("max-age=300, public", header(get("{ topMovies(month: \"2024-05\", limit: 3) { streams "
                + "movie { title } } }", Map.of()), "Cache-Control"));
        // a root field without a hint (Apollo's default for root fields: 0)
        assertEquals("no-store", header(get("{ __typename }", Map.of()), "Cache-Control"));
    }

    @Test
    void answersWithErrorsTracesOrPlansAreNeverStored() {
        Response validation = get("{ topMovies(month: \"2024-13\") { streams } }", Map.of());
        Response partial = get("{ movie(id: \"tt0111161\") { title } bad: movie(id: \"x\") { title } }", Map.of());
        Response traced = get(FINISHED_TOP, Map.of("Moviegraph-Trace", "on"));
        Response planned = get(FINISHED_TOP, Map.of("Moviegraph-Trace", "plan"));

        assertEquals("GRAPHQL_VALIDATION_FAILED", validation.firstErrorCode());
        assertEquals("The Shawshank Redemption", partial.data().path("movie").path("title").asText());
        assertEquals("BAD_USER_INPUT", partial.firstErrorCode());
        assertTrue(traced.body().path("extensions").has("trace"), traced.raw().body());
        assertTrue(planned.body().path("extensions").has("plan"), planned.raw().body());
        for (Response response : List.of(validation, partial, traced, planned)) {
            assertEquals("no-store", header(response, "Cache-Control"), response.raw().body());
        }
    }

    @Test
    void aMutationIsNeverStoredWhatItReturns() {
        Response response = client.query("mutation { putMovie(input: {id: \"tt9400002\", title: \"Kept?\"}) { title } }");

        assertTrue(response.errors().isMissingNode(), response.raw().body());
        assertEquals("no-store", header(response, "Cache-Control"), "Movie's own hint is 300 s");
    }

    @Test
    void aPostQueryCarriesItsPolicyAsApolloServerDoesButNoETag() {
        Response response = client.query(FINISHED_TOP);

        assertEquals("max-age=3600, public", header(response, "Cache-Control"));
        assertEquals("", header(response, "ETag"), "POST answers are not revalidated");
    }

    @Test
    void aRequestWithAuthorizationIsKeptPrivate() {
        Response get = get(FINISHED_TOP, Map.of("Authorization", "Bearer someone"));
        Response post = client.post(GraphQLClient.body(FINISHED_TOP, Map.of()), JSON, JSON,
                Map.of("Authorization", "Bearer someone"));

        assertEquals("max-age=3600, private", header(get, "Cache-Control"));
        assertEquals("max-age=3600, private", header(post, "Cache-Control"));
    }

    @Test
    void brokenRequestsAreNeverStored() throws Exception {
        Response missingQuery = client.get("/graphql", Map.of(), JSON);
        Response badJson = client.post("{", JSON, JSON);

        for (Response response : List.of(missingQuery, badJson)) {
            assertEquals(400, response.status());
            assertEquals("no-store", header(response, "Cache-Control"));
        }
        assertTrue(new ObjectMapper().readTree(badJson.raw().body()).has("errors"));
    }
}
