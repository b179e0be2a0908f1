package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.language.ObjectTypeDefinition;
import graphql.language.UnionTypeDefinition;
import org.junit.jupiter.api.Test;

/**
 * The server as an Apollo Federation 2 subgraph, as a router sees it (issue 45), on the shared server:
 * {@code _service { sdl }} is the schema with its {@code @link} and {@code @key}s, every keyed type is in
 * {@code _Entity}; {@code _entities} reads a router's representations as {@code movies(ids)} reads ids (one
 * BatchGetItem per 100 keys, every type mixed; the lists below read as a level), unknown keys null in their
 * place, a malformed representation an error on its own entry; the Relay id and the entity key are one; the
 * rules hold: @auth refuses before any read, the read budget and the plan count entity fetches, and the
 * answer's Cache-Control is the entity types' hints. Counted in DynamoDB requests as the SDK sends them.
 */
class FederationSubgraphTest {
    private static final String ENTITIES = "query($r: [_Any!]!) { _entities(representations: $r) { __typename"
            + " ... on Movie { id title year } ... on Person { id name birthYear }"
            + " ... on MonthlyStreams { month streams movie { id } } } }";

    private final TestServer server = TestServer.get();
    private final SampleCatalog sample = server.sample();
    private final GraphQLClient client = server.client();

    private record Run(Response response, List<String> operations) {
    }

    private Run send(String query, Map<String, Object> variables) {
        Run run = refused(query, variables);
        assertEquals(200, run.response().status(), run.response().raw().body());
        return run;
    }

    /** A request that may be refused (its status is the refusal's). */
    private Run refused(String query, Map<String, Object> variables) {
        server.counter().reset();
        Response response = client.query(query, variables);
        List<String> operations = server.counter().operations();
        assertFalse(operations.contains("Scan"), "a resolver scanned the table");
        return new Run(response, operations);
    }

    private static Map<String, Object> movie(String id) {
        return Map.of("__typename", "Movie", "id", id);
    }

    private static Map<String, Object> person(String id) {
        return Map.of("__typename", "Person", "id", id);
    }

    @Test
    void serviceSdlIsTheSchemaWithItsFederationLinkAndEveryKeyedTypeIsAnEntity() {
        Response response = client.query("{ _service { sdl } }");
        String sdl = response.data().path("_service").path("sdl").asText();

        assertTrue(sdl.contains("@link(import : [\"@key\", \"@shareable\"], url : \"https://specs.apollo.dev/federation/v2.3\")"),
                sdl.substring(0, Math.min(400, sdl.length())));
        TypeDefinitionRegistry registry = new SchemaParser().parse(sdl);
        List<String> keyed = new ArrayList<>(registry.getTypes(ObjectTypeDefinition.class).stream()
                .filter(type -> type.hasDirective("key")).map(ObjectTypeDefinition::getName).toList());
        Collections.sort(keyed);
        assertEquals(List.of("MonthlyStreams", "Movie", "Person", "Viewer"), keyed);
        UnionTypeDefinition entity = (UnionTypeDefinition) registry.getType("_Entity").orElseThrow();
        List<String> members = new ArrayList<>(entity.getMemberTypes().stream()
                .map(type -> ((graphql.language.TypeName) type).getName()).toList());
        Collections.sort(members);
        assertEquals(keyed, members, "every entity type can be fetched");
        assertTrue(registry.getType("Node").orElseThrow().hasDirective("key"), "Node is an entity interface");
        assertTrue(registry.getType("PageInfo").orElseThrow().hasDirective("shareable"));
        // the SDL is the schema clients see: every field of Movie that introspection lists is in it
        JsonNode fields = client.query("{ __type(name: \"Movie\") { fields { name } } }").data().path("__type").path("fields");
        ObjectTypeDefinition movie = (ObjectTypeDefinition) registry.getType("Movie").orElseThrow();
        assertEquals(fields.size(), movie.getFieldDefinitions().size());
        fields.forEach(field -> assertTrue(movie.getFieldDefinitions().stream()
                .anyMatch(definition -> definition.getName().equals(field.path("name").asText())), field.toString()));
    }

    @Test
    void aHundredMoviesAndAHundredPeopleAreOneBatchGetItemPerHundredKeysWithUnknownIdsNullInTheirPlace() {
        List<Map<String, Object>> representations = new ArrayList<>();
        List<String> movieIds = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // the sample's movies, then well-formed ids of movies that do not exist
            String id = i < sample.movies().size() ? sample.movies().get(i).id().value() : String.format("tt9%06d", i);
            movieIds.add(id);
            representations.add(movie(id));
            String personId = i < sample.people().size() ? sample.people().get(i).id().value() : String.format("nm9%06d", i);
            representations.add(person(personId));
        }

        Run run = send(ENTITIES, Map.of("r", representations));

        assertTrue(run.response().errors().isMissingNode(), run.response().raw().body());
        assertEquals(List.of("BatchGetItem", "BatchGetItem"), run.operations(), "200 keys: two batches of 100, types mixed");
        assertEquals(2, run.response().body().path("extensions").path("cost").path("requests").asInt(),
                "the receipt counts the router's fetch as any request's");
        JsonNode entities = run.response().data().path("_entities");
        assertEquals(200, entities.size());
        JsonNode direct = client.query("query($ids: [ID!]!) { movies(ids: $ids) { id title year } }",
                Map.of("ids", movieIds)).data().path("movies");
        for (int i = 0; i < 100; i++) {
            JsonNode entity = entities.get(2 * i);
            if (direct.get(i).isNull()) {
                assertTrue(entity.isNull(), "an unknown movie is null in its place: " + entity);
            } else {
                assertEquals("Movie", entity.path("__typename").asText());
                assertEquals(direct.get(i).path("title"), entity.path("title"));
                assertEquals(direct.get(i).path("year"), entity.path("year"));
            }
            JsonNode person = entities.get(2 * i + 1);
            if (i < sample.people().size()) {
                assertEquals(sample.people().get(i).name(), person.path("name").asText());
            } else {
                assertTrue(person.isNull(), person.toString());
            }
        }
        assertTrue(movieIds.size() > sample.movies().size() || sample.movies().size() >= 100);
    }

    @Test
    void aMalformedRepresentationIsAnErrorOnItsOwnEntryAndTheOthersAreAnswered() {
        String known = sample.movies().get(0).id().value();
        List<Map<String, Object>> representations = new ArrayList<>();
        representations.add(movie(known));
        representations.add(movie("tt12"));                               // not a movie id
        representations.add(Map.of("__typename", "Review", "id", "r1"));  // not an entity here
        representations.add(Map.of("id", known));                          // no __typename
        representations.add(Map.of("__typename", "Person"));               // no id
        representations.add(Map.of("__typename", "MonthlyStreams", "movie", Map.of("id", known), "month", "May"));
        representations.add(person(sample.people().get(0).id().value()));

        Run run = send(ENTITIES, Map.of("r", representations));

        JsonNode entities = run.response().data().path("_entities");
        assertEquals(sample.movies().get(0).title(), entities.get(0).path("title").asText());
        assertEquals(sample.people().get(0).name(), entities.get(6).path("name").asText());
        List<Integer> failed = new ArrayList<>();
        run.response().errors().forEach(error -> {
            assertEquals("_entities", error.path("path").get(0).asText(), error.toString());
            assertEquals("BAD_USER_INPUT", error.path("extensions").path("code").asText(), error.toString());
            failed.add(error.path("path").get(1).asInt());
        });
        Collections.sort(failed);
        assertEquals(List.of(1, 2, 3, 4, 5), failed, run.response().raw().body());
        for (int i = 1; i <= 5; i++) {
            assertTrue(entities.get(i).isNull(), entities.toString());
        }
        assertEquals(List.of("BatchGetItem"), run.operations(), "the good entries still read together");
    }

    @Test
    void theFieldsARouterAsksOfEntitiesBatchAsTheSameSelectionOfMoviesByIdDoes() {
        List<String> ids = sample.movies().stream().limit(6).map(movie -> movie.id().value()).toList();
        String selection = "title cast(first: 2) { edges { node { person { name birthYear } } } } directors { person { name } }";
        List<Map<String, Object>> representations = ids.stream().map(FederationSubgraphTest::movie).toList();

        Run entities = send("query($r: [_Any!]!) { _entities(representations: $r) { ... on Movie { " + selection + " } } }",
                Map.of("r", representations));
        Run movies = send("query($ids: [ID!]!) { movies(ids: $ids) { " + selection + " } }", Map.of("ids", ids));

        assertTrue(entities.response().errors().isMissingNode(), entities.response().raw().body());
        assertEquals(movies.response().data().path("movies"), entities.response().data().path("_entities"));
        assertEquals(movies.operations(), entities.operations(), "the same reads, level by level");
        // a movie's collection read per movie, then every cast member's person in one batch: never one per person
        assertEquals(1, entities.operations().stream().filter("BatchGetItem"::equals).count(), entities.operations().toString());
    }

    @Test
    void theRelayIdIsTheEntityKeyAndANodeRepresentationResolvesByItsKindAlone() {
        String movieId = sample.movies().get(1).id().value();
        String personId = sample.people().get(1).id().value();
        String query = "query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Node { id }"
                + " ... on Movie { title } ... on Person { name } } }";

        Run run = send(query, Map.of("r", List.of(Map.of("__typename", "Node", "id", movieId),
                Map.of("__typename", "Node", "id", personId), Map.of("__typename", "Node", "id", "co0000001"),
                movie(movieId))));
        JsonNode nodes = client.query("query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Movie { title }"
                + " ... on Person { name } } }", Map.of("ids", List.of(movieId, personId, "co0000001"))).data().path("nodes");

        JsonNode entities = run.response().data().path("_entities");
        assertTrue(run.response().errors().isMissingNode(), run.response().raw().body());
        assertEquals(nodes.get(0), entities.get(0));
        assertEquals(nodes.get(1), entities.get(1));
        assertTrue(entities.get(2).isNull(), "an id of no known kind is null, as node(id) answers");
        assertEquals(entities.get(0), entities.get(3), "a Movie by its IMDb id alone is the same node");
        assertEquals("Movie", entities.get(0).path("__typename").asText());
        assertEquals(List.of("BatchGetItem"), run.operations());
    }

    @Test
    void aMonthlyTotalIsAnEntityByItsMovieAndMonth() {
        MonthlyStreams total = sample.totals().get(0);
        Map<String, Object> representation = new LinkedHashMap<>();
        representation.put("__typename", "MonthlyStreams");
        representation.put("movie", Map.of("id", total.movieId().value()));
        representation.put("month", total.month().toString());

        Run run = send(ENTITIES, Map.of("r", List.of(representation, movie(total.movieId().value()))));

        JsonNode entity = run.response().data().path("_entities").get(0);
        assertTrue(run.response().errors().isMissingNode(), run.response().raw().body());
        assertEquals(total.month().toString(), entity.path("month").asText());
        assertEquals(total.movieId().value(), entity.path("movie").path("id").asText());
        JsonNode direct = client.query("query($id: ID!, $month: YearMonth!) { streamTotal(movieId: $id, month: $month)"
                + " { streams } }", Map.of("id", total.movieId().value(), "month", total.month().toString())).data();
        assertEquals(direct.path("streamTotal").path("streams"), entity.path("streams"));
        assertEquals(List.of("BatchGetItem"), run.operations(), "the total and the movie in one batch");
    }

    @Test
    void anEntityFetchCannotReadWhatTheCallerCouldNotAndIsRefusedBeforeAnyRead() {
        Run run = refused("query($r: [_Any!]!) { _entities(representations: $r) { ... on Viewer { id"
                        + " watchlist { totalCount } } ... on Movie { title } } }",
                Map.of("r", List.of(Map.of("__typename", "Viewer", "id", "viewer:alice"),
                        movie(sample.movies().get(0).id().value()))));

        // sign-in is off on the shared server: FORBIDDEN (403), as movie and node refuse a viewer's fields
        assertEquals("FORBIDDEN", run.response().firstErrorCode(), run.response().raw().body());
        assertEquals(403, run.response().status());
        assertTrue(run.response().data().isMissingNode() || run.response().data().isNull(), run.response().raw().body());
        assertEquals(List.of(), run.operations(), "refused before any DynamoDB call");
    }

    @Test
    void theAnswerMayBeKeptAsLongAsItsEntityTypesHintsSayAndThePlanCountsTheFetch() {
        List<Map<String, Object>> representations = List.of(movie(sample.movies().get(0).id().value()),
                person(sample.people().get(0).id().value()));

        Response kept = client.query(ENTITIES, Map.of("r", representations));
        Response plan = client.traced("plan", ENTITIES, Map.of("r", representations));

        assertEquals("max-age=300, public", kept.raw().headers().firstValue("Cache-Control").orElse(""));
        JsonNode calls = plan.body().path("extensions").path("plan");
        assertTrue(calls.path("calls").asInt() >= 1, plan.raw().body());
        assertTrue(plan.raw().body().contains("_entities"), "the plan names the field it reads for: " + plan.raw().body());
    }

    @Test
    void aFetchOverTheReadBudgetIsRefusedBeforeAnyRead() {
        // a thousand movies, each with a hundred cast members and their hundred-movie filmographies
        List<Map<String, Object>> representations = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            representations.add(movie(String.format("tt8%06d", i)));
        }
        Run run = refused("query($r: [_Any!]!) { _entities(representations: $r) { ... on Movie { cast(first: 100) {"
                + " edges { node { person { movies(first: 100) { edges { node { movie { title } } } } } } } } } } }",
                Map.of("r", representations));

        assertEquals("LIMIT_EXCEEDED", run.response().firstErrorCode(), run.response().raw().body());
        assertEquals(400, run.response().status());
        assertEquals(List.of(), run.operations());
    }

    @Test
    void moreThanAThousandRepresentationsInOneFetchIsABadRequest() {
        List<Map<String, Object>> representations = new ArrayList<>();
        for (int i = 0; i <= 1000; i++) {
            representations.add(movie(String.format("tt7%06d", i)));
        }
        Run run = refused("query($r: [_Any!]!) { _entities(representations: $r) { __typename } }", Map.of("r", representations));

        assertTrue(run.response().raw().body().contains("At most 1000 representations"), run.response().raw().body());
        assertEquals(List.of(), run.operations());
    }

    /** Checked here so that a change to the SDL's printing shows in this test's failure, not only in a router's. */
    @Test
    void theSdlParsesBackToTheSameEntityKeys() throws Exception {
        String sdl = client.query("{ _service { sdl } }").data().path("_service").path("sdl").asText();
        Matcher keys = Pattern.compile("^type (\\w+)[^{\\n]*@key\\(fields : \"([^\"]+)\"", Pattern.MULTILINE).matcher(sdl);
        Map<String, String> found = new LinkedHashMap<>();
        while (keys.find()) {
            found.put(keys.group(1), keys.group(2));
        }
        assertEquals(Map.of("Movie", "id", "Person", "id", "Viewer", "id", "MonthlyStreams", "movie { id } month"), found,
                new ObjectMapper().writeValueAsString(found));
    }
}
