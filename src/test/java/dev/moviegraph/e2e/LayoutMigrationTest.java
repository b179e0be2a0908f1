package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moviegraph.Moviegraph;
import dev.moviegraph.cli.Migrate;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.DynamoClients;
import dev.moviegraph.dynamo.LayoutMigration;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.support.Layout1Table;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.stream.Stream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * {@code migrate} upgrades a table the previous gateway (layout 1) wrote, in place: refused before,
 * served after with the same movies, people, credits, totals and streams, copies true and filmographies
 * newest first; a run cut off halfway is finished by running it again.
 */
class LayoutMigrationTest {
    private static final String TABLE = "moviegraph";
    /**
     * Attributes layouts 2 and 3 render from the model and layout 1 did not have (or had otherwise): keys,
     * and layout 3's credit counts on movies and people.
     */
    private static final Set<String> REKEYED = Set.of("lsi1sk", "gsi3pk", "gsi3sk", "castCount", "actedCount",
            "directedCount", "wroteCount", "gsi7pk", "trank", "gsi2pk");
    /** The items layout 3 derives from movies and people: search and list entries. */
    private static final Set<String> DERIVED = Set.of("movieWord", "personWord", "movieList");

    /** The layout 1 table, loaded once; each test works on a copy of its database file. */
    private static Path layoutOne;
    private static List<Map<String, AttributeValue>> layoutOneItems;

    private Path dataDir;

    @BeforeAll
    static void writeLayoutOneTable() throws IOException {
        layoutOne = EmbeddedDynamo.scratchDirectory("moviegraph-layout1");
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(layoutOne, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                // A third of the dump (about 4,800 items): every shape layout 1 has, in a third of the time.
                layoutOneItems = Layout1Table.create(client, TABLE, Layout1Table.items(3));
            } finally {
                client.close();
            }
        }
    }

    @BeforeEach
    void copyLayoutOneTable() throws IOException {
        dataDir = EmbeddedDynamo.scratchDirectory("moviegraph-migrate");
        try (Stream<Path> files = Files.list(layoutOne)) {
            for (Path file : files.toList()) {
                Files.copy(file, dataDir.resolve(file.getFileName()));
            }
        }
    }

    @AfterEach
    void deleteCopy() throws IOException {
        delete(dataDir);
    }

    @AfterAll
    static void deleteLayoutOneTable() throws IOException {
        delete(layoutOne);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private static Map<String, String> embeddedEnvironment(Path dataDir) {
        return Map.of("DYNAMODB_DATA_DIR", dataDir.toString(), "PORT", "0");
    }

    /** The layout 1 table in {@code dataDir}, as a DYNAMODB_DATA_DIR user has it; returns its items. */
    private static List<Map<String, AttributeValue>> layoutOneTable() {
        return layoutOneItems;
    }

    @Test
    void aServerRefusesALayoutOneTableSaysWhatToRunAndWritesNothing() {
        List<Map<String, AttributeValue>> before = layoutOneTable();
        AppConfig config = AppConfig.fromEnvironment(embeddedEnvironment(dataDir));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Moviegraph.start(config, List.of()));
        assertTrue(refused.getMessage().contains("migrate"), refused.getMessage());
        assertEquals(keys(before), keys(scanAll(dataDir)), "the refused server wrote nothing");
    }

    @Test
    void migrateUpgradesTheDataDirInPlaceAndTheServerServesEqualData() {
        List<Map<String, AttributeValue>> before = layoutOneTable();
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        LayoutMigration.Summary summary = Migrate.run(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)),
                new PrintStream(terminal, true, StandardCharsets.UTF_8));
        String printed = terminal.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("has layout " + dev.moviegraph.dynamo.TableModel.LAYOUT_VERSION), printed);
        assertEquals(count(before, "actor"), summary.people());
        assertEquals(count(before, "cast"), summary.credits());
        assertEquals(count(before, "movie"), summary.movies());

        assertMigrated(before, scanAll(dataDir));
        assertServed(before);

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        assertTrue(Migrate.run(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)),
                new PrintStream(again, true, StandardCharsets.UTF_8)).alreadyCurrent());
        assertTrue(again.toString(StandardCharsets.UTF_8).contains("nothing to do"));
    }

    @Test
    void aMigrationCutOffHalfwayIsRefusedByServersAndFinishedByRunningItAgain() {
        List<Map<String, AttributeValue>> before = layoutOneTable();
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            // The process dies after 60 writes: every later call fails, as if it had been killed.
            DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAfterWrites(60)));
            try {
                assertThrows(RuntimeException.class,
                        () -> new LayoutMigration(dying, TABLE, false, line -> { }).run());
            } finally {
                dying.close();
            }
        }
        List<Map<String, AttributeValue>> halfway = scanAll(dataDir);
        assertTrue(count(halfway, "actor") > 0 && count(halfway, "person") > 0,
                "cut off halfway: some actors moved, some not (" + count(halfway, "actor") + " left)");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of()));
        assertTrue(refused.getMessage().contains("migrate"), refused.getMessage());

        // Finished up to layout 2 only: the step it was cut off in (layout 3's step is tested below).
        LayoutMigration.Summary rest;
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                rest = new LayoutMigration(client, TABLE, false, line -> { }, 2).run();
            } finally {
                client.close();
            }
        }
        assertEquals(count(halfway, "actor"), rest.people(), "the second run moved only what the first had not");
        assertMigrated(before, scanAll(dataDir), false);
    }

    @Test
    void aLayoutTwoTableCutOffOnItsWayToThreeIsRefusedThenFinishedAndServedWithSearchAndCounts() {
        List<Map<String, AttributeValue>> before = layoutOneTable();
        migrateTo(2, Integer.MAX_VALUE);
        assertEquals(0, scanAll(dataDir).stream().filter(item -> DERIVED.contains(item.get("type").s())).count(),
                "layout 2 has no search or list entries");
        // The process dies after 3 writes of layout 3's step: some entries written, the layout still 2.
        assertThrows(RuntimeException.class, () -> migrateTo(3, 3));
        assertTrue(scanAll(dataDir).stream().anyMatch(item -> DERIVED.contains(item.get("type").s())), "cut off halfway");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of()));
        assertTrue(refused.getMessage().contains("migrate"), refused.getMessage());

        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        Migrate.run(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), new PrintStream(terminal, true, StandardCharsets.UTF_8));
        String printed = terminal.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("from layout 2 to layout 3") && !printed.contains("from layout 1"), printed);
        assertMigrated(before, scanAll(dataDir));
        assertSearchable(before);
    }

    @Test
    void aLayoutThreeTableGetsItsShardedTopListWhileStreamsAreCountedAndIsSettledOnceItsGatewaysStop() throws Exception {
        migrateTo(3, Integer.MAX_VALUE);
        Map<String, Long> added = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Long> streamsBefore = new HashMap<>();
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                List<Map<String, AttributeValue>> totals = scan(client).stream()
                        .filter(item -> item.get("type").s().equals("total")).toList();
                assertTrue(totals.size() > 20, "the table has totals: " + totals.size());
                totals.forEach(total -> streamsBefore.put(key(total), Long.parseLong(total.get("streams").n())));
                // A gateway of layout 3 counting streams the whole time the step runs, and after it.
                java.util.concurrent.atomic.AtomicBoolean counting = new java.util.concurrent.atomic.AtomicBoolean(true);
                Thread layoutThreeGateway = new Thread(() -> {
                    java.util.Random random = new java.util.Random(4);
                    while (counting.get()) {
                        countLikeLayoutThree(client, totals.get(random.nextInt(totals.size())), added);
                    }
                });
                layoutThreeGateway.start();
                LayoutMigration.Summary step = new LayoutMigration(client, TABLE, false, line -> { }, 4).run();
                for (int i = 0; i < 20; i++) {
                    countLikeLayoutThree(client, totals.get(i), added); // counted after the step ranked them
                }
                counting.set(false);
                layoutThreeGateway.join();
                assertFalse(step.alreadyCurrent());
                assertTrue(added.values().stream().mapToLong(Long::longValue).sum() >= 20, added.toString());

                List<String> settling = new ArrayList<>();
                new LayoutMigration(client, TABLE, false, settling::add).run();
                assertTrue(settling.stream().anyMatch(line -> line.contains("Settling")), settling.toString());
                for (Map<String, AttributeValue> total : scan(client)) {
                    if (!total.get("type").s().equals("total")) {
                        continue;
                    }
                    long streams = Long.parseLong(total.get("streams").n());
                    assertEquals(streamsBefore.get(key(total)) + added.getOrDefault(key(total), 0L), streams,
                            "every stream counted once at " + key(total));
                    assertEquals(0, new java.math.BigDecimal(total.get("trank").n()).compareTo(java.math.BigDecimal
                            .valueOf(streams).add(dev.moviegraph.dynamo.TopShards.fraction(
                                    dev.moviegraph.catalog.MovieId.of(total.get("movieId").s())))), "rank of " + key(total));
                    assertTrue(total.get("gsi7pk").s().startsWith("top#" + total.get("month").s() + "#"));
                    assertFalse(total.containsKey("gsi2pk"), "out of layout 3's gsi2: " + key(total));
                }
                List<String> again = new ArrayList<>();
                assertTrue(new LayoutMigration(client, TABLE, false, again::add).run().alreadyCurrent(), again.toString());
            } finally {
                client.close();
            }
        }
        // Served: a month's top list is its totals by streams, then movie id.
        Map<String, List<String>> byMonth = new HashMap<>();
        Map<String, Long> now = new HashMap<>();
        streamsBefore.forEach((key, streams) -> {
            now.put(key, streams + added.getOrDefault(key, 0L));
            byMonth.computeIfAbsent(key.split("\\|")[1], month -> new ArrayList<>()).add(key);
        });
        String month = byMonth.entrySet().stream().max(Comparator.comparingInt(entry -> entry.getValue().size()))
                .orElseThrow().getKey();
        List<String> expected = byMonth.get(month).stream().sorted(Comparator.comparing((String key) -> -now.get(key))
                .thenComparing(key -> key)).limit(10).map(key -> key.split("\\|")[0]).toList();
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of())) {
            List<String> top = new ArrayList<>();
            new GraphQLClient(server.port()).query("query($m: YearMonth!) { topMovies(month: $m, limit: 10) { movie { id } } }",
                    Map.of("m", month)).data().path("topMovies").forEach(entry -> top.add(entry.path("movie").path("id").asText()));
            assertEquals(expected, top, "top of " + month);
        }
    }

    /** What a gateway of layout 3 wrote for a stream: one more on the total, its rank untouched. */
    private static void countLikeLayoutThree(DynamoDbAsyncClient client, Map<String, AttributeValue> total, Map<String, Long> added) {
        client.updateItem(update -> update.tableName(TABLE).key(Map.of("pk", total.get("pk"), "sk", total.get("sk")))
                .updateExpression("ADD streams :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))))
                .join();
        added.merge(key(total), 1L, Long::sum);
    }

    /** A total as movie|month. */
    private static String key(Map<String, AttributeValue> total) {
        return total.get("movieId").s() + "|" + total.get("month").s();
    }

    private static List<Map<String, AttributeValue>> scan(DynamoDbAsyncClient client) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> from = null;
        do {
            ScanRequest.Builder request = ScanRequest.builder().tableName(TABLE).consistentRead(true);
            if (from != null) {
                request.exclusiveStartKey(from);
            }
            ScanResponse page = client.scan(request.build()).join();
            items.addAll(page.items());
            from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (from != null);
        return items;
    }

    /** Migrates the copy up to {@code layout}, the process dying after {@code writes} writes. */
    private void migrateTo(int layout, int writes) {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAfterWrites(writes)));
            try {
                new LayoutMigration(client, TABLE, false, line -> { }, layout).run();
            } finally {
                client.close();
            }
        }
    }

    /** Served after layout 3: a movie found by its title's words, a person's filmography counted. */
    private void assertSearchable(List<Map<String, AttributeValue>> before) {
        Map<String, AttributeValue> movie = before.stream().filter(item -> item.get("type").s().equals("movie"))
                .findFirst().orElseThrow();
        Map<String, Long> creditsByActor = before.stream().filter(item -> item.get("type").s().equals("cast"))
                .collect(Collectors.groupingBy(item -> item.get("actorId").s(), Collectors.counting()));
        Map.Entry<String, Long> busiest = creditsByActor.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            String words = String.join(" ", SearchText.words(movie.get("title").s()));
            JsonNode found = graphql.query("query($q: String!) { search(query: $q, types: [MOVIE], first: 100) { edges {"
                    + " node { ... on Movie { id } } } } }", Map.of("q", words.substring(0, Math.min(words.length(), 100)))).body();
            assertTrue(found.toString().contains(movie.get("movieId").s()), words + ": " + found);
            JsonNode person = graphql.query("query($id: ID!) { person(id: $id) { movies { totalCount } } }",
                    Map.of("id", busiest.getKey())).data().path("person");
            assertEquals(busiest.getValue().intValue(), person.path("movies").path("totalCount").asInt());
        }
    }

    @Test
    void migrateWithTheEmbeddedEngineAndNoDataDirSaysWhatItNeeds() {
        ConfigException refused = assertThrows(ConfigException.class, () -> Migrate.run(
                AppConfig.fromEnvironment(Map.of()), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("DYNAMODB_DATA_DIR"), refused.getMessage());
    }

    // ---- what "migrated" means, item by item

    /**
     * Every layout 1 item is in the table with the same data: movies, totals, streams, checkpoints and
     * markers unchanged but for the credit-order key; each actor a person under per#; each cast item
     * with its person attributes renamed; every credit's copies equal to their sources.
     */
    private static void assertMigrated(List<Map<String, AttributeValue>> before, List<Map<String, AttributeValue>> after) {
        assertMigrated(before, after, true);
    }

    /** The same, with layout 3's derived items when {@code layoutThree}. */
    private static void assertMigrated(List<Map<String, AttributeValue>> before, List<Map<String, AttributeValue>> after,
                                       boolean layoutThree) {
        Map<String, Map<String, AttributeValue>> byKey = new HashMap<>();
        if (layoutThree) {
            assertDerived(after);
        }
        // What layout 3 derives, the record of item sizes its writes keep, and layout 4's marker that gsi2 was
        // settled are checked apart.
        after = after.stream().filter(item -> !DERIVED.contains(item.get("type").s()))
                .filter(item -> !item.get("pk").s().equals("meta#item-sizes"))
                .filter(item -> !item.get("pk").s().equals("meta#layout3-settled")).toList();
        after.forEach(item -> byKey.put(item.get("pk").s() + "|" + item.get("sk").s(), item));
        assertEquals(0, count(after, "actor"), "no actor item is left");
        assertEquals(before.size() + (hasLayoutItem(before) ? 0 : 1), after.size(), "one new item: the layout");
        for (Map<String, AttributeValue> old : before) {
            String type = old.get("type").s();
            Map<String, AttributeValue> expected = new HashMap<>(old);
            String key = old.get("pk").s() + "|" + old.get("sk").s();
            if (type.equals("actor")) {
                String id = old.get("actorId").s();
                expected.put("type", AttributeValue.fromS("person"));
                expected.put("personId", expected.remove("actorId"));
                key = "per#" + id + "|per#" + id;
                expected.put("pk", AttributeValue.fromS("per#" + id));
                expected.put("sk", AttributeValue.fromS("per#" + id));
            } else if (type.equals("cast")) {
                expected.put("personId", expected.remove("actorId"));
                expected.put("personName", expected.remove("actorName"));
                if (expected.containsKey("actorVersion")) {
                    expected.put("personVersion", expected.remove("actorVersion"));
                }
            }
            Map<String, AttributeValue> migrated = byKey.get(key);
            assertNotNull(migrated, "migrated item at " + key);
            assertEquals(withoutKeysOfLayout2(expected), withoutKeysOfLayout2(migrated), "item at " + key);
            if (type.equals("cast") || type.equals("actor")) {
                assertTrue(migrated.containsKey("gsi3pk") && migrated.containsKey("gsi3sk"), "GSI3 keys at " + key);
            }
        }
        for (Map<String, AttributeValue> credit : after) {
            if (credit.get("type").s().equals("cast")) {
                Map<String, AttributeValue> movie = byKey.get(credit.get("pk").s() + "|" + credit.get("pk").s());
                String person = "per#" + credit.get("personId").s();
                assertEquals(movie.get("title"), credit.get("movieTitle"), "movie title copy at " + credit.get("pk"));
                assertEquals(movie.get("year"), credit.get("movieYear"));
                assertEquals(byKey.get(person + "|" + person).get("name"), credit.get("personName"),
                        "person name copy of " + person);
            }
        }
    }

    /**
     * Layout 3's derived items: each movie and person has exactly the search entries its title or name
     * gives, each list entry names a movie, and movies and people carry their credits counted.
     */
    private static void assertDerived(List<Map<String, AttributeValue>> after) {
        long wordsWanted = after.stream().filter(item -> item.get("type").s().equals("movie"))
                .mapToLong(item -> SearchText.prefixes(item.get("title").s()).size()).sum()
                + after.stream().filter(item -> item.get("type").s().equals("person"))
                .mapToLong(item -> SearchText.prefixes(item.get("name").s()).size()).sum();
        assertEquals(wordsWanted, count(after, "movieWord") + count(after, "personWord"), "every search entry, once");
        assertTrue(count(after, "movieList") >= count(after, "movie"), "every movie in its lists");
        Map<String, Long> castOf = after.stream().filter(item -> item.get("type").s().equals("cast"))
                .collect(Collectors.groupingBy(item -> item.get("movieId").s(), Collectors.counting()));
        for (Map<String, AttributeValue> movie : after) {
            if (movie.get("type").s().equals("movie")) {
                assertEquals(castOf.getOrDefault(movie.get("movieId").s(), 0L).toString(), movie.get("castCount").n(),
                        "cast counted on " + movie.get("movieId").s());
            }
        }
    }

    /** Without the keys layout 2 renders, and without empty lists: to the model, absent and empty are one. */
    private static Map<String, AttributeValue> withoutKeysOfLayout2(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> rest = new HashMap<>(item);
        REKEYED.forEach(rest::remove);
        rest.values().removeIf(value -> value.hasL() && value.l().isEmpty());
        return rest;
    }

    // ---- what "served" means, through the new server

    private void assertServed(List<Map<String, AttributeValue>> before) {
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(embeddedEnvironment(dataDir)), List.of())) {
            GraphQLClient graphql = new GraphQLClient(server.port());
            // Filmographies newest first, and complete: the people with the most credits.
            Map<String, Long> creditsByActor = before.stream().filter(item -> item.get("type").s().equals("cast"))
                    .collect(Collectors.groupingBy(item -> item.get("actorId").s(), Collectors.counting()));
            List<String> busiest = creditsByActor.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(5).map(Map.Entry::getKey).toList();
            for (String id : busiest) {
                JsonNode movies = graphql.query("query($id: ID!) { person(id: $id) { name movies(first: 100) { edges { node {"
                        + " movie { id year } } } } } }", Map.of("id", id)).data().path("person").path("movies").path("edges");
                assertEquals(creditsByActor.get(id).intValue(), movies.size(), "filmography of " + id);
                int previous = Integer.MAX_VALUE;
                for (JsonNode edge : movies) {
                    JsonNode year = edge.path("node").path("movie").path("year");
                    int current = year.isNull() ? Integer.MIN_VALUE : year.asInt();
                    assertTrue(current <= previous, "newest first in the filmography of " + id);
                    previous = current;
                }
            }
            // Every recorded stream is still known: a retry is not counted again.
            List<Map<String, AttributeValue>> streams = before.stream()
                    .filter(item -> item.get("type").s().equals("stream")).toList();
            assertFalse(streams.isEmpty(), "the fixture has streams");
            for (Map<String, AttributeValue> stream : streams) {
                JsonNode receipt = graphql.post(GraphQLClient.body("mutation($in: StreamInput!) { recordStream(input: $in)"
                                + " { counted } }", Map.of("in", Map.of("movieId", stream.get("movieId").s(),
                                "streamId", stream.get("streamId").s(), "at", stream.get("at").s()))),
                        "application/json", "application/json").body();
                assertFalse(receipt.path("data").path("recordStream").path("counted").asBoolean(true),
                        "retry of " + stream.get("streamId").s() + ": " + receipt);
            }
        }
    }

    // ---- helpers

    private static boolean hasLayoutItem(List<Map<String, AttributeValue>> items) {
        return items.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout"));
    }

    private static long count(List<Map<String, AttributeValue>> items, String type) {
        return items.stream().filter(item -> item.get("type").s().equals(type)).count();
    }

    private static Set<String> keys(List<Map<String, AttributeValue>> items) {
        Set<String> keys = new HashSet<>();
        items.forEach(item -> keys.add(item.get("pk").s() + "|" + item.get("sk").s()));
        return keys;
    }

    private static List<Map<String, AttributeValue>> scanAll(Path dataDir) {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                List<Map<String, AttributeValue>> items = new ArrayList<>();
                Map<String, AttributeValue> from = null;
                do {
                    ScanRequest.Builder scan = ScanRequest.builder().tableName(TABLE);
                    if (from != null) {
                        scan.exclusiveStartKey(from);
                    }
                    ScanResponse page = client.scan(scan.build()).join();
                    items.addAll(page.items());
                    from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
                } while (from != null);
                return items;
            } finally {
                client.close();
            }
        }
    }

    /** Fails every call after the given number of writes, as a killed process would stop making them. */
    private static final class DiesAfterWrites implements ExecutionInterceptor {
        private final int writes;
        private final AtomicInteger seen = new AtomicInteger();

        DiesAfterWrites(int writes) {
            this.writes = writes;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            boolean write = context.request() instanceof BatchWriteItemRequest
                    || context.request() instanceof TransactWriteItemsRequest;
            if (seen.get() >= writes || write && seen.incrementAndGet() > writes) {
                throw new IllegalStateException("killed");
            }
        }
    }
}
