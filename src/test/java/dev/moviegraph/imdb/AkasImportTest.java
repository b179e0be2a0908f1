package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.cli.Import;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IMDb's title.akas through the real {@code import} command and the real server: each kept movie's titles
 * in its collection (the original kept, marked), by region on demand, and search finding the movie by a
 * local title, and again after a rename; a bad row is skipped and counted, a title not kept writes nothing.
 */
class AkasImportTest {
    private static final String AMELIE = "tt0211915";
    private static final String SHAWSHANK = "tt0111161";

    @TempDir
    Path files;

    private Path data;

    @AfterEach
    void deleteData() throws IOException {
        try (Stream<Path> walk = Files.walk(data)) {
            for (Path file : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private void fixture() throws IOException {
        data = EmbeddedDynamo.scratchDirectory("moviegraph-akas");
        ImdbFixture.write(files, "title.basics.tsv.gz", ImdbFixture.TITLE_BASICS_HEADER,
                line(SHAWSHANK, "movie", "The Shawshank Redemption", "The Shawshank Redemption", "0", "1994", N, "142", "Drama"),
                line(AMELIE, "movie", "Amélie", "Le fabuleux destin d'Amélie Poulain", "0", "2001", N, "122", "Comedy,Romance"),
                line("tt0000003", "tvSeries", "A Series", "A Series", "0", "2001", "2003", "45", "Drama"));
        ImdbFixture.write(files, "title.ratings.tsv.gz", ImdbFixture.TITLE_RATINGS_HEADER,
                line(SHAWSHANK, "9.3", "2900000"), line(AMELIE, "8.3", "800000"));
        ImdbFixture.write(files, "name.basics.tsv.gz", ImdbFixture.NAME_BASICS_HEADER,
                line("nm0000151", "Morgan Freeman", "1937", N, "actor", SHAWSHANK),
                line("nm0851582", "Audrey Tautou", "1976", N, "actress", AMELIE));
        ImdbFixture.write(files, "title.principals.tsv.gz", ImdbFixture.TITLE_PRINCIPALS_HEADER,
                line(SHAWSHANK, "1", "nm0000151", "actor", N, "[\"Ellis Boyd 'Red' Redding\"]"),
                line(AMELIE, "1", "nm0851582", "actress", N, "[\"Amélie Poulain\"]"));
        ImdbFixture.write(files, TitleAkasParser.FILE_NAME, String.join("\t", TitleAkasParser.COLUMNS),
                line(SHAWSHANK, "1", "The Shawshank Redemption", N, N, "original", N, "1"),
                line(SHAWSHANK, "2", "Die Verurteilten", "DE", N, "imdbDisplay", N, "0"),
                line(SHAWSHANK, "3", "Les évadés", "FR", "fr", "imdbDisplay\u0002dvd", N, "0"),
                line(SHAWSHANK, "x", "Broken Ordering", "US", N, N, N, "0"),
                line(AMELIE, "1", "Le fabuleux destin d'Amélie Poulain", N, N, "original", N, "1"),
                line(AMELIE, "2", "Die fabelhafte Welt der Amélie", "DE", N, "imdbDisplay", N, "0"),
                line(AMELIE, "3", "Amélie", "US", N, "imdbDisplay", "literal English title", "0"),
                line("tt0000003", "1", "Eine Serie", "DE", N, N, N, "0"));
    }

    @Test
    void importedTitlesAreServedWithTheirMovieAndFindItInSearch() throws IOException {
        fixture();
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
        ImdbImport.Summary summary = Import.run(config, List.of(files.toString()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(1, summary.skips().count(SkipReason.BAD_NUMBER), "the row whose ordering is not a number");

        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            JsonNode amelie = graphql.query("{ movie(id: \"" + AMELIE + "\") { title titles { title region language types"
                    + " attributes original } } }").data().path("movie");
            assertEquals("Amélie", amelie.path("title").asText(), "the primary title is the movie's title");
            JsonNode titles = amelie.path("titles");
            assertEquals(List.of("Le fabuleux destin d'Amélie Poulain", "Die fabelhafte Welt der Amélie", "Amélie"), texts(titles));
            assertTrue(titles.get(0).path("original").asBoolean(), "the original title is kept, marked: " + titles);
            assertEquals("[\"literal English title\"]", titles.get(2).path("attributes").toString());
            JsonNode french = graphql.query("{ movie(id: \"" + SHAWSHANK + "\") { titles(region: \"FR\") { title language types } } }")
                    .data().path("movie").path("titles");
            assertEquals(List.of("Les évadés"), texts(french));
            assertEquals("fr", french.get(0).path("language").asText());
            assertEquals("[\"imdbDisplay\",\"dvd\"]", french.get(0).path("types").toString(), "IMDb's array separator");

            assertEquals(AMELIE, firstHit(graphql, "Le fabuleux destin d'Amélie Poulain"));
            assertEquals(AMELIE, firstHit(graphql, "fabelhafte welt"));
            assertEquals(SHAWSHANK, firstHit(graphql, "Die Verurteilten"));
            JsonNode series = graphql.query("{ search(query: \"eine serie\") { edges { node { __typename } } } }")
                    .data().path("search").path("edges");
            assertEquals(0, series.size(), "a title not kept writes no titles: " + series);

            // A rename derives the titles' entries again: "destin" is now the movie's own word (found once),
            // "amelie" only its other titles' (still found).
            assertTrue(graphql.query("mutation { putMovie(input: {id: \"" + AMELIE + "\", title: \"Le Destin\", year: 2001})"
                    + " { id } }").errors().isMissingNode());
            assertEquals(List.of(AMELIE), hits(graphql, "destin"), "found once, by its own title");
            assertEquals(List.of(AMELIE), hits(graphql, "amelie"), "found by its other titles");
        }
    }

    @Test
    void aNewerTitleAkasReplacesTheTitlesItDropped() throws IOException {
        fixture();
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Import.run(config, List.of(files.toString()), quiet);
        // The next release: Shawshank's French title is gone, a Japanese one is new.
        ImdbFixture.write(files, TitleAkasParser.FILE_NAME, String.join("\t", TitleAkasParser.COLUMNS),
                line(SHAWSHANK, "1", "The Shawshank Redemption", N, N, "original", N, "1"),
                line(SHAWSHANK, "2", "Die Verurteilten", "DE", N, "imdbDisplay", N, "0"),
                line(SHAWSHANK, "4", "Shôshanku no sora ni", "JP", "ja", "imdbDisplay", N, "0"),
                line(AMELIE, "1", "Le fabuleux destin d'Amélie Poulain", N, N, "original", N, "1"));
        Import.run(config, List.of(files.toString()), quiet);

        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            assertEquals(List.of("The Shawshank Redemption", "Die Verurteilten", "Shôshanku no sora ni"),
                    texts(graphql.query("{ movie(id: \"" + SHAWSHANK + "\") { titles { title } } }").data().path("movie").path("titles")));
            assertEquals(List.of(), hits(graphql, "evades"), "a dropped title's words find nothing");
            assertEquals(List.of(), hits(graphql, "fabelhafte"));
            assertEquals(List.of(SHAWSHANK), hits(graphql, "shoshanku"));
        }
    }

    private static List<String> hits(GraphQLClient graphql, String query) {
        List<String> ids = new ArrayList<>();
        graphql.query("{ search(query: \"" + query + "\", types: [MOVIE]) { edges { node { ... on Movie { id } } } } }")
                .data().path("search").path("edges").forEach(edge -> ids.add(edge.path("node").path("id").asText()));
        return ids;
    }

    private static String firstHit(GraphQLClient graphql, String query) {
        JsonNode edges = graphql.query("{ search(query: \"" + query.replace("\"", "\\\"") + "\", types: [MOVIE]) { edges { node {"
                + " ... on Movie { id } } } } }").data().path("search").path("edges");
        return edges.path(0).path("node").path("id").asText("none: " + edges);
    }

    private static List<String> texts(JsonNode titles) {
        List<String> texts = new ArrayList<>();
        titles.forEach(title -> texts.add(title.path("title").asText()));
        return texts;
    }
}
