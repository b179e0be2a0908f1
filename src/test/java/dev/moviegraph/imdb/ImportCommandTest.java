package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.cli.Import;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.RequestCounter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * {@code import DIR} through the real command into a DYNAMODB_DATA_DIR, then served by the real server
 * and checked through GraphQL: filters, nulls, the characters JSON, non-ASCII and long titles, crew
 * from principals and title.crew, each kind of bad row skipped and counted, a run that writes nothing
 * once done, and a run killed halfway that a second run finishes with exactly the same items.
 */
class ImportCommandTest {
    private static final String LONG_TITLE = "A Very Long Title, ".repeat(21).strip();

    @TempDir
    Path files;

    private Path data;

    @BeforeEach
    void dataFolder() throws IOException {
        data = EmbeddedDynamo.scratchDirectory("moviegraph-import");
        ImdbFixture.write(files, "title.basics.tsv.gz",
                ImdbFixture.TITLE_BASICS_HEADER,
                line("tt0000001", "movie", "Café Society — Ünïcödé", "Café Society", "0", "2016", N, "96", "Comedy,Drama"),
                line("tt0000002", "movie", LONG_TITLE, LONG_TITLE, "0", N, N, N, N),
                line("tt0000003", "tvSeries", "A Series", "A Series", "0", "2001", "2003", "45", "Drama"),
                line("tt0000004", "movie", "Adult Movie", "Adult Movie", "1", "2010", N, "80", "Adult"),
                line("tt0000005", "movie", "Few Votes", "Few Votes", "0", "2012", N, "90", "Drama"),
                line("tt0000006", "movie", "Wrong Columns", "0", "2012"),
                line("tt0000007", "movie", "Bad Year", "Bad Year", "0", "19x4", N, "90", "Drama"));
        ImdbFixture.write(files, "title.ratings.tsv.gz",
                ImdbFixture.TITLE_RATINGS_HEADER,
                line("tt0000001", "8.1", "1500"),
                line("tt0000002", "6.0", "200"),
                line("tt0000004", "7.0", "500"),
                line("tt0000005", "5.0", "10"));
        ImdbFixture.write(files, "name.basics.tsv.gz",
                ImdbFixture.NAME_BASICS_HEADER,
                line("nm0000001", "Zoë Kravitz", "1988", N, "actress,producer", "tt0000001"),
                line("nm0000002", "봉준호", "1969", N, "director,writer", "tt0000001"),
                line("nm0000003", "William Shakespeare", "1564", "1616", "actor,writer", N),
                line("nm0000005", "Not Credited", "1950", N, "actor", N));
        ImdbFixture.write(files, "title.principals.tsv.gz",
                ImdbFixture.TITLE_PRINCIPALS_HEADER,
                line("tt0000001", "1", "nm0000001", "actress", N, "[\"Maria \\\"Ria\\\" Lopez\"]"),
                line("tt0000001", "2", "nm0000003", "actor", N, "[\"Sam\",\"Sam's Twin\"]"),
                line("tt0000001", "3", "nm0000002", "director", N, N),
                line("tt0000001", "4", "nm0999999", "actor", N, "[\"Ghost\"]"),
                line("tt0000001", "5", "nm0000003", "actor", N, "[\"Sam again\"]"),
                line("tt0000001", "6", "nm0000005", "actor", N, "[Broken"),
                line("tt0000002", "1", "nm0000003", "self", N, "[\"Himself\"]"),
                line("tt0000002", "2", "nm0000002", "writer", N, N),
                line("tt0000003", "1", "nm0000005", "actor", N, "[\"Series Lead\"]"),
                line("tt0000099", "1", "nm0000001", "actress", N, "[\"Nowhere\"]"));
        ImdbFixture.write(files, "title.crew.tsv.gz",
                ImdbFixture.TITLE_CREW_HEADER,
                line("tt0000001", "nm0000002", "nm0000002,nm0000001"),
                line("tt0000002", N, "nm0000002"));
    }

    @AfterEach
    void deleteData() throws IOException {
        try (Stream<Path> walk = Files.walk(data)) {
            for (Path file : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private AppConfig config() {
        return AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
    }

    private ImdbImport.Summary importCommand(String... options) {
        List<String> args = new ArrayList<>(List.of(files.toString()));
        args.addAll(List.of(options));
        return Import.run(config(), args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @Test
    void importsWhatTheFiltersKeepAndTheServerServesIt() {
        ImdbImport.Summary summary = importCommand("--min-votes", "100");
        assertEquals(2, summary.movies(), "tt1 and tt2: not the series, the adult movie, the one with 10 votes");
        assertEquals(3, summary.people(), "the people the kept titles credit, and only those");
        assertEquals(1, summary.skips().count(SkipReason.WRONG_COLUMN_COUNT));
        assertEquals(1, summary.skips().count(SkipReason.BAD_NUMBER));
        assertEquals(1, summary.skips().count(SkipReason.BAD_CHARACTERS_JSON));
        assertEquals(1, summary.skips().count(SkipReason.UNKNOWN_PERSON));
        assertEquals(1, summary.skips().count(SkipReason.DUPLICATE));
        assertEquals(1, summary.skips().count(SkipReason.UNKNOWN_TITLE), "tt0000099 is in no file but principals");

        try (Moviegraph server = Moviegraph.start(config(), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            JsonNode movie = graphql.query("{ movie(id: \"tt0000001\") { title year runtimeMinutes genres averageRating"
                    + " numVotes directors { position person { name professions } } writers { position person { name } }"
                    + " cast { edges { node { billing characters person { name birthYear deathYear } } } } } }")
                    .data().path("movie");
            assertEquals("Café Society — Ünïcödé", movie.path("title").asText());
            assertEquals(2016, movie.path("year").asInt());
            assertEquals(8.1, movie.path("averageRating").asDouble());
            assertEquals(1500, movie.path("numVotes").asInt());
            assertEquals("[\"Comedy\",\"Drama\"]", movie.path("genres").toString());
            assertEquals("봉준호", movie.path("directors").path(0).path("person").path("name").asText());
            assertEquals("[\"director\",\"writer\"]", movie.path("directors").path(0).path("person").path("professions").toString());
            assertEquals(1, movie.path("directors").size());
            assertEquals(List.of("봉준호", "Zoë Kravitz"), names(movie.path("writers")), "title.crew's order");
            JsonNode cast = movie.path("cast").path("edges");
            assertEquals(2, cast.size(), "the ghost, the duplicate and the broken JSON row are not cast");
            assertEquals("Zoë Kravitz", cast.path(0).path("node").path("person").path("name").asText());
            assertEquals("[\"Maria \\\"Ria\\\" Lopez\"]", cast.path(0).path("node").path("characters").toString());
            assertEquals("[\"Sam\",\"Sam's Twin\"]", cast.path(1).path("node").path("characters").toString());
            assertEquals(1616, cast.path(1).path("node").path("person").path("deathYear").asInt(), "born before 1800, kept");
            assertEquals(1564, cast.path(1).path("node").path("person").path("birthYear").asInt());

            JsonNode longOne = graphql.query("{ movie(id: \"tt0000002\") { title year averageRating } }").data().path("movie");
            assertEquals(LONG_TITLE, longOne.path("title").asText(), "a 400-character title is kept whole");
            assertTrue(longOne.path("year").isNull());

            JsonNode filmography = graphql.query("{ person(id: \"nm0000003\") { movies { edges { node { characters"
                    + " movie { id title } } } } } }").data().path("person").path("movies").path("edges");
            assertEquals("tt0000001", filmography.path(0).path("node").path("movie").path("id").asText(),
                    "newest first, the title with no year last");
            assertEquals("tt0000002", filmography.path(1).path("node").path("movie").path("id").asText());
            assertEquals(LONG_TITLE, filmography.path(1).path("node").path("movie").path("title").asText());
            JsonNode wrote = graphql.query("{ person(id: \"nm0000002\") { wrote { edges { node { movie { id } } } } } }")
                    .data().path("person").path("wrote").path("edges");
            assertEquals(2, wrote.size());

            JsonNode absent = graphql.query("{ a: movie(id: \"tt0000003\") { id } b: movie(id: \"tt0000004\") { id }"
                    + " c: movie(id: \"tt0000005\") { id } d: person(id: \"nm0000005\") { id }"
                    + " sample: movie(id: \"tt0111161\") { id } }").data();
            for (String alias : List.of("a", "b", "c", "d", "sample")) {
                assertTrue(absent.path(alias).isNull(), alias + " is not in the table: " + absent);
            }

            // The estimate follows the longest lists the import recorded, not a guess of 50 each.
            String fanOut = "{ movies(ids: [\"tt0000001\", \"tt0000002\"]) { directors { person { name"
                    + " directed(first: 50) { edges { node { movie { title } } } } } } writers { person { name } }"
                    + " cast(first: 20) { edges { node { person { movies(first: 50) { edges { node { movie { id } } } } } } } } } }";
            double estimate = graphql.traced("plan", fanOut, Map.of()).body().path("extensions").path("plan")
                    .path("readUnits").asDouble();
            JsonNode run = graphql.query(fanOut).body();
            assertTrue(run.path("errors").isMissingNode(), run.toString());
            double consumed = run.path("extensions").path("cost").path("readUnits").asDouble();
            assertTrue(estimate >= consumed && estimate <= 3 * consumed, "estimate " + estimate + ", consumed " + consumed);
        }
    }

    @Test
    void theFiltersAreOptionsAndAFinishedImportWritesNothingWhenRunAgain() {
        ImdbImport.Summary first = importCommand("--title-types", "movie,tvSeries", "--include-adult");
        assertEquals(5, first.movies(), "every movie and series, adult included, votes or not");
        ImdbImport.Summary again = importCommand("--title-types", "movie,tvSeries", "--include-adult");
        assertTrue(again.alreadyDone());
        assertEquals(0, again.itemsWritten());
    }

    @Test
    void anImportKilledHalfwayIsFinishedByASecondRunWithExactlyTheSameItems() throws IOException {
        Map<String, Map<String, AttributeValue>> uninterrupted;
        importCommand();
        uninterrupted = catalogItems(data);
        deleteData();
        data = EmbeddedDynamo.scratchDirectory("moviegraph-import");

        ImdbImport.Options options = Import.options(List.of(files.toString()));
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(data, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                new TableAdmin(client, "moviegraph").ensureTable();
                new TableAdmin(client, "moviegraph").requireLayout();
                CatalogImport dying = new DiesAfterWrites(new DynamoCatalogImport(client, "moviegraph", 4), 3);
                assertThrows(IllegalStateException.class,
                        () -> new ImdbImport(options, dying, line -> { }, false, 2).run());
            } finally {
                client.close();
            }
        }
        Map<String, Map<String, AttributeValue>> halfway = catalogItems(data);
        assertTrue(halfway.size() > 0 && halfway.size() < uninterrupted.size(),
                "killed halfway: " + halfway.size() + " of " + uninterrupted.size() + " items");
        assertTrue(halfway.values().stream().anyMatch(item -> item.get("type").s().equals("cast")), "credits written");
        assertTrue(halfway.values().stream().noneMatch(item -> item.get("type").s().equals("movie")),
                "no movie item yet: a movie appears only once its credits are all written");

        ImdbImport.Summary resumed = importCommand();
        assertFalse(resumed.alreadyDone());
        assertTrue(resumed.itemsWritten() < uninterrupted.size(), "the second run did not redo what was written");
        assertEquals(uninterrupted, catalogItems(data), "attribute for attribute");
    }

    @Test
    void aNewerReleaseUpdatesWhatChangedAndKeepsStreamTotals() {
        importCommand();
        try (Moviegraph server = Moviegraph.start(config(), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            for (int i = 1; i <= 3; i++) {
                JsonNode receipt = graphql.query("mutation($id: ID!) { recordStream(input: {movieId: \"tt0000001\","
                        + " streamId: $id, at: \"2024-06-0" + i + "T10:00:00Z\"}) { counted } }", Map.of("id", "s" + i)).body();
                assertTrue(receipt.path("data").path("recordStream").path("counted").asBoolean(), receipt.toString());
            }
            assertEquals(List.of("tt0000001"), searchIds(graphql, "cafe soc"), "folded: Café");
            assertEquals(List.of("nm0000003"), searchIds(graphql, "william"));
            JsonNode kravitz = graphql.query("{ search(query: \"zoe kravitz\") { edges { node { ... on Person { id } }"
                    + " knownFor { id } } } }").data().path("search").path("edges");
            assertEquals("nm0000001", kravitz.path(0).path("node").path("id").asText());
            assertEquals("tt0000001", kravitz.path(0).path("knownFor").path("id").asText(), "her most voted kept title");
        }
        // The next release: a new title and rating, a renamed person, one cast member gone, one added.
        ImdbFixture.write(files, "title.basics.tsv.gz", ImdbFixture.TITLE_BASICS_HEADER,
                line("tt0000001", "movie", "Café Society (Director's Cut)", "Café Society", "0", "2016", N, "101", "Comedy"),
                line("tt0000002", "movie", LONG_TITLE, LONG_TITLE, "0", N, N, N, N));
        ImdbFixture.write(files, "title.ratings.tsv.gz", ImdbFixture.TITLE_RATINGS_HEADER,
                line("tt0000001", "8.3", "1700"), line("tt0000002", "6.0", "200"));
        ImdbFixture.write(files, "name.basics.tsv.gz", ImdbFixture.NAME_BASICS_HEADER,
                line("nm0000001", "Zoë Isabella Kravitz", "1988", N, "actress,producer", N),
                line("nm0000002", "봉준호", "1969", N, "director,writer", N),
                line("nm0000003", "Will Shakespeare", "1564", "1616", "actor,writer", N),
                line("nm0000005", "Newly Credited", "1950", N, "actor", N));
        ImdbFixture.write(files, "title.principals.tsv.gz", ImdbFixture.TITLE_PRINCIPALS_HEADER,
                line("tt0000001", "1", "nm0000001", "actress", N, "[\"Maria\"]"),
                line("tt0000001", "2", "nm0000005", "actor", N, "[\"Newcomer\"]"),
                line("tt0000002", "1", "nm0000003", "self", N, "[\"Himself\"]"));
        ImdbFixture.write(files, "title.crew.tsv.gz", ImdbFixture.TITLE_CREW_HEADER,
                line("tt0000001", "nm0000002", "nm0000002"), line("tt0000002", N, "nm0000002"));
        ImdbImport.Summary update = importCommand();
        assertFalse(update.alreadyDone());

        RequestCounter counter = new RequestCounter();
        try (Moviegraph server = Moviegraph.start(config(), List.of(counter))) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            counter.reset();
            JsonNode listed = graphql.query("{ browseMovies(genre: \"Comedy\", year: 2016) { edges { node { id averageRating"
                    + " numVotes } } } }").data().path("browseMovies").path("edges");
            assertEquals(List.of("Query"), counter.operations(), "the list entries carry the rating");
            assertEquals("tt0000001", listed.path(0).path("node").path("id").asText(), listed.toString());
            assertEquals(8.3, listed.path(0).path("node").path("averageRating").asDouble(), "the entries' copy is the new rating");
            assertEquals(1700, listed.path(0).path("node").path("numVotes").asInt());
            JsonNode movie = graphql.query("{ movie(id: \"tt0000001\") { title averageRating numVotes runtimeMinutes"
                    + " writers { person { name } } cast { edges { node { characters person { id name } } } }"
                    + " streamTotals { month streams movie { title } } } }").data().path("movie");
            assertEquals("Café Society (Director's Cut)", movie.path("title").asText());
            assertEquals(8.3, movie.path("averageRating").asDouble());
            assertEquals(List.of("봉준호"), names(movie.path("writers")), "a writer the new release dropped is gone");
            JsonNode cast = movie.path("cast").path("edges");
            assertEquals(2, cast.size(), cast.toString());
            assertEquals("Zoë Isabella Kravitz", cast.path(0).path("node").path("person").path("name").asText());
            assertEquals("nm0000005", cast.path(1).path("node").path("person").path("id").asText(),
                    "the cast member the new release dropped is gone, the new one is there");
            JsonNode totals = movie.path("streamTotals");
            assertEquals(1, totals.size());
            assertEquals(3, totals.path(0).path("streams").asInt(), "stream totals untouched");
            JsonNode top = graphql.query("{ topMovies(month: \"2024-06\") { streams movie { title } } }").data()
                    .path("topMovies");
            assertEquals("Café Society (Director's Cut)", top.path(0).path("movie").path("title").asText(),
                    "the total's copy of the title is the new one");
            JsonNode filmography = graphql.query("{ person(id: \"nm0000003\") { movies { edges { node { movie { id } } } } } }")
                    .data().path("person").path("movies").path("edges");
            assertEquals(1, filmography.size(), "Shakespeare is no longer in tt0000001");
            JsonNode counts = graphql.query("{ movie(id: \"tt0000001\") { cast { totalCount } }"
                    + " person(id: \"nm0000003\") { movies { totalCount } } zoe: person(id: \"nm0000001\") {"
                    + " movies { totalCount } wrote { totalCount } directed { totalCount } } }").data();
            assertEquals(2, counts.path("movie").path("cast").path("totalCount").asInt(), "counted as the new release has it");
            assertEquals(1, counts.path("person").path("movies").path("totalCount").asInt());
            assertEquals(List.of(1, 0, 0), List.of(counts.path("zoe").path("movies").path("totalCount").asInt(),
                    counts.path("zoe").path("wrote").path("totalCount").asInt(),
                    counts.path("zoe").path("directed").path("totalCount").asInt()), "no longer a writer of tt0000001");
            assertEquals(List.of("tt0000001"), searchIds(graphql, "directors cut"), "the new title is searchable");
            assertEquals(List.of("nm0000001"), searchIds(graphql, "isabella"), "so is the new name");
            assertEquals(List.of(), searchIds(graphql, "william"), "the old name's words are gone");
            assertEquals(List.of("nm0000003"), searchIds(graphql, "will shakesp"));
            assertEquals(List.of("nm0000005"), searchIds(graphql, "newly credited"));
        }
    }

    @Test
    void everyOnlineWriteKeepsAPersonsBestKnownTitleAndRankTrue() {
        importCommand();
        try (Moviegraph server = Moviegraph.start(config(), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            assertEquals("tt0000001", knownFor(graphql, "shakespeare"), "1,500 votes against 200");
            assertEquals("tt0000001", knownFor(graphql, "zoe kravitz"));

            write(graphql, "mutation { putMovie(input: {id: \"tt0000001\", title: \"Cafe Society Renamed\", year: 2016}) { id } }");
            assertEquals("Cafe Society Renamed", search(graphql, "shakespeare").path("knownFor").path("title").asText(),
                    "the best-known title's new name reaches the people credited on it");

            write(graphql, "mutation { putPerson(input: {id: \"nm0000010\", name: \"Newly Cast\"}) { id } }");
            assertNull(knownFor(graphql, "newly cast"), "no credits yet");
            write(graphql, "mutation { castActor(movieId: \"tt0000002\", actorId: \"nm0000010\") { billing } }");
            assertEquals("tt0000002", knownFor(graphql, "newly cast"), "a first credit makes a best-known title");

            // Same popularity band, the shorter name first: a credit moves a person up in results.
            write(graphql, "mutation { putPerson(input: {id: \"nm0000009\", name: \"Shakespeare Junior\"}) { id } }");
            assertEquals(List.of("nm0000003", "nm0000009"), searchIds(graphql, "shakespeare"), "no credits: last");
            write(graphql, "mutation { castActor(movieId: \"tt0000001\", actorId: \"nm0000009\") { billing } }");
            assertEquals(List.of("nm0000009", "nm0000003"), searchIds(graphql, "shakespeare"), "as popular, shorter");

            write(graphql, "mutation { creditCrew(movieId: \"tt0000002\", personId: \"nm0000003\", role: WRITER) { position } }");
            write(graphql, "mutation { deleteMovie(id: \"tt0000001\") }");
            assertEquals("tt0000002", knownFor(graphql, "shakespeare"), "the next most voted of his titles");
            assertNull(knownFor(graphql, "zoe kravitz"), "no title of hers is left");
            assertEquals(List.of("nm0000003", "nm0000009"), searchIds(graphql, "shakespeare"), "200 votes against none");

            write(graphql, "mutation { uncreditCrew(movieId: \"tt0000002\", personId: \"nm0000003\", role: WRITER) }");
            assertEquals("tt0000002", knownFor(graphql, "shakespeare"), "still in its cast");
            write(graphql, "mutation { uncastActor(movieId: \"tt0000002\", actorId: \"nm0000010\") }");
            assertNull(knownFor(graphql, "newly cast"), "uncredited from his only title");
        }
    }

    private static void write(GraphQLClient graphql, String mutation) {
        JsonNode response = graphql.query(mutation).body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
    }

    private static JsonNode search(GraphQLClient graphql, String query) {
        JsonNode response = graphql.query("{ search(query: \"" + query + "\", types: [PERSON]) { edges { node {"
                + " ... on Person { id } } knownFor { id title } } } }").body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        return response.path("data").path("search").path("edges").path(0);
    }

    private static String knownFor(GraphQLClient graphql, String query) {
        JsonNode knownFor = search(graphql, query).path("knownFor");
        return knownFor.isNull() || knownFor.isMissingNode() ? null : knownFor.path("id").asText();
    }

    private static List<String> searchIds(GraphQLClient graphql, String query) {
        JsonNode response = graphql.query("{ search(query: \"" + query + "\") { edges { node { ... on Movie { id }"
                + " ... on Person { id } } } } }").body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        List<String> ids = new ArrayList<>();
        response.path("data").path("search").path("edges").forEach(edge -> ids.add(edge.path("node").path("id").asText()));
        return ids;
    }

    @Test
    void aMissingFileOrABadOptionIsAClearError() throws IOException {
        assertThrows(ConfigException.class, () -> Import.options(List.of(files.toString(), "--min-votes", "many")));
        assertThrows(ConfigException.class, () -> Import.options(List.of(files.toString(), "--frobnicate")));
        assertThrows(ConfigException.class, () -> Import.options(List.of(files.resolve("nowhere").toString())));
        Files.delete(files.resolve("name.basics.tsv.gz"));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, this::importCommand);
        assertTrue(missing.getMessage().contains("name.basics.tsv.gz"), missing.getMessage());
    }

    private static List<String> names(JsonNode credits) {
        List<String> names = new ArrayList<>();
        credits.forEach(credit -> names.add(credit.path("person").path("name").asText()));
        return names;
    }

    /** Every item but the checkpoint and the layout item, by key. */
    /**
     * For the tests' own reads of a data folder: the engine opening a large data folder on a busy
     * machine may take longer than the 3 s per attempt that suits a gateway's queries.
     */
    static final AwsRequestOverrideConfiguration PATIENT = AwsRequestOverrideConfiguration.builder()
            .apiCallAttemptTimeout(Duration.ofSeconds(60)).apiCallTimeout(Duration.ofSeconds(120)).build();

    static Map<String, Map<String, AttributeValue>> catalogItems(Path data) {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(data, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                Map<String, Map<String, AttributeValue>> items = new HashMap<>();
                Map<String, AttributeValue> from = null;
                do {
                    ScanRequest.Builder scan = ScanRequest.builder().tableName("moviegraph").overrideConfiguration(PATIENT);
                    if (from != null) {
                        scan.exclusiveStartKey(from);
                    }
                    ScanResponse page = client.scan(scan.build()).join();
                    page.items().stream().filter(item -> !Set.of("import", "meta").contains(item.get("type").s()))
                            .forEach(item -> items.put(item.get("pk").s() + "|" + item.get("sk").s(), item));
                    from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
                } while (from != null);
                return items;
            } finally {
                client.close();
            }
        }
    }

    /** A target that stops working after some writes, as a killed process would. */
    private static final class DiesAfterWrites implements CatalogImport {
        private final CatalogImport target;
        private int writesLeft;

        DiesAfterWrites(CatalogImport target, int writes) {
            this.target = target;
            this.writesLeft = writes;
        }

        @Override
        public void write(List<? extends Record> records) {
            if (writesLeft-- <= 0) {
                throw new IllegalStateException("killed");
            }
            target.write(records);
        }

        @Override
        public Optional<ImportCheckpoint> checkpoint(String name) {
            return target.checkpoint(name);
        }

        @Override
        public void save(ImportCheckpoint checkpoint) {
            if (writesLeft < 0) {
                throw new IllegalStateException("killed");
            }
            target.save(checkpoint);
        }

        @Override
        public int reconcile(dev.moviegraph.catalog.MovieId movie, Set<CreditKey> credits, String title, Set<Integer> titles) {
            return target.reconcile(movie, credits, title, titles);
        }

        @Override
        public int reconcilePerson(dev.moviegraph.catalog.PersonId person, String name) {
            return target.reconcilePerson(person, name);
        }


        @Override
        public long itemsWritten() {
            return target.itemsWritten();
        }
    }
}
