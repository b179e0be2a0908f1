package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.cli.Migrate;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.admin.Layout4Table;
import dev.moviegraph.dynamo.admin.LayoutMigration;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.DiesAtRequest;
import dev.moviegraph.support.DiesAtTransaction;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.Layout1Table;
import dev.moviegraph.support.RequestCounter;

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
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
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

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
            "directedCount", "wroteCount", "gsi7pk", "trank", "gsi2pk", "gsi8pk");
    /** The items layouts 3 and 5 derive: search and list entries, and each month's top list. */
    private static final Set<String> DERIVED = Set.of("movieWord", "personWord", "movieList", "topList");
    /** What migrate's last step writes on movie items, checked in assertDerived: the first-billed cast copied. */
    private static final Set<String> DERIVED_ON_MOVIES = Set.of("firstCast", "castVersion");
    /** Layout 4's top index key and rank, and layout 3's: no total of a settled layout 5 table has them. */
    private static final Set<String> OLD_TOP_KEYS = Set.of("gsi7pk", "trank", "gsi2pk");

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
                // An eighth of the dump: every shape layout 1 has (more would prove nothing more, and take longer).
                layoutOneItems = Layout1Table.create(client, TABLE, Layout1Table.items(8));
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
        assertTrue(printed.contains("has layout " + dev.moviegraph.dynamo.model.TableModel.LAYOUT_VERSION), printed);
        assertEquals(count(before, "actor"), summary.people());
        assertEquals(count(before, "cast"), summary.credits());
        assertEquals(count(before, "movie"), summary.movies());

        List<Map<String, AttributeValue>> after = scanAll(dataDir);
        assertMigrated(before, after);
        assertSettled(after);
        assertExactLists(after);
        assertRated(after);
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
    void aLayoutThreeTableIsMigratedWhileItsGatewaysCountAndSettledOnceTheyStop() throws Exception {
        migrateTo(3, Integer.MAX_VALUE);
        Counted counted = new Counted();
        Map<String, Long> added = counted.added;
        List<Map<String, AttributeValue>> after;
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dataDir, false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                List<Map<String, AttributeValue>> totals = scan(client).stream()
                        .filter(item -> item.get("type").s().equals("total")).toList();
                assertTrue(totals.size() > 20, "the table has totals: " + totals.size());
                counted.before(totals);
                // A gateway of layout 3 counting streams the whole time both steps run, and after them.
                java.util.concurrent.atomic.AtomicBoolean counting = new java.util.concurrent.atomic.AtomicBoolean(true);
                Thread layoutThreeGateway = new Thread(() -> {
                    java.util.Random random = new java.util.Random(4);
                    while (counting.get()) {
                        countLikeLayoutThree(client, totals.get(random.nextInt(totals.size())), added);
                    }
                });
                layoutThreeGateway.start();
                // Layout 4's step alone (a run that goes on to 5 skips it): gsi7 built and every total ranked.
                assertFalse(new LayoutMigration(client, TABLE, false, line -> { }, 4).run().alreadyCurrent());
                assertTrue(scan(client).stream().filter(item -> item.get("type").s().equals("total"))
                        .allMatch(total -> total.containsKey("gsi7pk") && total.containsKey("trank")), "ranked in gsi7");
                List<String> step = new ArrayList<>();
                new LayoutMigration(client, TABLE, false, step::add).run();
                assertTrue(step.stream().anyMatch(line -> line.contains("from layout 4 to layout 5")), step.toString());
                assertFalse(step.stream().anyMatch(line -> line.contains("Settling")), "gateways of layouts 3 and 4 may run");
                for (int i = 0; i < 20; i++) {
                    countLikeLayoutThree(client, totals.get(i), added); // counted after the step read them
                }
                counting.set(false);
                layoutThreeGateway.join();
                assertTrue(added.values().stream().mapToLong(Long::longValue).sum() >= 20, added.toString());

                List<String> settling = new ArrayList<>();
                new LayoutMigration(client, TABLE, false, settling::add).run();
                assertTrue(settling.stream().anyMatch(line -> line.contains("Settling the top index gsi2 and gsi7")),
                        settling.toString());
                after = scan(client);
                counted.assertCountedOnce(after);
                List<String> again = new ArrayList<>();
                assertTrue(new LayoutMigration(client, TABLE, false, again::add).run().alreadyCurrent(), again.toString());
            } finally {
                client.close();
            }
        }
        assertSettled(after);
        assertExactLists(after);
        assertTrue(after.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout3-settled")));
        assertTrue(after.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout4-settled")));
        String month = busiestMonth(after);
        assertServedTop(dataDir, month, expectedTop(after, month, 10));
    }

    @Test
    void aLayoutFourTableIsMigratedWhileItsGatewaysCountThenSettledWithExactListsServedInOneRequest() throws Exception {
        Path four = EmbeddedDynamo.scratchDirectory("moviegraph-layout4");
        try {
            Counted counted = new Counted();
            Map<String, Long> added = counted.added;
            List<Map<String, AttributeValue>> after;
            try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(four, false)) {
                DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
                try {
                    counted.before(Layout4Table.create(client, TABLE));
                    // A gateway of layout 4 counting the whole time the step runs: existing totals of the busy month
                    // (ranked in gsi7), and new totals of the quiet month, some below its floor (out of gsi7).
                    java.util.concurrent.atomic.AtomicBoolean counting = new java.util.concurrent.atomic.AtomicBoolean(true);
                    Thread layoutFourGateway = new Thread(() -> {
                        java.util.Random random = new java.util.Random(5);
                        while (counting.get()) {
                            int movie = random.nextInt(Layout4Table.MOVIES);
                            if (random.nextBoolean()) {
                                countLikeLayoutFour(client, movie, Layout4Table.BUSY, 1 + random.nextInt(3), true, added);
                            } else {
                                countLikeLayoutFour(client, movie, Layout4Table.QUIET, 1, movie % 2 == 0, added);
                            }
                        }
                    });
                    layoutFourGateway.start();
                    List<String> step = new ArrayList<>();
                    assertFalse(new LayoutMigration(client, TABLE, false, step::add).run().alreadyCurrent());
                    assertFalse(step.stream().anyMatch(line -> line.contains("Settling")), "gateways of layout 4 may run");
                    // Counted by the old gateway after the step read them: the month's last movie to its first place,
                    // and a total the step never saw, out of gsi7 and without a gsi8 key.
                    countLikeLayoutFour(client, 0, Layout4Table.BUSY, 100, true, added);
                    countLikeLayoutFour(client, 200, Layout4Table.FEW, 50, false, added);
                    counting.set(false);
                    layoutFourGateway.join();
                    assertTrue(added.size() > 10, "the old gateway counted during the step: " + added);

                    List<String> settling = new ArrayList<>();
                    new LayoutMigration(client, TABLE, false, settling::add).run();
                    assertTrue(settling.stream().anyMatch(line -> line.contains("Settling the top index gsi7")), settling.toString());
                    after = scan(client);
                    counted.assertCountedOnce(after);
                    assertTrue(new LayoutMigration(client, TABLE, false, line -> { }).run().alreadyCurrent());
                } finally {
                    client.close();
                }
            }
            assertSettled(after);
            assertExactLists(after);
            assertRated(after);
            assertTrue(after.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout4-settled")));
            List<String> busy = expectedTop(after, Layout4Table.BUSY.toString(), 10);
            assertEquals(Layout4Table.movie(0).value(), busy.get(0), "counted after the step, merged by the settling");
            assertServedTop(four, Layout4Table.BUSY.toString(), busy);
        } finally {
            delete(four);
        }
    }

    @Test
    void aLayoutFourMigrationKilledHalfwayIsRefusedByServersAndFinishedByRunningItAgain() throws Exception {
        Path four = EmbeddedDynamo.scratchDirectory("moviegraph-layout4");
        try {
            try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(four, false)) {
                DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
                try {
                    Layout4Table.create(client, TABLE);
                    // Killed in the Scan (the 100th total's key), then while rating list entries (the 20th
                    // transaction), then while writing the top lists (the second list).
                    diesMigrating(dynamo, new DiesAtRequest(UpdateItemRequest.class, 100));
                    List<Map<String, AttributeValue>> cut = scan(client);
                    long keyed = cut.stream().filter(item -> item.get("type").s().equals("total"))
                            .filter(total -> total.containsKey("gsi8pk")).count();
                    assertTrue(keyed > 0 && keyed < count(cut, "total"), "cut off in the Scan: " + keyed + " keyed");
                    diesMigrating(dynamo, new DiesAtTransaction(20));
                    diesMigrating(dynamo, new DiesAtRequest(PutItemRequest.class, 2));
                    cut = scan(client);
                    assertTrue(count(cut, "topList") < 3, "cut off among the lists: " + count(cut, "topList"));
                    assertTrue(cut.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout")
                            && item.get("layoutVersion").n().equals("4")), "still layout 4");
                } finally {
                    client.close();
                }
            }
            Map<String, String> environment = Map.of("DYNAMODB_DATA_DIR", four.toString(), "PORT", "0", "LOAD_SAMPLE", "false");
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> Moviegraph.start(AppConfig.fromEnvironment(environment), List.of()));
            assertTrue(refused.getMessage().contains("migrate"), refused.getMessage());

            List<Map<String, AttributeValue>> after;
            try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(four, false)) {
                DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
                try {
                    assertFalse(new LayoutMigration(client, TABLE, false, line -> { }).run().alreadyCurrent());
                    List<Map<String, AttributeValue>> finished = scan(client);
                    assertExactLists(finished);
                    assertRated(finished);
                    assertTrue(finished.stream().filter(item -> item.get("type").s().equals("total"))
                            .allMatch(total -> total.containsKey("gsi8pk")), "every total keyed in gsi8");
                    new LayoutMigration(client, TABLE, false, line -> { }).run(); // the settling
                    after = scan(client);
                } finally {
                    client.close();
                }
            }
            assertSettled(after);
            assertExactLists(after);
        } finally {
            delete(four);
        }
    }

    /** Totals' streams before a migration, and what old gateways counted during it, by movie|month. */
    private static final class Counted {
        private final Map<String, Long> before = new HashMap<>();
        private final Map<String, Long> added = new java.util.concurrent.ConcurrentHashMap<>();

        void before(List<Map<String, AttributeValue>> items) {
            items.stream().filter(item -> item.get("type").s().equals("total"))
                    .forEach(total -> before.put(key(total), Long.parseLong(total.get("streams").n())));
        }

        /** Every total has what it had plus what was counted: no stream lost or counted twice. */
        void assertCountedOnce(List<Map<String, AttributeValue>> after) {
            for (Map<String, AttributeValue> total : after) {
                if (total.get("type").s().equals("total")) {
                    assertEquals(before.getOrDefault(key(total), 0L) + added.getOrDefault(key(total), 0L),
                            Long.parseLong(total.get("streams").n()), "every stream counted once at " + key(total));
                }
            }
        }
    }

    /** Runs the migration on a client that dies as {@code death} says, and asserts that it died. */
    private static void diesMigrating(EmbeddedDynamo dynamo, software.amazon.awssdk.core.interceptor.ExecutionInterceptor death) {
        DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(death));
        try {
            assertThrows(RuntimeException.class, () -> new LayoutMigration(dying, TABLE, false, line -> { }).run());
        } finally {
            dying.close();
        }
    }

    /** What a gateway of layout 4 wrote for streams, counted in {@code added}. */
    private static void countLikeLayoutFour(DynamoDbAsyncClient client, int movie, java.time.YearMonth month, long count,
                                            boolean ranked, Map<String, Long> added) {
        Layout4Table.count(client, TABLE, movie, month, count, ranked);
        added.merge(Layout4Table.movie(movie).value() + "|" + month, count, Long::sum);
    }

    // ---- what "settled" and "exact" mean

    /** No total is left in an index of layouts 3 or 4, every total is in gsi8, layout 4's floors are gone. */
    private static void assertSettled(List<Map<String, AttributeValue>> after) {
        for (Map<String, AttributeValue> item : after) {
            if (item.get("type").s().equals("total")) {
                assertTrue(OLD_TOP_KEYS.stream().noneMatch(item::containsKey), "out of the old top indexes: " + item);
                assertTrue(item.get("gsi8pk").s().startsWith("mon#" + item.get("month").s() + "#"), "in gsi8: " + item);
            }
            assertFalse(item.get("pk").s().startsWith("topfloor#"), "layout 4's floors deleted: " + item.get("pk"));
        }
    }

    /**
     * Every month's top list item is the top 200 of its totals by streams, then movie id, with their titles,
     * and its floor is the 200th's streams when the month has 200 or more, else 0.
     */
    private static void assertExactLists(List<Map<String, AttributeValue>> after) {
        Map<String, List<Map<String, AttributeValue>>> byMonth = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("total"))
                .filter(total -> Long.parseLong(total.get("streams").n()) > 0)
                .forEach(total -> byMonth.computeIfAbsent(total.get("month").s(), month -> new ArrayList<>()).add(total));
        Map<String, Map<String, AttributeValue>> lists = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("topList")).forEach(list -> lists.put(list.get("month").s(), list));
        assertEquals(byMonth.keySet(), lists.keySet(), "a list for every month with streams");
        byMonth.forEach((month, totals) -> {
            List<Map<String, AttributeValue>> best = totals.stream().sorted(BEST_FIRST).limit(200).toList();
            Map<String, AttributeValue> list = lists.get(month);
            assertEquals(best.stream().map(total -> total.get("movieId").s() + "=" + total.get("streams").n()
                            + " " + text(total, "movieTitle")).toList(),
                    list.get("entries").l().stream().map(entry -> entry.m().get("m").s() + "=" + entry.m().get("s").n()
                            + " " + text(entry.m(), "t")).toList(), "the top list of " + month);
            assertEquals(totals.size() >= 200 ? best.get(199).get("streams").n() : "0", list.get("floor").n(),
                    "the floor of " + month);
        });
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name) ? item.get(name).s() : null;
    }

    private static final Comparator<Map<String, AttributeValue>> BEST_FIRST = Comparator
            .comparingLong((Map<String, AttributeValue> total) -> -Long.parseLong(total.get("streams").n()))
            .thenComparing(total -> total.get("movieId").s());

    /** The month's top {@code limit} movie ids from the totals. */
    private static List<String> expectedTop(List<Map<String, AttributeValue>> after, String month, int limit) {
        return after.stream().filter(item -> item.get("type").s().equals("total") && item.get("month").s().equals(month))
                .sorted(BEST_FIRST).limit(limit).map(total -> total.get("movieId").s()).toList();
    }

    private static String busiestMonth(List<Map<String, AttributeValue>> after) {
        return after.stream().filter(item -> item.get("type").s().equals("total"))
                .collect(Collectors.groupingBy(total -> total.get("month").s(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** Every list entry copies its movie's rating and votes, and says so. */
    private static void assertRated(List<Map<String, AttributeValue>> after) {
        Map<String, Map<String, AttributeValue>> movies = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("movie")).forEach(movie -> movies.put(movie.get("pk").s(), movie));
        List<Map<String, AttributeValue>> entries = after.stream().filter(item -> item.get("type").s().equals("movieList")).toList();
        assertFalse(entries.isEmpty(), "the table has list entries");
        for (Map<String, AttributeValue> entry : entries) {
            Map<String, AttributeValue> movie = movies.get(entry.get("pk").s());
            assertEquals(Boolean.TRUE, entry.get("ratingCopied").bool(), "rating copied: " + entry);
            assertEquals(movie.get("averageRating"), entry.get("averageRating"), "rating of " + entry);
            assertEquals(movie.get("numVotes"), entry.get("numVotes"), "votes of " + entry);
        }
    }

    /** A real server on {@code dir} answers the month's top 10 with {@code expected}, in one GetItem. */
    private static void assertServedTop(Path dir, String month, List<String> expected) {
        RequestCounter counter = new RequestCounter();
        Map<String, String> environment = Map.of("DYNAMODB_DATA_DIR", dir.toString(), "PORT", "0", "LOAD_SAMPLE", "false",
                "SUBSCRIPTIONS", "off");
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(environment), List.of(counter))) {
            counter.reset();
            List<String> top = new ArrayList<>();
            new GraphQLClient(server.port()).query("query($m: YearMonth!) { topMovies(month: $m, limit: 10) { streams movie { id title } } }",
                    Map.of("m", month)).data().path("topMovies").forEach(entry -> top.add(entry.path("movie").path("id").asText()));
            assertEquals(List.of("GetItem"), counter.operations(), "the top 10 of " + month + " in one request");
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
            ScanRequest.Builder request = ScanRequest.builder().tableName(TABLE).consistentRead(true).overrideConfiguration(Layout1Table.PATIENT);
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
                // migrate's last step: the first five billed copied on the movie item, billing order, uncredited last
                List<String> firstBilled = after.stream().filter(item -> item.get("type").s().equals("cast"))
                        .filter(item -> item.get("movieId").equals(movie.get("movieId")))
                        .sorted(Comparator.comparing((Map<String, AttributeValue> item) -> item.get("lsi1sk").s()))
                        .limit(5).map(item -> item.get("personId").s()).toList();
                List<String> copied = movie.containsKey("firstCast") ? movie.get("firstCast").l().stream()
                        .map(entry -> entry.m().get("p").s()).toList() : List.of();
                assertEquals(firstBilled, copied, "first-billed cast copied on " + movie.get("movieId").s());
            }
        }
    }

    /** Without the keys layout 2 renders, and without empty lists: to the model, absent and empty are one. */
    private static Map<String, AttributeValue> withoutKeysOfLayout2(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> rest = new HashMap<>(item);
        REKEYED.forEach(rest::remove);
        DERIVED_ON_MOVIES.forEach(rest::remove);
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
                    ScanRequest.Builder scan = ScanRequest.builder().tableName(TABLE).overrideConfiguration(Layout1Table.PATIENT);
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
