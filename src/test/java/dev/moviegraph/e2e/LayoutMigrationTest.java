package dev.moviegraph.e2e;

import static dev.moviegraph.e2e.MigratedServer.assertSearchable;
import static dev.moviegraph.e2e.MigratedServer.assertServed;
import static dev.moviegraph.e2e.MigratedServer.assertServedTop;
import static dev.moviegraph.e2e.MigratedServer.embeddedEnvironment;
import static dev.moviegraph.e2e.MigratedTable.DERIVED;
import static dev.moviegraph.e2e.MigratedTable.assertExactLists;
import static dev.moviegraph.e2e.MigratedTable.assertMigrated;
import static dev.moviegraph.e2e.MigratedTable.assertRated;
import static dev.moviegraph.e2e.MigratedTable.assertSettled;
import static dev.moviegraph.e2e.MigratedTable.busiestMonth;
import static dev.moviegraph.e2e.MigratedTable.count;
import static dev.moviegraph.e2e.MigratedTable.expectedTop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.cli.Migrate;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.admin.Layout4Table;
import dev.moviegraph.dynamo.admin.LayoutMigration;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.DiesAtRequest;
import dev.moviegraph.support.DiesAtTransaction;
import dev.moviegraph.support.Layout1Table;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

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
        assertServed(dataDir, before);

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
        assertSearchable(dataDir, before);
    }

    @Test
    void aLayoutThreeTableIsMigratedWhileItsGatewaysCountAndSettledOnceTheyStop() throws Exception {
        migrateTo(3, Integer.MAX_VALUE);
        CountedStreams counted = new CountedStreams();
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
            CountedStreams counted = new CountedStreams();
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

    /** What a gateway of layout 3 wrote for a stream: one more on the total, its rank untouched. */
    private static void countLikeLayoutThree(DynamoDbAsyncClient client, Map<String, AttributeValue> total, Map<String, Long> added) {
        client.updateItem(update -> update.tableName(TABLE).key(Map.of("pk", total.get("pk"), "sk", total.get("sk")))
                .updateExpression("ADD streams :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))))
                .join();
        added.merge(CountedStreams.key(total), 1L, Long::sum);
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

    @Test
    void migrateWithTheEmbeddedEngineAndNoDataDirSaysWhatItNeeds() {
        ConfigException refused = assertThrows(ConfigException.class, () -> Migrate.run(
                AppConfig.fromEnvironment(Map.of()), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("DYNAMODB_DATA_DIR"), refused.getMessage());
    }

    // ---- helpers

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
