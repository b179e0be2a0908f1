package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Relay's object identification over HTTP against the embedded engine: {@code node(id)} and
 * {@code nodes(ids)} answer movies and people by their IMDb ids, read exactly as {@code movie},
 * {@code person} and {@code movies} read them (checked against the sample, and counted in DynamoDB
 * requests as the SDK sends them).
 */
class RelayNodeTest {
    private static final String SHAWSHANK = "tt0111161";
    private static final String ROBBINS = "nm0000209";
    private static final String UNKNOWN_MOVIE = "tt9999999";
    private static final String NO_KIND = "co0000001";
    private static final String MOVIE_WITH_CREW = "... on Movie { title cast(first: 3) { edges { node { person { name } } } }"
            + " directors { person { name } } }";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    private record Run(Response response, List<String> operations) {
        JsonNode data() {
            return response.data();
        }
    }

    private Run send(String query, Map<String, Object> variables) {
        server.counter().reset();
        Response response = server.client().query(query, variables);
        List<String> operations = server.counter().operations();
        assertEquals(200, response.status(), response.raw().body());
        assertFalse(operations.contains("Scan"), "a resolver scanned the table");
        return new Run(response, operations);
    }

    /** A run that must answer without errors. */
    private Run run(String query, Map<String, Object> variables) {
        Run run = send(query, variables);
        assertTrue(run.response().errors().isMissingNode(), () -> "unexpected errors: " + run.response().errors());
        return run;
    }

    private Movie movie(String id) {
        return sample.movies().stream().filter(m -> m.id().value().equals(id)).findFirst().orElseThrow();
    }

    private Person person(String id) {
        return sample.people().stream().filter(p -> p.id().value().equals(id)).findFirst().orElseThrow();
    }

    private List<String> names(List<Credit> credits) {
        return credits.stream().map(Credit::personName).toList();
    }

    /** {@code node(id)} with {@code fields} selected on {@code type}: of that type, with that id, in one GetItem. */
    private JsonNode node(String id, String type, String fields) {
        Run run = run("query($id: ID!) { node(id: $id) { __typename id ... on %s { %s } } }".formatted(type, fields),
                Map.of("id", id));
        JsonNode node = run.data().path("node");
        assertEquals(type, node.path("__typename").asText());
        assertEquals(id, node.path("id").asText());
        assertEquals(List.of("GetItem"), run.operations());
        return node;
    }

    @Test
    void aMovieIdIsAMovieNodeReadWithOneGetItem() {
        JsonNode node = node(SHAWSHANK, "Movie", "title year");
        assertEquals(movie(SHAWSHANK).title(), node.path("title").asText());
        assertEquals(movie(SHAWSHANK).year(), node.path("year").asInt());
    }

    @Test
    void aPersonIdIsAPersonNodeReadWithOneGetItem() {
        JsonNode node = node(ROBBINS, "Person", "name birthYear");
        assertEquals(person(ROBBINS).name(), node.path("name").asText());
        assertEquals(person(ROBBINS).birthYear(), node.path("birthYear").asInt());
    }

    @Test
    void aNodeIsKeptByCachesAsLongAsAMovie() {
        Run run = run("query($id: ID!) { node(id: $id) { id ... on Movie { title } } }", Map.of("id", SHAWSHANK));
        assertEquals("max-age=300, public", run.response().raw().headers().firstValue("Cache-Control").orElse(""));
    }

    @ParameterizedTest
    @ValueSource(strings = {UNKNOWN_MOVIE, "nm9999999"})
    void aWellFormedUnknownIdIsNull(String id) {
        Run run = run("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id));
        assertTrue(run.data().has("node"));
        assertTrue(run.data().path("node").isNull(), run.data().toString());
        assertEquals(List.of("GetItem"), run.operations(), "the id was looked up");
    }

    @ParameterizedTest
    @ValueSource(strings = {NO_KIND, "", "TT0111161", "TW92aWU6MQ==", "0111161"})
    void anIdOfNoKnownKindIsNullWithoutErrorOrRead(String id) {
        Run run = run("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id));
        assertTrue(run.data().has("node"));
        assertTrue(run.data().path("node").isNull(), run.data().toString());
        assertEquals(List.of(), run.operations(), "nothing to read for an id of no known kind");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tt011116", "tt0111161; DROP", "nm", "nm0000209x"})
    void aMalformedIdOfAKnownKindIsABadUserInputErrorAsInMovieAndPerson(String id) {
        Run run = send("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id));
        assertEquals("BAD_USER_INPUT", run.response().firstErrorCode());
        String kind = id.startsWith("tt") ? "is not a movie id" : "is not a person id";
        assertTrue(run.response().errors().path(0).path("message").asText().contains(kind),
                run.response().errors().toString());
        assertEquals("node", run.response().errors().path(0).path("path").path(0).asText());
        assertTrue(run.data().path("node").isNull());
        assertEquals(List.of(), run.operations(), "nothing was read for a malformed id");
    }

    @Test
    void nodesAreInTheOrderAskedWithNullsAndCostOneBatchGetItem() {
        List<String> ids = List.of(SHAWSHANK, ROBBINS, UNKNOWN_MOVIE, NO_KIND);
        Run run = run("query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Movie { title } ... on Person { name } } }",
                Map.of("ids", ids));
        JsonNode nodes = run.data().path("nodes");
        assertEquals(4, nodes.size());
        assertEquals("Movie", nodes.path(0).path("__typename").asText());
        assertEquals(SHAWSHANK, nodes.path(0).path("id").asText());
        assertEquals(movie(SHAWSHANK).title(), nodes.path(0).path("title").asText());
        assertEquals("Person", nodes.path(1).path("__typename").asText());
        assertEquals(ROBBINS, nodes.path(1).path("id").asText());
        assertEquals(person(ROBBINS).name(), nodes.path(1).path("name").asText());
        assertTrue(nodes.path(2).isNull(), "unknown movie gives null in place");
        assertTrue(nodes.path(3).isNull(), "an id of no known kind gives null in place");
        assertEquals(List.of("BatchGetItem"), run.operations());
    }

    @Test
    void nodesRefuseMalformedIdsAndMoreThanAHundredAsMoviesDoes() {
        Run malformed = send("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", Map.of("ids", List.of(SHAWSHANK, "tt1")));
        assertEquals("BAD_USER_INPUT", malformed.response().firstErrorCode());
        assertTrue(malformed.response().errors().path(0).path("message").asText().contains("is not a movie id"));
        assertEquals(List.of(), malformed.operations());

        Run many = send("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
                Map.of("ids", Collections.nCopies(101, SHAWSHANK)));
        assertEquals("BAD_USER_INPUT", many.response().firstErrorCode());
        assertTrue(many.response().errors().path(0).path("message").asText().contains("At most 100 ids"));
        assertEquals(List.of(), many.operations());
    }

    @Test
    void aMovieNodeWithItsCastAndDirectorsIsOneQueryAsMovieIs() {
        List<Credit> cast = sample.cast().stream().filter(c -> c.movieId().value().equals(SHAWSHANK))
                .sorted(Comparator.comparing((Credit c) -> c.position() == null ? Integer.MAX_VALUE : c.position())
                        .thenComparing(c -> c.personId().value()))
                .limit(3).toList();
        List<Credit> directors = sample.credits().stream()
                .filter(c -> c.movieId().value().equals(SHAWSHANK) && c.role() == Role.DIRECTOR)
                .sorted(Comparator.comparing(Credit::position)).toList();

        Run asNode = run("query($id: ID!) { node(id: $id) { id " + MOVIE_WITH_CREW + " } }", Map.of("id", SHAWSHANK));
        JsonNode node = asNode.data().path("node");
        assertEquals(movie(SHAWSHANK).title(), node.path("title").asText());
        assertEquals(3, cast.size());
        assertEquals(names(cast), node.path("cast").path("edges").findValuesAsText("name"));
        assertEquals(names(directors), node.path("directors").findValuesAsText("name"));
        assertEquals(List.of("Query"), asNode.operations(), "the movie, its cast page and crew in one collection Query");

        Run asMovie = run("query($id: ID!) { node: movie(id: $id) { id " + MOVIE_WITH_CREW + " } }", Map.of("id", SHAWSHANK));
        assertEquals(asMovie.data(), asNode.data());
        assertEquals(asMovie.operations(), asNode.operations());
    }

    @Test
    void aPersonNodeWithAFilmographyPageIsOneIndexQueryAsPersonIs() {
        String query = "query($id: ID!) { %s(id: $id) { ... on Person { name movies(first: 3) { edges { node { movie { title } } } } } } }";
        String busiest = sample.cast().stream().collect(Collectors.groupingBy(c -> c.personId().value(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .orElseThrow().getKey();
        Run asNode = run(query.formatted("node"), Map.of("id", busiest));
        JsonNode node = asNode.data().path("node");
        assertEquals(person(busiest).name(), node.path("name").asText());
        assertEquals(3, node.path("movies").path("edges").size());
        assertEquals(List.of("Query"), asNode.operations(), "the person and a page of their credits in one Query");

        Run asPerson = run(query.formatted("person"), Map.of("id", busiest));
        assertEquals(asPerson.data().path("person"), node);
        assertEquals(asPerson.operations(), asNode.operations());
    }

    @Test
    void nodesWithCastsCostWhatMoviesCosts() {
        List<String> ids = sample.movies().stream().skip(100).limit(5).map(m -> m.id().value()).toList();
        Run run = run("query($ids: [ID!]!) { nodes(ids: $ids) { ... on Movie { title cast(first: 2) { edges { node { person { name } } } } } } }",
                Map.of("ids", ids));
        JsonNode nodes = run.data().path("nodes");
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(movie(ids.get(i)).title(), nodes.path(i).path("title").asText());
            assertFalse(nodes.path(i).path("cast").path("edges").isEmpty());
        }
        // A first cast page of up to five is copied on the movie item: the nodes with it, one BatchGetItem.
        assertEquals(List.of("BatchGetItem"), run.operations());
        Run longer = run("query($ids: [ID!]!) { nodes(ids: $ids) { ... on Movie { title cast(first: 6) { edges { node { person { name } } } } } } }",
                Map.of("ids", ids));
        assertEquals(Collections.nCopies(ids.size(), "Query"), longer.operations(), "past the copy: a Query per movie");
    }
}
