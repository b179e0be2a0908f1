package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.TestServer.Counted;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * People, directors and writers end to end on the real server: what each shape returns (checked
 * against the sample), in which order, what it costs in DynamoDB requests, and the crew mutations.
 */
class PeopleAndCrewTest {
    private static final String SHAWSHANK = "tt0111161";
    private static final String DARABONT = "nm0001104";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();

    private Counted run(String query) {
        return server.counted(query);
    }

    private List<String> ids(JsonNode list, String field) {
        List<String> ids = new ArrayList<>();
        list.forEach(node -> ids.add(node.path(field).path("id").asText()));
        return ids;
    }

    private List<String> crew(String movieId, Role role) {
        return sample.credits().stream()
                .filter(credit -> credit.movieId().value().equals(movieId) && credit.role() == role)
                .sorted(Comparator.comparing(Credit::position))
                .map(credit -> credit.personId().value()).toList();
    }

    @Test
    void movieWithCastDirectorsAndWritersIsOneQuery() {
        Counted run = run("{ movie(id: \"" + SHAWSHANK + "\") { title cast(first: 2) { edges { node { person { name } } } }"
                + " directors { person { id name } position } writers { person { id name } } } }");
        assertEquals(List.of("Query"), run.operations());
        JsonNode movie = run.data().path("movie");
        assertEquals(List.of(DARABONT), ids(movie.path("directors"), "person"));
        assertEquals("Frank Darabont", movie.path("directors").get(0).path("person").path("name").asText());
        assertEquals(crew(SHAWSHANK, Role.WRITER), ids(movie.path("writers"), "person"));
        assertEquals(List.of("nm0000175", DARABONT), ids(movie.path("writers"), "person"), "credit order");
        assertEquals(2, movie.path("cast").path("edges").size());
        assertEquals("Tim Robbins", movie.path("cast").path("edges").get(0).path("node").path("person").path("name").asText());
    }

    @Test
    void everyMovieOfAListGetsItsOwnCrewInCreditOrder() {
        List<Movie> movies = sample.movies().subList(3, 13);
        String ids = movies.stream().map(m -> "\"" + m.id().value() + "\"").collect(Collectors.joining(","));
        Counted run = run("{ movies(ids: [" + ids + "]) { id directors { person { id } } writers { person { id } } } }");
        assertEquals(movies.size(), run.operations().size(), "one Query per movie: " + run.operations());
        for (int i = 0; i < movies.size(); i++) {
            JsonNode movie = run.data().path("movies").get(i);
            String id = movies.get(i).id().value();
            assertEquals(crew(id, Role.DIRECTOR), ids(movie.path("directors"), "person"), id);
            assertEquals(crew(id, Role.WRITER), ids(movie.path("writers"), "person"), id);
        }
    }

    /** Newest first: year descending, then title, unknown years last. */
    private List<String> filmography(String personId, Role role) {
        Comparator<Credit> newestFirst = Comparator.comparing((Credit c) -> c.movieYear() == null ? Integer.MIN_VALUE
                        : c.movieYear(), Comparator.reverseOrder())
                .thenComparing(Credit::movieTitle).thenComparing(c -> c.movieId().value());
        return sample.credits().stream().filter(c -> c.personId().value().equals(personId) && c.role() == role)
                .sorted(newestFirst).map(c -> c.movieId().value()).toList();
    }

    private String busiestActor() {
        return sample.cast().stream().collect(Collectors.groupingBy(c -> c.personId().value(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    @Test
    void aFilmographyIsNewestFirstAndPagesExactlyOneQueryAPage() {
        String person = busiestActor();
        List<String> expected = filmography(person, Role.CAST);
        assertTrue(expected.size() > 6, "material for paging: " + expected.size());
        List<String> seen = new ArrayList<>();
        String after = null;
        boolean hasNext = true;
        int pages = 0;
        while (hasNext) {
            Counted run = run("{ person(id: \"" + person + "\") { movies(first: 4" + (after == null ? "" : ", after: \"" + after + "\"")
                    + ") { edges { node { movie { id year } } } pageInfo { hasNextPage endCursor } } } }");
            JsonNode movies = run.data().path("person").path("movies");
            // the first page comes with the person item in one Query; a later page reads the person beside it
            assertEquals(after == null ? List.of("Query") : List.of("GetItem", "Query"),
                    run.operations().stream().sorted().toList());
            movies.path("edges").forEach(edge -> seen.add(edge.path("node").path("movie").path("id").asText()));
            hasNext = movies.path("pageInfo").path("hasNextPage").asBoolean();
            after = movies.path("pageInfo").path("endCursor").asText();
            pages++;
        }
        assertEquals(expected, seen, "every credit once, newest first");
        assertEquals((expected.size() + 3) / 4, pages, "hasNextPage exact");
    }

    @Test
    void directedAndWroteAreNewestFirstOneQueryEach() {
        String director = sample.credits().stream().filter(c -> c.role() == Role.DIRECTOR)
                .collect(Collectors.groupingBy(c -> c.personId().value(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        Counted run = run("{ person(id: \"" + director + "\") { directed(first: 100) { edges { node { movie { id } role position } } } } }");
        // the person item and the directed list: a GetItem beside the Query, issued together
        assertEquals(List.of("GetItem", "Query"), run.operations().stream().sorted().toList());
        List<String> directed = new ArrayList<>();
        run.data().path("person").path("directed").path("edges").forEach(edge -> {
            directed.add(edge.path("node").path("movie").path("id").asText());
            assertEquals("DIRECTOR", edge.path("node").path("role").asText());
        });
        assertEquals(filmography(director, Role.DIRECTOR), directed);

        Counted listOnly = run("{ movie(id: \"" + SHAWSHANK + "\") { directors { person { wrote(first: 10) { edges { node { movie { id title } } } } } } } }");
        assertEquals(List.of("Query", "Query"), listOnly.operations(), "the movie's crew, then the director's writing credits");
        List<String> wrote = new ArrayList<>();
        listOnly.data().path("movie").path("directors").get(0).path("person").path("wrote").path("edges")
                .forEach(edge -> wrote.add(edge.path("node").path("movie").path("id").asText()));
        assertEquals(filmography(DARABONT, Role.WRITER), wrote);
        assertTrue(wrote.contains(SHAWSHANK));
    }

    @Test
    void aPersonWhoActsInAndDirectsAMovieIsInBothLists() {
        Credit both = sample.credits().stream().filter(c -> c.role() == Role.DIRECTOR)
                .filter(c -> sample.cast().stream().anyMatch(cast -> cast.movieId().equals(c.movieId())
                        && cast.personId().equals(c.personId())))
                .findFirst().orElseThrow(() -> new AssertionError("the sample has actors who direct their movie"));
        String movie = both.movieId().value();
        Counted run = run("{ movie(id: \"" + movie + "\") { cast(first: 100) { edges { node { person { id } } } }"
                + " directors { person { id } } } }");
        List<String> cast = new ArrayList<>();
        run.data().path("movie").path("cast").path("edges").forEach(e -> cast.add(e.path("node").path("person").path("id").asText()));
        assertTrue(cast.contains(both.personId().value()));
        assertTrue(ids(run.data().path("movie").path("directors"), "person").contains(both.personId().value()));

        Counted person = run("{ person(id: \"" + both.personId().value() + "\") { movies(first: 100) { edges { node { movie { id } } } }"
                + " directed(first: 100) { edges { node { movie { id } } } } } }");
        assertTrue(person.response().raw().body().split(movie, -1).length - 1 >= 2, person.response().raw().body());
    }

    @Test
    void theRetiredActorApiIsAValidationError() {
        for (String retired : List.of("{ actor(id: \"nm0000151\") { name } }",
                "{ actors(ids: [\"nm0000151\"]) { name } }",
                "{ people(ids: [\"nm0000151\"]) { ... on Actor { name } } }",
                "{ movie(id: \"" + SHAWSHANK + "\") { cast(first: 1) { edges { node { actor { name } } } } } }",
                "mutation { putActor(input: {id: \"nm0990009\", name: \"Retired\"}) { id } }")) {
            Response response = server.client().query(retired);
            assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode(), retired);
            assertTrue(response.data().isMissingNode() || response.data().isNull(), retired);
        }
    }

    @Test
    void aPersonHasOneTypeAndIdWhereverItIsReached() {
        // Relay's store keys records by id: the same id under two __typenames corrupts it. Morgan Freeman
        // by id, in a list of ids, as a node, in a cast, in a search and on an award is one Person.
        Counted run = run("{ person(id: \"nm0000151\") { __typename id } people(ids: [\"nm0000151\"]) { __typename id }"
                + " node(id: \"nm0000151\") { __typename id }"
                + " movie(id: \"" + SHAWSHANK + "\") { cast(first: 2) { edges { node { person { __typename id } } } } }"
                + " search(query: \"morgan freeman\", types: [PERSON], first: 1) { edges { node { __typename ... on Person { id } } } }"
                + " awardWinners(award: \"Academy Award\", category: \"Best Supporting Actor\", first: 100) {"
                + " edges { node { person { __typename id } } } } }");
        JsonNode data = run.data();
        List<JsonNode> freemans = new ArrayList<>(List.of(data.path("person"), data.path("people").path(0),
                data.path("node"), data.path("movie").path("cast").path("edges").path(1).path("node").path("person"),
                data.path("search").path("edges").path(0).path("node")));
        data.path("awardWinners").path("edges").forEach(edge -> {
            if (edge.path("node").path("person").path("id").asText().equals("nm0000151")) {
                freemans.add(edge.path("node").path("person"));
            }
        });
        assertEquals(6, freemans.size(), data.toString());
        for (JsonNode freeman : freemans) {
            assertEquals("{\"__typename\":\"Person\",\"id\":\"nm0000151\"}", freeman.toString(), data.toString());
        }
        // No other type can carry a person's id: every object type with an id is a Node (Actor was not).
        JsonNode types = server.client().query("{ __schema { types { name kind fields { name } interfaces { name } } } }")
                .data().path("__schema").path("types");
        List<String> idsOutsideNode = new ArrayList<>();
        types.forEach(type -> {
            boolean hasId = false;
            for (JsonNode field : type.path("fields")) {
                hasId |= field.path("name").asText().equals("id");
            }
            if (type.path("kind").asText().equals("OBJECT") && hasId
                    && !type.path("interfaces").toString().contains("\"Node\"")) {
                idsOutsideNode.add(type.path("name").asText());
            }
        });
        assertEquals(List.of(), idsOutsideNode);
    }

    private JsonNode mutate(String mutation) {
        Response response = server.client().query(mutation);
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.errors());
        return response.data();
    }

    @Test
    void crewMutationsCreditInOrderUncreditAndKeepCopiesTrue() {
        String movie = "tt0990001";
        String first = "nm0990001";
        String second = "nm0990002";
        mutate("mutation { putMovie(input: {id: \"" + movie + "\", title: \"Crew Test\", year: 2001}) { id } }");
        mutate("mutation { a: putPerson(input: {id: \"" + first + "\", name: \"First Director\"}) { id }"
                + " b: putPerson(input: {id: \"" + second + "\", name: \"Second Director\"}) { id } }");
        JsonNode credited = mutate("mutation { a: creditCrew(movieId: \"" + movie + "\", personId: \"" + second
                + "\", role: DIRECTOR) { role position person { name } movie { title } } }");
        assertEquals("DIRECTOR", credited.path("a").path("role").asText());
        assertEquals(1, credited.path("a").path("position").asInt());
        assertEquals("Second Director", credited.path("a").path("person").path("name").asText());
        assertEquals(2, mutate("mutation { creditCrew(movieId: \"" + movie + "\", personId: \"" + first
                + "\", role: DIRECTOR) { position } }").path("creditCrew").path("position").asInt());
        assertEquals(2, mutate("mutation { creditCrew(movieId: \"" + movie + "\", personId: \"" + first
                + "\", role: DIRECTOR) { position } }").path("creditCrew").path("position").asInt(),
                "credited again: keeps its place");
        mutate("mutation { creditCrew(movieId: \"" + movie + "\", personId: \"" + first + "\", role: WRITER) { position } }");

        JsonNode read = run("{ movie(id: \"" + movie + "\") { directors { person { id } } writers { person { id name } } } }").data();
        assertEquals(List.of(second, first), ids(read.path("movie").path("directors"), "person"));
        assertEquals(List.of(first), ids(read.path("movie").path("writers"), "person"));

        // Renaming the person and the movie: the crew items' copies follow, and so does GSI3's order key.
        mutate("mutation { putPerson(input: {id: \"" + first + "\", name: \"Renamed Director\"}) { id } }");
        mutate("mutation { putMovie(input: {id: \"" + movie + "\", title: \"Crew Test Renamed\", year: 1950}) { id } }");
        JsonNode after = run("{ movie(id: \"" + movie + "\") { writers { person { name } } }"
                + " person(id: \"" + first + "\") { directed(first: 5) { edges { node { movie { title year } } } } } }").data();
        assertEquals("Renamed Director", after.path("movie").path("writers").get(0).path("person").path("name").asText());
        JsonNode directedMovie = after.path("person").path("directed").path("edges").get(0).path("node").path("movie");
        assertEquals("Crew Test Renamed", directedMovie.path("title").asText());
        assertEquals(1950, directedMovie.path("year").asInt());

        assertTrue(mutate("mutation { uncreditCrew(movieId: \"" + movie + "\", personId: \"" + second
                + "\", role: DIRECTOR) }").path("uncreditCrew").asBoolean());
        assertFalse(mutate("mutation { uncreditCrew(movieId: \"" + movie + "\", personId: \"" + second
                + "\", role: DIRECTOR) }").path("uncreditCrew").asBoolean());
        assertEquals(List.of(first), ids(run("{ movie(id: \"" + movie + "\") { directors { person { id } } } }")
                .data().path("movie").path("directors"), "person"));

        Response missing = server.client().query("mutation { creditCrew(movieId: \"" + movie
                + "\", personId: \"nm0990999\", role: WRITER) { position } }");
        assertEquals("NOT_FOUND", missing.firstErrorCode(), missing.raw().body());
        assertTrue(mutate("mutation { deleteMovie(id: \"" + movie + "\") }").path("deleteMovie").asBoolean());
        assertEquals(0, run("{ person(id: \"" + first + "\") { directed(first: 5) { edges { cursor } } } }")
                .data().path("person").path("directed").path("edges").size(), "deleting a movie deletes its crew");
    }

    @Test
    void theSampleCreditsRealDirectorsAndWritersOfTheAnchors() {
        Function<String, List<String>> directors = id -> crew(id, Role.DIRECTOR);
        assertEquals(List.of(DARABONT), directors.apply(SHAWSHANK));
        assertEquals(List.of("nm0000338"), directors.apply("tt0068646"));
        assertEquals(List.of("nm0905154", "nm0905152"), directors.apply("tt0133093"));
        assertTrue(sample.movies().stream().allMatch(m -> !crew(m.id().value(), Role.DIRECTOR).isEmpty()),
                "every movie has a director");
        assertTrue(sample.people().stream().map(p -> p.id()).distinct().count() == sample.people().size());
        assertTrue(sample.credits().stream().map(Credit::personId).allMatch(id ->
                sample.people().stream().map(p -> p.id()).anyMatch(id::equals)));
        assertEquals(sample.credits(), SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).credits(), "deterministic");
        assertTrue(Objects.equals(PersonId.of(DARABONT), sample.people().stream().filter(p -> p.name().equals("Frank Darabont"))
                .findFirst().orElseThrow().id()));
    }
}
