package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Malformed arguments get a clear GraphQL error with a code, never a stack trace, and cost no read. */
class BadInputTest {
    private final TestServer server = TestServer.get();

    private Response run(String query, Map<String, Object> variables) {
        server.counter().reset();
        return server.client().query(query, variables);
    }

    private static void assertClean(Response response) {
        String body = response.raw().body();
        assertFalse(body.contains("Exception"), body);
        assertFalse(body.contains("at dev.moviegraph"), body);
        assertFalse(body.contains("software.amazon"), body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "tt", "0111161", "tt011116", "nm0000209", "tt0111161; DROP", "TT0111161"})
    void aMalformedMovieIdIsABadUserInputError(String id) {
        Response response = run("query($id: ID!) { movie(id: $id) { title } }", Map.of("id", id));
        assertEquals(200, response.status());
        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("is not a movie id"));
        assertEquals("movie", response.errors().path(0).path("path").path(0).asText());
        assertTrue(response.data().path("movie").isNull());
        assertEquals(List.of(), server.counter().operations(), "nothing was read for a malformed id");
        assertClean(response);
    }

    @Test
    void aMalformedActorIdIsABadUserInputError() {
        Response response = run("{ person(id: \"tt0111161\") { name } }", Map.of());
        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("is not a person id"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-13", "2024-5", "24-05", "2024-05-01", "May 2024", ""})
    void aMalformedMonthVariableIsAValidationErrorWithoutData(String month) {
        Response response = run("query($m: YearMonth!) { topMovies(month: $m) { streams } }", Map.of("m", month));
        assertEquals(400, response.status(), "graphql-response+json: a request that cannot execute is a 400");
        assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("expected yyyy-MM"),
                response.errors().toString());
        assertTrue(response.body().path("data").isMissingNode());
        assertClean(response);
    }

    @Test
    void aMalformedMonthLiteralIsAValidationError() {
        Response response = run("{ streamTotal(movieId: \"tt0111161\", month: \"2024-00\") { streams } }", Map.of());
        assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("is not a month"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 101, 100000})
    void firstOutOfRangeIsABadUserInputErrorOnTheListField(int first) {
        Response response = run("query($f: Int) { movie(id: \"tt0111161\") { title cast(first: $f) { edges { cursor } } } }",
                Map.of("f", first));
        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("'first' must be between 1 and 100"));
        assertEquals(List.of("movie", "cast"),
                List.of(response.errors().path(0).path("path").path(0).asText(),
                        response.errors().path(0).path("path").path(1).asText()));
    }

    @Test
    void limitOutOfRangeIsABadUserInputError() {
        Response response = run("{ topMovies(month: \"2024-05\", limit: 101) { streams } }", Map.of());
        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("'limit' must be between 1 and 100"));
    }

    @Test
    void moreThanAHundredIdsAreRefused() {
        List<String> ids = Collections.nCopies(101, "tt0111161");
        Response response = run("query($ids: [ID!]!) { movies(ids: $ids) { title } }", Map.of("ids", ids));
        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().path(0).path("message").asText().contains("At most 100 ids"));
        assertEquals(List.of(), server.counter().operations());
    }

    @Test
    void aHundredRepeatedIdsAreReadOnce() {
        List<String> ids = Collections.nCopies(100, "tt0111161");
        Response response = run("query($ids: [ID!]!) { movies(ids: $ids) { title } }", Map.of("ids", ids));
        assertEquals(100, response.data().path("movies").size());
        assertEquals("The Shawshank Redemption", response.data().path("movies").path(99).path("title").asText());
        assertEquals(List.of("GetItem"), server.counter().operations(), "one distinct key, read once");
    }

    @Test
    void aSyntaxErrorIsAParseError() {
        Response response = run("{ movie(id: \"tt0111161\") { title ", Map.of());
        assertEquals(400, response.status());
        assertEquals("GRAPHQL_PARSE_FAILED", response.firstErrorCode());
        assertClean(response);
    }

    @Test
    void anUnknownFieldIsAValidationError() {
        Response response = run("{ movie(id: \"tt0111161\") { budget } }", Map.of());
        assertEquals(400, response.status());
        assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{ topMovies(month: \"2024-13\") { streams } }|argument 'month' with value \"2024-13\" is not a valid 'YearMonth'",
        "{ topMovies(month: \"2024-05\", limit: \"x\") { streams } }|argument 'limit' with value \"x\" is not a valid 'Int'",
        "{ topMovies(month: 202405) { streams } }|argument 'month' with value 202405 is not a valid 'YearMonth'",
        "{ movies(ids: [1.5]) { title } }|argument 'ids[0]' with value 1.5 is not a valid 'ID'",
        "{ topMovies(month: MAY) { streams } }|argument 'month' with value MAY is not a valid 'YearMonth'",
        "{ topMovies(month: [\"2024-01\", \"2024-02\"]) { streams } }|argument 'month' with value [\"2024-01\",\"2024-02\"] is not",
        "{ movies(ids: {a: 1, b: [\"x\"]}) { title } }|argument 'ids' with value {a:1,b:[\"x\"]} is not a valid 'ID'",
        "mutation { uncreditCrew(movieId: \"tt0111161\", personId: \"nm0000209\", role: ACTOR) }|with value ACTOR is not a valid 'CrewRole'"
    })
    void aValidationErrorQuotesTheArgumentAsTheClientWroteIt(String query, String expected) {
        Response response = run(query, Map.of());

        String message = response.errors().path(0).path("message").asText();
        assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode());
        assertTrue(message.contains(expected), message);
        assertFalse(message.matches(".*(StringValue|IntValue|FloatValue|EnumValue|ArrayValue|ObjectValue)\\{.*"),
                message);
    }
}
