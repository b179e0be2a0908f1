package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every mutation over HTTP against the embedded engine, checked through the read API, copies
 * included. Each test writes movies and actors of its own (ids tt95..., nm95...) and months no sample
 * total uses, so the sample the other tests read stays as it was.
 */
class MutationsTest {
    private final TestServer server = TestServer.get();

    private JsonNode ok(String query, Map<String, Object> variables) {
        Response response = server.client().query(query, variables);
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.errors());
        return response.data();
    }

    private JsonNode ok(String query) {
        return ok(query, Map.of());
    }

    private Response failing(String query) {
        Response response = server.client().query(query);
        assertFalse(response.errors().isMissingNode(), () -> "expected an error: " + response.raw().body());
        return response;
    }

    private void movie(String id, String title, int year) {
        ok("mutation($id: ID!, $title: String!, $year: Int) { putMovie(input: {id: $id, title: $title, year: $year, "
                + "genres: [\"Drama\"]}) { id } }", Map.of("id", id, "title", title, "year", year));
    }

    private void actor(String id, String name) {
        ok("mutation($id: ID!, $name: String!) { putPerson(input: {id: $id, name: $name}) { id } }",
                Map.of("id", id, "name", name));
    }

    private void cast(String movie, String actor, int billing) {
        ok("mutation($m: ID!, $a: ID!, $b: Int) { castActor(movieId: $m, actorId: $a, characters: [\"Lead\"], "
                + "billing: $b) { billing } }", Map.of("m", movie, "a", actor, "b", billing));
    }

    private JsonNode stream(String movie, String streamId, String at) {
        return ok("mutation($m: ID!, $s: ID!, $at: DateTime!) { recordStream(input: {movieId: $m, streamId: $s, "
                + "at: $at}) { streamId month counted total } }", Map.of("m", movie, "s", streamId, "at", at))
                .path("recordStream");
    }

    @Test
    void putMovieCreatesAndReplacesAMovie() {
        ok("mutation { putMovie(input: {id: \"tt9500001\", title: \"First Cut\", year: 2001, releaseDate: \"2001-05-04\", "
                + "genres: [\"Drama\", \"Crime\"], runtimeMinutes: 101}) { id title } }");
        JsonNode created = ok("{ movie(id: \"tt9500001\") { title year releaseDate genres runtimeMinutes } }").path("movie");
        assertEquals("First Cut", created.path("title").asText());
        assertEquals("2001-05-04", created.path("releaseDate").asText());
        assertEquals(101, created.path("runtimeMinutes").asInt());

        ok("mutation { putMovie(input: {id: \"tt9500001\", title: \"Final Cut\"}) { title } }");

        JsonNode replaced = ok("{ movie(id: \"tt9500001\") { title year genres runtimeMinutes } }").path("movie");
        assertEquals("Final Cut", replaced.path("title").asText());
        assertTrue(replaced.path("year").isNull(), "a replace, not a merge: " + replaced);
        assertEquals(0, replaced.path("genres").size());
    }

    @Test
    void renamingAMovieRewritesTheTitleAndYearItsCastItemsAndTotalsCarry() {
        movie("tt9500011", "Old Title", 1999);
        actor("nm9500011", "Lead Actor");
        cast("tt9500011", "nm9500011", 1);
        stream("tt9500011", "rename-1", "2026-06-10T12:00:00Z");

        movie("tt9500011", "New Title", 2000);

        JsonNode read = ok("""
                { movie(id: "tt9500011") { cast { edges { node { movie { title year } } } } streamTotals { movie { title } } }
                  person(id: "nm9500011") { movies { edges { node { movie { title year } } } } }
                  topMovies(month: "2026-06", limit: 100) { movie { id title } } }""");
        JsonNode castCopy = read.path("movie").path("cast").path("edges").get(0).path("node").path("movie");
        assertEquals("New Title", castCopy.path("title").asText());
        assertEquals(2000, castCopy.path("year").asInt());
        assertEquals("New Title", read.path("movie").path("streamTotals").get(0).path("movie").path("title").asText());
        JsonNode filmography = read.path("person").path("movies").path("edges").get(0).path("node").path("movie");
        assertEquals("New Title", filmography.path("title").asText());
        assertEquals(2000, filmography.path("year").asInt());
        List<String> top = new ArrayList<>();
        read.path("topMovies").forEach(entry -> {
            if (entry.path("movie").path("id").asText().equals("tt9500011")) {
                top.add(entry.path("movie").path("title").asText());
            }
        });
        assertEquals(List.of("New Title"), top);
    }

    @Test
    void renamingAnActorRewritesTheNameEveryCastItemOfTheActorCarries() {
        movie("tt9500021", "One", 2010);
        movie("tt9500022", "Two", 2011);
        actor("nm9500021", "Before Rename");
        cast("tt9500021", "nm9500021", 2);
        cast("tt9500022", "nm9500021", 1);

        actor("nm9500021", "After Rename");

        for (String movie : List.of("tt9500021", "tt9500022")) {
            JsonNode edges = ok("query($id: ID!) { movie(id: $id) { cast { edges { node { person { id name } } } } } }",
                    Map.of("id", movie)).path("movie").path("cast").path("edges");
            assertEquals("After Rename", edges.get(0).path("node").path("person").path("name").asText(), movie);
        }
    }

    @Test
    void castActorNeedsAnExistingMovieAndActorAndWritesNothingOtherwise() {
        movie("tt9500031", "Real Movie", 2012);
        actor("nm9500031", "Real Actor");

        Response noMovie = failing("mutation { castActor(movieId: \"tt9500039\", actorId: \"nm9500031\") { billing } }");
        Response noActor = failing("mutation { castActor(movieId: \"tt9500031\", actorId: \"nm9500039\") { billing } }");

        assertEquals("NOT_FOUND", noMovie.firstErrorCode());
        assertTrue(noMovie.errors().get(0).path("message").asText().contains("tt9500039"));
        assertEquals("NOT_FOUND", noActor.firstErrorCode());
        assertTrue(noActor.errors().get(0).path("message").asText().contains("nm9500039"));
        assertEquals(0, ok("{ movie(id: \"tt9500031\") { cast { edges { cursor } } } }")
                .path("movie").path("cast").path("edges").size());
        assertEquals(0, ok("{ person(id: \"nm9500031\") { movies { edges { cursor } } } }")
                .path("person").path("movies").path("edges").size());
    }

    @Test
    void castActorReplacesCharactersAndBillingAndUncastActorRemovesTheEntryOnce() {
        movie("tt9500041", "Ensemble", 2015);
        actor("nm9500041", "First");
        actor("nm9500042", "Second");
        cast("tt9500041", "nm9500041", 2);
        cast("tt9500041", "nm9500042", 1);
        ok("mutation { castActor(movieId: \"tt9500041\", actorId: \"nm9500041\", characters: [\"Twin A\", \"Twin B\"]) "
                + "{ billing } }");

        JsonNode edges = ok("{ movie(id: \"tt9500041\") { cast { edges { node { characters billing person { name } } } } } }")
                .path("movie").path("cast").path("edges");
        assertEquals("Second", edges.get(0).path("node").path("person").path("name").asText(), "billed first");
        JsonNode uncredited = edges.get(1).path("node");
        assertEquals("First", uncredited.path("person").path("name").asText(), "uncredited last");
        assertTrue(uncredited.path("billing").isNull());
        assertEquals(2, uncredited.path("characters").size());

        assertTrue(ok("mutation { uncastActor(movieId: \"tt9500041\", actorId: \"nm9500041\") }").path("uncastActor").asBoolean());
        assertFalse(ok("mutation { uncastActor(movieId: \"tt9500041\", actorId: \"nm9500041\") }").path("uncastActor").asBoolean());
        assertEquals(1, ok("{ movie(id: \"tt9500041\") { cast { edges { cursor } } } }")
                .path("movie").path("cast").path("edges").size());
    }

    @Test
    void deleteMovieRemovesTheWholeItemCollection() {
        movie("tt9500051", "Doomed", 2016);
        actor("nm9500051", "Survivor");
        cast("tt9500051", "nm9500051", 1);
        stream("tt9500051", "doomed-1", "2026-05-02T08:00:00Z");

        assertTrue(ok("mutation { deleteMovie(id: \"tt9500051\") }").path("deleteMovie").asBoolean());

        JsonNode read = ok("""
                { movie(id: "tt9500051") { title }
                  person(id: "nm9500051") { name movies { edges { cursor } } }
                  streamTotal(movieId: "tt9500051", month: "2026-05") { streams }
                  topMovies(month: "2026-05", limit: 100) { movie { id } } }""");
        assertTrue(read.path("movie").isNull());
        assertEquals("Survivor", read.path("person").path("name").asText(), "the actor is not the movie's");
        assertEquals(0, read.path("person").path("movies").path("edges").size());
        assertTrue(read.path("streamTotal").isNull());
        read.path("topMovies").forEach(entry -> assertFalse(entry.path("movie").path("id").asText().equals("tt9500051")));
        assertFalse(ok("mutation { deleteMovie(id: \"tt9500051\") }").path("deleteMovie").asBoolean());
        assertEquals("NOT_FOUND", failing("mutation { recordStream(input: {movieId: \"tt9500051\", streamId: \"doomed-2\", "
                + "at: \"2026-05-02T09:00:00Z\"}) { counted } }").firstErrorCode());
    }

    @Test
    void recordStreamCountsEachStreamIdOnceAndARetryChangesNothing() {
        movie("tt9500061", "Streamed", 2017);

        JsonNode first = stream("tt9500061", "once-1", "2026-04-30T23:59:59Z");
        JsonNode second = stream("tt9500061", "once-2", "2026-04-01T00:00:00+02:00");
        JsonNode retry = stream("tt9500061", "once-1", "2026-04-30T23:59:59Z");

        assertTrue(first.path("counted").asBoolean());
        assertEquals("2026-04", first.path("month").asText());
        assertEquals(1, first.path("total").asLong());
        assertEquals("2026-03", second.path("month").asText(), "the UTC month: 2026-03-31T22:00Z");
        assertFalse(retry.path("counted").asBoolean());
        assertEquals(1, retry.path("total").asLong());
        assertEquals(1, ok("{ streamTotal(movieId: \"tt9500061\", month: \"2026-04\") { streams } }")
                .path("streamTotal").path("streams").asLong());
    }

    @Test
    void aStreamOfAnUnknownMovieIsRefusedAndWritesNothing() {
        movie("tt9500071", "Known", 2018);

        Response unknown = failing("mutation { recordStream(input: {movieId: \"tt9500079\", streamId: \"orphan-1\", "
                + "at: \"2026-02-02T10:00:00Z\"}) { counted } }");

        assertEquals("NOT_FOUND", unknown.firstErrorCode());
        assertTrue(stream("tt9500071", "orphan-1", "2026-02-02T10:00:00Z").path("counted").asBoolean(),
                "the refused stream id was not stored");
    }

    @Test
    void readingAMoviesCollectionNeverReadsItsStreams() {
        movie("tt9500081", "Popular", 2019);
        actor("nm9500081", "Star");
        cast("tt9500081", "nm9500081", 1);
        stream("tt9500081", "popular-0", "2026-01-05T10:00:00Z");
        String query = "{ movie(id: \"tt9500081\") { title cast { edges { cursor } } streamTotals { streams } } }";
        Response before = server.client().traced("on", query, Map.of());

        for (int i = 1; i <= 40; i++) {
            stream("tt9500081", "popular-" + i, "2026-01-05T10:00:00Z");
        }
        Response after = server.client().traced("on", query, Map.of());

        assertEquals(41, after.data().path("movie").path("streamTotals").get(0).path("streams").asLong());
        JsonNode call = after.body().path("extensions").path("trace").path("calls").get(0);
        assertEquals("table", call.path("index").asText(), "the base table holds the cast and the totals");
        assertTrue(call.path("pattern").asText().contains("CAST") && call.path("pattern").asText().contains("TOTALS"), call.toString());
        assertEquals(3, call.path("items").asInt(), "the movie, one cast item, one total: no stream item");
        assertEquals(before.body().path("extensions").path("cost").path("readUnits").asDouble(),
                after.body().path("extensions").path("cost").path("readUnits").asDouble(), "41 streams later");
    }

    @Test
    void putMovieReadsTheTotalsOnlyWhenTheTitleTheyCopyChanges() {
        movie("tt9500101", "Many Months", 2018);
        for (int month = 1; month <= 24; month++) {
            stream("tt9500101", "months-" + month, YearMonth.of(2011, 1).plusMonths(month - 1) + "-05T10:00:00Z");
        }
        String put = "mutation($t: String!) { putMovie(input: {id: \"tt9500101\", title: $t, year: 2018, "
                + "genres: [\"Drama\"]}) { id } }";

        Response same = server.client().traced("on", put, Map.of("t", "Many Months"));
        Response renamed = server.client().traced("on", put, Map.of("t", "Many More Months"));

        double sameUnits = same.body().path("extensions").path("cost").path("readUnits").asDouble();
        double renameUnits = renamed.body().path("extensions").path("cost").path("readUnits").asDouble();
        assertTrue(same.errors().isMissingNode() && renamed.errors().isMissingNode(), renamed.raw().body());
        assertTrue(sameUnits < renameUnits, "the same title reads less than a rename: " + sameUnits + " vs " + renameUnits);
        assertTrue(queriedItems(renamed) - queriedItems(same) >= 24, "a put keeping the title read no total: "
                + queriedItems(same) + " items, a rename " + queriedItems(renamed));
        JsonNode totals = ok("{ movie(id: \"tt9500101\") { streamTotals(from: \"2011-01\", to: \"2012-12\") { month movie { title } } } }")
                .path("movie").path("streamTotals");
        assertEquals(24, totals.size(), totals.toString());
        for (JsonNode total : totals) {
            assertEquals("Many More Months", total.path("movie").path("title").asText(), "every total's copy is renamed");
        }
    }

    private static int queriedItems(Response traced) {
        int items = 0;
        for (JsonNode call : traced.body().path("extensions").path("trace").path("calls")) {
            items += call.path("operation").asText().equals("Query") ? call.path("items").asInt() : 0;
        }
        return items;
    }

    @Test
    void aTitleOverTwoHundredCharactersIsRefused() {
        Response response = server.client().query("mutation($t: String!) { putMovie(input: {id: \"tt9500092\", title: $t}) { id } }",
                Map.of("t", "x".repeat(201)));

        assertEquals("BAD_USER_INPUT", response.firstErrorCode());
        assertTrue(response.errors().get(0).path("message").asText().contains("at most 200 characters, got 201"));
        assertTrue(ok("{ movie(id: \"tt9500092\") { id } }").path("movie").isNull());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "empty title|mutation { putMovie(input: {id: \"tt9500091\", title: \" \"}) { id } }|title must not be empty",
            "year|mutation { putMovie(input: {id: \"tt9500091\", title: \"T\", year: 1500}) { id } }|'year' must be between",
            "bad movie id|mutation { putMovie(input: {id: \"9500091\", title: \"T\"}) { id } }|9500091",
            "bad actor id|mutation { putPerson(input: {id: \"tt9500091\", name: \"N\"}) { id } }|tt9500091",
            "empty name|mutation { putPerson(input: {id: \"nm9500091\", name: \"\"}) { id } }|name must not be empty",
            "billing 0|mutation { castActor(movieId: \"tt0111161\", actorId: \"nm0000209\", billing: 0) { billing } }|'billing' must be between 1",
            "too many characters|mutation { castActor(movieId: \"tt0111161\", actorId: \"nm0000209\", characters: "
                    + "[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\",\"o\",\"p\",\"q\",\"r\",\"s\",\"t\",\"u\"]) "
                    + "{ billing } }|at most 20 entries",
            "future stream|mutation { recordStream(input: {movieId: \"tt0111161\", streamId: \"future-1\", at: \"2099-01-01T00:00:00Z\"}) "
                    + "{ counted } }|must not be in the future",
            "bad stream id|mutation { recordStream(input: {movieId: \"tt0111161\", streamId: \"has space\", at: \"2024-01-01T00:00:00Z\"}) "
                    + "{ counted } }|streamId must be"})
    void badInputIsAClearErrorAndWritesNothing(String name, String mutation, String message) {
        Response response = failing(mutation);

        assertEquals("BAD_USER_INPUT", response.firstErrorCode(), response.raw().body());
        assertTrue(response.errors().get(0).path("message").asText().contains(message), response.raw().body());
        assertTrue(ok("{ movie(id: \"tt9500091\") { id } }").path("movie").isNull());
    }
}
