package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** Cursors walk whole lists in the promised order, one Query per page; edited or foreign cursors are refused. */
class PaginationTest {
    private static final String CAST_PAGE = "query($id: ID!, $first: Int, $after: String) { movie(id: $id) { "
            + "cast(first: $first, after: $after) { edges { cursor node { billing person { name } } } "
            + "pageInfo { hasNextPage endCursor } } } }";
    private static final String FILM_PAGE = "query($id: ID!, $first: Int, $after: String) { person(id: $id) { "
            + "movies(first: $first, after: $after) { edges { cursor node { movie { id title } } } "
            + "pageInfo { hasNextPage endCursor } } } }";

    private final TestServer server = TestServer.get();

    private Response run(String query, String id, int first, String after) {
        Map<String, Object> variables = new HashMap<>();
        variables.put("id", id);
        variables.put("first", first);
        variables.put("after", after);
        server.counter().reset();
        return server.client().traced("on", query, variables);
    }

    @Test
    void pageInfoIsRelaysStartCursorFirstEdgeEndCursorLastAndNoPreviousPageForwardOnly() {
        String query = "query($id: ID!, $after: String) { movie(id: $id) { cast(first: 2, after: $after) {"
                + " edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }";
        String after = null;
        int pages = 0;
        do {
            Map<String, Object> variables = new HashMap<>();
            variables.put("id", movieWithLargestCast());
            variables.put("after", after);
            JsonNode cast = server.client().query(query, variables).data().path("movie").path("cast");
            JsonNode edges = cast.path("edges");
            JsonNode pageInfo = cast.path("pageInfo");
            assertEquals(edges.get(0).path("cursor"), pageInfo.path("startCursor"), cast.toString());
            assertEquals(edges.get(edges.size() - 1).path("cursor"), pageInfo.path("endCursor"), cast.toString());
            // Relay's spec lets first/after paging answer false even after a cursor.
            assertFalse(pageInfo.path("hasPreviousPage").asBoolean(true), cast.toString());
            after = pageInfo.path("hasNextPage").asBoolean() ? pageInfo.path("endCursor").asText() : null;
            pages++;
        } while (after != null);
        assertTrue(pages > 1, "the largest cast takes more than one page of 2");

        JsonNode empty = server.client().query("{ search(query: \"qqqxzz\") { edges { cursor }"
                + " pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }").data().path("search");
        assertEquals("{\"edges\":[],\"pageInfo\":{\"hasNextPage\":false,\"hasPreviousPage\":false,"
                + "\"startCursor\":null,\"endCursor\":null}}", empty.toString());
    }

    @Test
    void castPagesWalkTheWholeCastTopBilledFirst() {
        String movieId = movieWithLargestCast();
        List<Credit> expected = server.sample().cast().stream().filter(c -> c.movieId().value().equals(movieId))
                .sorted(Comparator.comparing((Credit c) -> c.position() == null ? Integer.MAX_VALUE : c.position())
                        .thenComparing(c -> c.personId().value()))
                .toList();
        List<String> names = new ArrayList<>();
        String after = null;
        int pages = 0;
        while (true) {
            Response response = run(CAST_PAGE, movieId, 3, after);
            assertTrue(response.errors().isMissingNode(), response.errors().toString());
            String page = after;
            assertPageCost(after, response, () -> run(CAST_PAGE, movieId, 3, page));
            JsonNode cast = response.data().path("movie").path("cast");
            cast.path("edges").forEach(edge -> names.add(edge.path("node").path("person").path("name").asText()));
            pages++;
            if (!cast.path("pageInfo").path("hasNextPage").asBoolean()) {
                break;
            }
            after = cast.path("pageInfo").path("endCursor").asText();
            assertEquals(after, cast.path("edges").path(cast.path("edges").size() - 1).path("cursor").asText());
        }
        assertEquals(expected.stream().map(Credit::personName).toList(), names);
        assertEquals((expected.size() + 2) / 3, pages, "hasNextPage is exact: no empty last page");
    }

    @Test
    void filmographyPagesWalkEveryMovieOfAnActorNewestFirst() {
        String actorId = server.sample().cast().stream()
                .collect(Collectors.groupingBy(c -> c.personId().value(), Collectors.counting()))
                .entrySet().stream().filter(e -> e.getValue() > 25).map(Map.Entry::getKey).sorted().findFirst().orElseThrow();
        // Newest first: year descending, then title, unknown years last.
        List<String> expected = server.sample().cast().stream().filter(c -> c.personId().value().equals(actorId))
                .sorted(Comparator.comparing((Credit c) -> c.movieYear() == null ? Integer.MIN_VALUE : c.movieYear(),
                                Comparator.reverseOrder())
                        .thenComparing(Credit::movieTitle).thenComparing(c -> c.movieId().value()))
                .map(c -> c.movieId().value()).toList();
        List<String> seen = new ArrayList<>();
        String after = null;
        do {
            Response response = run(FILM_PAGE, actorId, 10, after);
            assertTrue(response.errors().isMissingNode(), response.errors().toString());
            String page = after;
            assertPageCost(after, response, () -> run(FILM_PAGE, actorId, 10, page));
            JsonNode movies = response.data().path("person").path("movies");
            movies.path("edges").forEach(edge -> seen.add(edge.path("node").path("movie").path("id").asText()));
            after = movies.path("pageInfo").path("hasNextPage").asBoolean()
                    ? movies.path("pageInfo").path("endCursor").asText() : null;
        } while (after != null);
        assertEquals(expected, seen);
    }

    @Test
    void anEditedCursorIsRefused() {
        String cursor = run(CAST_PAGE, "tt0111161", 1, null).data().path("movie").path("cast").path("pageInfo")
                .path("endCursor").asText();
        char last = cursor.charAt(cursor.length() - 1);
        String edited = cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A');
        for (String bad : List.of(edited, "not-a-cursor", "abc.def", cursor.substring(1), "")) {
            Response response = run(CAST_PAGE, "tt0111161", 1, bad);
            assertEquals("BAD_USER_INPUT", response.firstErrorCode(), bad);
            assertTrue(response.errors().path(0).path("message").asText().startsWith("Invalid cursor"));
            assertFalse(server.counter().operations().contains("Query"), "no page is read with a bad cursor");
            assertFalse(response.raw().body().contains("Exception"));
        }
    }

    @Test
    void aCursorOfAnotherListIsRefused() {
        String castCursor = run(CAST_PAGE, "tt0111161", 1, null).data().path("movie").path("cast").path("pageInfo")
                .path("endCursor").asText();
        Response otherMovie = run(CAST_PAGE, "tt0068646", 1, castCursor);
        assertEquals("BAD_USER_INPUT", otherMovie.firstErrorCode());
        assertTrue(otherMovie.errors().path(0).path("message").asText().contains("another list"));

        Response asFilmography = run(FILM_PAGE, "nm0000209", 1, castCursor);
        assertEquals("BAD_USER_INPUT", asFilmography.firstErrorCode());
    }

    /**
     * A first page comes with its parent in one request: the parent item alone when the page is no longer
     * than the first-billed cast it copies, else one Query of both. A later page cannot (the parent item
     * sorts before every entry), so the parent's GetItem and the page's Query go out together.
     */
    private void assertPageCost(String after, Response response, java.util.function.Supplier<Response> again) {
        List<String> operations = server.counter().operations();
        if (after == null) {
            assertEquals(1, operations.size(), operations.toString());
        } else {
            assertEquals(2, operations.size(), operations.toString());
            assertTrue(operations.containsAll(List.of("Query", "GetItem")), operations.toString());
            // Sent together: the page's Query starts before the parent's GetItem has come back (the two
            // are issued by the same code, microseconds apart). Sequential code never overlaps; concurrent code
            // can miss when the machine is busy, since the engine on loopback answers a GetItem in well under a
            // millisecond and a pause that long between the two sends is enough, so the same page is read up
            // to ten times.
            JsonNode calls = response.body().path("extensions").path("trace").path("calls");
            for (int attempt = 1; !overlap(calls) && attempt < 10; attempt++) {
                calls = again.get().body().path("extensions").path("trace").path("calls");
            }
            assertTrue(overlap(calls), "the parent and the page are read at the same time: " + calls);
        }
    }

    private static boolean overlap(JsonNode calls) {
        assertEquals(2, calls.size(), calls.toString());
        JsonNode first = calls.get(0);
        JsonNode second = calls.get(1);
        return second.path("startMs").asDouble() < first.path("startMs").asDouble() + first.path("durationMs").asDouble();
    }

    private String movieWithLargestCast() {
        return server.sample().cast().stream()
                .collect(Collectors.groupingBy(c -> c.movieId().value(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .orElseThrow().getKey();
    }
}
