package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moviegraph.Moviegraph;
import dev.moviegraph.cli.Import;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real data has what the sample lacks: a movie with 500 cast members, a person with 3,000 credits.
 * Imported through the real command and read through GraphQL, both page exactly: every credit once, in
 * order, {@code hasNextPage} exact, one Query a page.
 */
class RealSizesTest {
    private static final int MOVIES = 3_000;
    private static final int CAST = 500;
    private static final String STAR = "nm1000000";
    private static final String BIG_MOVIE = "tt1000000";

    @TempDir
    static Path files;

    private static Path data;
    private static Moviegraph server;
    private static GraphQLClient graphql;

    private static String movieId(long i) {
        return "tt" + (1_000_000 + i);
    }

    /** Years cycle over 1950..2019 with every 7th unknown, so the order has ties and nulls. */
    private static String year(long i) {
        return i % 7 == 0 ? N : Long.toString(1950 + i % 70);
    }

    /** Real character lists can be long (a voice actor's dozens of parts): about 2.5 KB a credit here. */
    private static String characters(long i) {
        List<String> parts = new ArrayList<>();
        for (int part = 0; part < 40; part++) {
            parts.add("\"Role " + (i + 1) + " part " + part + ", a character with a long descriptive name\"");
        }
        return "[" + String.join(",", parts) + "]";
    }

    @BeforeAll
    static void importAndServe() throws IOException {
        ImdbFixture.writeGenerated(files, "title.basics.tsv.gz", ImdbFixture.TITLE_BASICS_HEADER, MOVIES,
                i -> line(movieId(i), "movie", "Movie " + (MOVIES - i), "Movie", "0", year(i), N, "90", "Drama"));
        ImdbFixture.writeGenerated(files, "name.basics.tsv.gz", ImdbFixture.NAME_BASICS_HEADER, CAST,
                i -> line("nm" + (1_000_000 + i), "Person " + i, "1970", N, "actor", N));
        // The star in every movie; the big movie's cast is the star and 499 others, billed 1..500.
        ImdbFixture.writeGenerated(files, "title.principals.tsv.gz", ImdbFixture.TITLE_PRINCIPALS_HEADER,
                MOVIES + CAST - 1, i -> i < CAST
                        ? line(BIG_MOVIE, Long.toString(i + 1), "nm" + (1_000_000 + i), "actor", N, characters(i))
                        : line(movieId(i - CAST + 1), "1", STAR, "actor", N, "[\"Lead\"]"));
        data = EmbeddedDynamo.scratchDirectory("moviegraph-real-sizes");
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
        ImdbImport.Summary summary = Import.run(config, List.of(files.toString()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(MOVIES, summary.movies());
        server = Moviegraph.start(config, List.of());
        graphql = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        try (Stream<Path> walk = Files.walk(data)) {
            for (Path file : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Walks a connection with pages of 100; returns the nodes, checking hasNextPage and requests per page. */
    private static List<JsonNode> walk(String query, String id, String... path) {
        List<JsonNode> nodes = new ArrayList<>();
        String after = null;
        int pages = 0;
        while (true) {
            Map<String, Object> variables = new HashMap<>(Map.of("id", id));
            if (after != null) {
                variables.put("after", after);
            }
            GraphQLClient.Response response = graphql.query(query, variables);
            JsonNode connection = response.data();
            for (String step : path) {
                connection = connection.path(step);
            }
            pages++;
            assertTrue(response.body().path("extensions").path("cost").path("requests").asInt() <= 2,
                    "page " + pages + ": one Query (and, after the first page, the owner's GetItem beside it)");
            connection.path("edges").forEach(edge -> nodes.add(edge.path("node")));
            boolean more = connection.path("pageInfo").path("hasNextPage").asBoolean();
            assertEquals(100, connection.path("edges").size() == 100 || !more ? 100 : -1,
                    "a page short of 100 is the last one");
            if (!more) {
                return nodes;
            }
            after = connection.path("pageInfo").path("endCursor").asText();
        }
    }

    @Test
    void aMovieWith500CastMembersPagesEveryOneOnceInBillingOrder() {
        List<JsonNode> cast = walk("query($id: ID!, $after: String) { movie(id: $id) { cast(first: 100, after: $after)"
                + " { edges { node { billing person { id } } } pageInfo { hasNextPage endCursor } } } }",
                BIG_MOVIE, "movie", "cast");
        assertEquals(CAST, cast.size());
        Set<String> people = new HashSet<>();
        for (int i = 0; i < cast.size(); i++) {
            assertEquals(i + 1, cast.get(i).path("billing").asInt(), "billing order");
            assertTrue(people.add(cast.get(i).path("person").path("id").asText()), "each once");
        }
    }

    @Test
    void theReadEstimateIsAnUpperBoundForWhatTheseItemsReallyWeigh() {
        String query = "{ movie(id: \"" + BIG_MOVIE + "\") { title cast(first: 100) { edges { node { characters } } } } }";
        double estimate = graphql.traced("plan", query, Map.of()).body().path("extensions").path("plan")
                .path("readUnits").asDouble();
        double consumed = graphql.query(query).body().path("extensions").path("cost").path("readUnits").asDouble();
        assertTrue(consumed > 10, "100 credits of about 2.5 KB: " + consumed + " units");
        assertTrue(estimate >= consumed, "estimated " + estimate + " >= consumed " + consumed);
    }

    @Test
    void aPersonWith3000CreditsPagesEveryOneOnceNewestFirst() {
        List<JsonNode> movies = walk("query($id: ID!, $after: String) { person(id: $id) { movies(first: 100,"
                + " after: $after) { edges { node { movie { id title year } } } pageInfo { hasNextPage endCursor } } } }",
                STAR, "person", "movies");
        assertEquals(MOVIES, movies.size());
        Set<String> ids = new HashSet<>();
        int previousYear = Integer.MAX_VALUE;
        String previousTitle = "";
        for (JsonNode node : movies) {
            JsonNode movie = node.path("movie");
            assertTrue(ids.add(movie.path("id").asText()), "each once");
            int year = movie.path("year").isNull() ? Integer.MIN_VALUE : movie.path("year").asInt();
            assertTrue(year <= previousYear, "newest first, unknown years last");
            if (year == previousYear) {
                assertTrue(movie.path("title").asText().compareTo(previousTitle) >= 0, "then by title");
            }
            previousYear = year;
            previousTitle = movie.path("title").asText();
        }
        assertFalse(ids.isEmpty());
    }
}
