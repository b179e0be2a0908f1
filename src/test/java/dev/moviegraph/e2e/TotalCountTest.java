package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.TestServer.Counted;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * totalCount on the cast and filmography connections: what the sample has, read with the movie or person
 * item at no extra request, and exact after every credit mutation and a movie's delete.
 */
class TotalCountTest {
    private static final String SHAWSHANK = "tt0111161";
    private static final String DARABONT = "nm0001104";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    private long count(Role role, java.util.function.Predicate<Credit> of) {
        return sample.credits().stream().filter(credit -> credit.role() == role).filter(of).count();
    }

    @Test
    void aMoviesCastIsCountedInTheSameRequestAsItsFirstPage() {
        // Two: the movie item's copy of its first-billed cast (one GetItem); ten: its collection (one Query).
        for (int first : List.of(2, 10)) {
            String query = "{ movie(id: \"" + SHAWSHANK + "\") { title cast(first: " + first + ") { %s edges { cursor } } } }";
            Counted counted = server.counted(query.formatted("totalCount"));
            assertEquals(count(Role.CAST, c -> c.movieId().value().equals(SHAWSHANK)),
                    counted.data().path("movie").path("cast").path("totalCount").asLong());
            assertEquals(server.counted(query.formatted("")).operations(), counted.operations(), "no extra request");
            assertEquals(List.of(first == 2 ? "GetItem" : "Query"), counted.operations());
        }
    }

    @Test
    void aPersonsListsAreCountedWithThePerson() {
        String query = "{ person(id: \"" + DARABONT + "\") { name movies(first: 1) { %1$s edges { cursor } }"
                + " directed(first: 1) { %1$s edges { cursor } } wrote(first: 1) { %1$s edges { cursor } } } }";
        Counted counted = server.counted(query.formatted("totalCount"));
        JsonNode person = counted.data().path("person");
        java.util.function.Predicate<Credit> his = c -> c.personId().value().equals(DARABONT);
        assertEquals(count(Role.CAST, his), person.path("movies").path("totalCount").asLong());
        assertEquals(count(Role.DIRECTOR, his), person.path("directed").path("totalCount").asLong());
        assertEquals(count(Role.WRITER, his), person.path("wrote").path("totalCount").asLong());
        assertTrue(person.path("wrote").path("totalCount").asLong() > 0);
        assertEquals(server.counted(query.formatted("")).operations().size(), counted.operations().size(), "no extra request");
    }

    /** The read budget's planning run counts too: its stand-in lists have a count, so a plan has no error. */
    @Test
    void aPlanOfACountedQueryHasNoError() {
        Response plan = server.client().traced("plan", "{ person(id: \"" + DARABONT + "\") { movies(first: 2) {"
                + " totalCount } } movie(id: \"" + SHAWSHANK + "\") { cast { totalCount } } }", java.util.Map.of());
        assertEquals(200, plan.status(), plan.raw().body());
        assertTrue(plan.errors().isMissingNode(), plan.raw().body());
        assertEquals(2, plan.body().path("extensions").path("plan").path("calls").asInt(), plan.raw().body());
    }

    @Test
    void listsUnderAListAreCountedWithTheirOwnersInTheSameRound() {
        String query = "{ movie(id: \"" + SHAWSHANK + "\") { cast(first: 3) { edges { node { person { id"
                + " movies(first: 1) { %s edges { cursor } } } } } } } }";
        Counted counted = server.counted(query.formatted("totalCount"));
        assertEquals(server.counted(query.formatted("")).operations(), counted.operations(), "no extra request");
        for (JsonNode edge : counted.data().path("movie").path("cast").path("edges")) {
            String id = edge.path("node").path("person").path("id").asText();
            assertEquals(count(Role.CAST, c -> c.personId().value().equals(id)),
                    edge.path("node").path("person").path("movies").path("totalCount").asLong(), id);
        }
    }

    @Test
    void everyCreditWriteKeepsTheCountsExact() {
        ok("mutation { putMovie(input: {id: \"tt9640001\", title: \"Count Probe\"}) { id } }");
        ok("mutation { putPerson(input: {id: \"nm9640001\", name: \"Count Prober\"}) { id } }");
        assertCounts(0, 0, 0, 0);
        ok("mutation { castActor(movieId: \"tt9640001\", actorId: \"nm9640001\", billing: 1) { billing } }");
        assertCounts(1, 1, 0, 0);
        ok("mutation { castActor(movieId: \"tt9640001\", actorId: \"nm9640001\", billing: 2) { billing } }");
        assertCounts(1, 1, 0, 0);
        ok("mutation { creditCrew(movieId: \"tt9640001\", personId: \"nm9640001\", role: DIRECTOR) { position } }");
        ok("mutation { creditCrew(movieId: \"tt9640001\", personId: \"nm9640001\", role: WRITER) { position } }");
        assertCounts(1, 1, 1, 1);
        ok("mutation { putMovie(input: {id: \"tt9640001\", title: \"Count Probe II\"}) { id } }");
        ok("mutation { putPerson(input: {id: \"nm9640001\", name: \"Count Prober Jr\"}) { id } }");
        assertCounts(1, 1, 1, 1);
        ok("mutation { uncastActor(movieId: \"tt9640001\", actorId: \"nm9640001\") }");
        ok("mutation { uncastActor(movieId: \"tt9640001\", actorId: \"nm9640001\") }");
        assertCounts(0, 0, 1, 1);
        ok("mutation { castActor(movieId: \"tt9640001\", actorId: \"nm9640001\") { billing } }");
        ok("mutation { deleteMovie(id: \"tt9640001\") }");
        assertEquals(List.of(0, 0, 0), personCounts(), "a deleted movie's credits are no longer counted on its people");
    }

    /** The probe person's acted, directed and wrote counts. */
    private List<Integer> personCounts() {
        JsonNode person = server.counted("{ person(id: \"nm9640001\") { movies { totalCount } directed { totalCount }"
                + " wrote { totalCount } } }").data().path("person");
        return List.of(person.path("movies").path("totalCount").asInt(), person.path("directed").path("totalCount").asInt(),
                person.path("wrote").path("totalCount").asInt());
    }

    private void assertCounts(int cast, int acted, int directed, int wrote) {
        JsonNode movie = server.counted("{ movie(id: \"tt9640001\") { cast { totalCount edges { cursor } } } }").data().path("movie");
        assertEquals(cast, movie.path("cast").path("totalCount").asInt(), "cast");
        assertEquals(cast, movie.path("cast").path("edges").size(), "the count is the list's length");
        assertEquals(List.of(acted, directed, wrote), personCounts(), "acted, directed, wrote");
    }

    private void ok(String mutation) {
        Response response = server.client().query(mutation);
        assertTrue(response.errors().isMissingNode(), response.raw().body());
    }
}
