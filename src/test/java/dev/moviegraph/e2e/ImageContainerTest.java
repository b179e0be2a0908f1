package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.RequestCounter;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Our own image (the Dockerfile, with target/moviegraph.jar as the last {@code mvn package} built it) in
 * containers, reached over the network: one runs {@code engine --host 0.0.0.0}, the engine alone, and an
 * in-process gateway uses it as DYNAMODB_ENDPOINT=URL, creating the table and loading the sample itself,
 * then a few query shapes are checked for their data and their DynamoDB request counts; the other runs the
 * image as deployed (its entrypoint, the embedded default) and must answer /health and a query. Skipped
 * where no Docker engine is available, and where the jar has not been built.
 */
@Testcontainers(disabledWithoutDocker = true)
@EnabledIf(value = "jarIsBuilt", disabledReason = "target/moviegraph.jar is not built: mvn -DskipTests package")
class ImageContainerTest {
    private static final String SHAWSHANK = "tt0111161";
    private static final YearMonth MAY_2024 = YearMonth.of(2024, 5);
    private static final Path JAR = Path.of("target", "moviegraph.jar");

    /** Built once for both containers; the Dockerfile's own AOT training run included. */
    private static final ImageFromDockerfile IMAGE = new ImageFromDockerfile("localhost/moviegraph-test", true)
            .withFileFromPath("Dockerfile", Path.of("Dockerfile"))
            .withFileFromPath("target/moviegraph.jar", JAR);

    @Container
    private static final GenericContainer<?> ENGINE = new GenericContainer<>(IMAGE)
            .withCommand("engine", "--host", "0.0.0.0", "--port", "8000")
            .withExposedPorts(8000)
            .waitingFor(Wait.forLogMessage(".*engine listening on .*", 1).withStartupTimeout(Duration.ofMinutes(2)));

    @Container
    private static final GenericContainer<?> GATEWAY = new GenericContainer<>(IMAGE)
            .withExposedPorts(8080)
            .waitingFor(Wait.forHttp("/health").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(2)));

    private static final RequestCounter COUNTER = new RequestCounter();
    private static final SampleCatalog SAMPLE = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
    private static Moviegraph server;
    private static GraphQLClient client;

    static boolean jarIsBuilt() {
        return Files.isRegularFile(JAR);
    }

    @BeforeAll
    static void startGateway() {
        String endpoint = "http://" + ENGINE.getHost() + ":" + ENGINE.getMappedPort(8000);
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of(
                "DYNAMODB_ENDPOINT", endpoint,
                "CREATE_TABLE", "true",
                "LOAD_SAMPLE", "true",
                "PORT", "0")), List.of(COUNTER));
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stopGateway() {
        if (server != null) {
            server.close();
        }
    }

    private record Run(Response response, List<String> operations) {
    }

    private static Run run(String query, Map<String, Object> variables) {
        COUNTER.reset();
        Response response = client.query(query, variables);
        List<String> operations = COUNTER.operations();
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.errors());
        return new Run(response, operations);
    }

    private static Movie movie(String id) {
        return SAMPLE.movies().stream().filter(m -> m.id().value().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void movieWithItsCastIsOneQueryAgainstTheEngineContainer() {
        Run run = run("query($id: ID!) { movie(id: $id) { title cast { edges { node { billing characters person { name } } } } } }",
                Map.of("id", SHAWSHANK));
        List<Credit> expected = SAMPLE.cast().stream().filter(c -> c.movieId().value().equals(SHAWSHANK))
                .sorted(Comparator.comparing((Credit c) -> c.position() == null ? Integer.MAX_VALUE : c.position())
                        .thenComparing(c -> c.personId().value()))
                .toList();
        JsonNode movie = run.response().data().path("movie");
        assertEquals(movie(SHAWSHANK).title(), movie.path("title").asText());
        JsonNode edges = movie.path("cast").path("edges");
        assertEquals(expected.size(), edges.size());
        for (int i = 0; i < expected.size(); i++) {
            JsonNode node = edges.path(i).path("node");
            assertEquals(expected.get(i).personName(), node.path("person").path("name").asText());
            assertEquals(expected.get(i).characters().get(0), node.path("characters").path(0).asText());
        }
        assertEquals(List.of("Query"), run.operations());
    }

    @Test
    void topMoviesOfAMonthIsOneQueryAgainstTheEngineContainer() {
        List<MonthlyStreams> expected = SAMPLE.totals().stream().filter(t -> t.month().equals(MAY_2024))
                .sorted(Comparator.comparingLong(MonthlyStreams::streams).reversed()).limit(10).toList();
        Run run = run("{ topMovies(month: \"2024-05\") { streams month movie { title } } }", Map.of());
        JsonNode top = run.response().data().path("topMovies");
        assertEquals(10, top.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(expected.get(i).streams(), top.path(i).path("streams").asLong());
            assertEquals("2024-05", top.path(i).path("month").asText());
            assertEquals(expected.get(i).movieTitle(), top.path(i).path("movie").path("title").asText());
        }
        assertEquals(List.of("Query"), run.operations());
    }

    @Test
    void twentyMoviesByIdAreOneBatchReadAgainstTheEngineContainer() {
        List<String> ids = SAMPLE.movies().stream().skip(40).limit(20).map(m -> m.id().value()).toList();
        Run run = run("query($ids: [ID!]!) { movies(ids: $ids) { id title } }", Map.of("ids", ids));
        JsonNode movies = run.response().data().path("movies");
        assertEquals(20, movies.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(ids.get(i), movies.path(i).path("id").asText());
            assertEquals(movie(ids.get(i)).title(), movies.path(i).path("title").asText());
        }
        assertEquals(List.of("BatchGetItem"), run.operations());
    }

    @Test
    void theImageAsDeployedAnswersFromItsEmbeddedEngine() {
        GraphQLClient deployed = new GraphQLClient(GATEWAY.getHost(), GATEWAY.getMappedPort(8080));
        Response response = deployed.query("{ movie(id: \"" + SHAWSHANK + "\") { title } }", Map.of());
        assertEquals(200, response.status(), response.raw().body());
        assertEquals(movie(SHAWSHANK).title(), response.data().path("movie").path("title").asText(), response.body().toString());
        assertTrue(GATEWAY.getLogs().contains("Engine started in-process at http://127.0.0.1:"), GATEWAY.getLogs());
    }
}
