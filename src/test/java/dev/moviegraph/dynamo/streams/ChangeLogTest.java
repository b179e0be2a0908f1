package dev.moviegraph.dynamo.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.local.EmbeddedDynamo;

import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * The change feed's log with many publishers (a Lambda invocation per shard): numbers taken in order,
 * changes landing out of order or never, and every replica's reader hearing each change once or, for a
 * change that never landed, "everything" after {@link ChangeLog#GAP_WAIT}.
 */
class ChangeLogTest {
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static int tables;
    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };
    private String table;
    private ChangeLog log;

    @BeforeAll
    static void start() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
    }

    @AfterAll
    static void stop() {
        client.close();
        dynamo.close();
    }

    @BeforeEach
    void freshTable() {
        table = "log" + (++tables);
        new TableAdmin(client, table).ensureTable();
        log = new ChangeLog(client, table, clock);
    }

    private static CatalogChanges movie(String id) {
        return new CatalogChanges(Set.of(MovieId.of(id)), Set.of(YearMonth.of(2026, 11)), false);
    }

    private static String id(int n) {
        return String.format("tt7%07d", n);
    }

    /** A publisher that took its number and died before writing its change. */
    private long takeANumberAndDie() {
        return takeNumbersAndDie(1);
    }

    /** Numbers taken without a change written under any of them: the last one. */
    private long takeNumbersAndDie(long count) {
        return Long.parseLong(client.updateItem(update -> update.tableName(table)
                .key(TableModel.CHANGE_TICKET.key(Map.of("feed", "log"))).updateExpression("ADD #issued :n")
                .expressionAttributeNames(Map.of("#issued", TableModel.CHANGE_TICKET.attribute("issued")))
                .expressionAttributeValues(Map.of(":n", fromN(Long.toString(count)))).returnValues(ReturnValue.UPDATED_NEW))
                .join().attributes().get(TableModel.CHANGE_TICKET.attribute("issued")).n());
    }

    /** A new reader: nothing published before it is delivered. */
    private ChangeLog.Reader started() {
        ChangeLog.Reader reader = log.reader();
        assertTrue(reader.poll().isEmpty(), "a reader starts after the last number handed out");
        return reader;
    }

    @Test
    void aReaderStartsAfterTheLastNumberTakenAndALateOneWithEverything() {
        log.publish(movie(id(1)));
        long landing = takeANumberAndDie();
        ChangeLog.Reader reader = log.reader();
        ChangeLog.Reader late = log.lateReader();
        // The change under `landing` lands after the readers started, below where they start: its writes
        // were made before its number was taken, so a listener reading the catalog after reader() sees them.
        client.putItem(put -> put.tableName(table).item(TableModel.CHANGE.encode(new TableModel.Change(landing,
                List.of(id(2)), List.of(), false, 0)))).join();
        assertTrue(reader.poll().isEmpty(), "numbers before the reader are not delivered");
        assertTrue(late.poll().everything(), "listeners that read before a late reader started read again");
        assertTrue(late.poll().isEmpty());
        log.publish(movie(id(3)));
        CatalogChanges third = new CatalogChanges(Set.of(MovieId.of(id(3))), Set.of(YearMonth.of(2026, 11)), false);
        assertEquals(third, reader.poll());
        assertEquals(third, late.poll());
    }

    @Test
    void aJumpOfMoreNumbersThanAReaderWaitsOnIsGivenUpAtOnce() {
        ChangeLog.Reader reader = started();
        takeNumbersAndDie(ChangeLog.MAX_GAP + 5);
        log.publish(movie(id(1)));
        CatalogChanges heard = reader.poll();
        assertTrue(heard.everything(), "given up in one");
        assertEquals(Set.of(MovieId.of(id(1))), heard.movies());
        now.addAndGet(ChangeLog.GAP_WAIT.toMillis());
        assertTrue(reader.poll().isEmpty(), "nothing left waiting");
        log.publish(movie(id(2)));
        assertEquals(Set.of(MovieId.of(id(2))), reader.poll().movies());
    }

    @Test
    void everyChangeOfManyPublishersAtOnceIsHeardOnceByEveryReader() throws Exception {
        ChangeLog.Reader one = started();
        ChangeLog.Reader two = started();
        ExecutorService publishers = Executors.newFixedThreadPool(8);
        List<Future<Long>> published = new ArrayList<>();
        try {
            for (int n = 0; n < 160; n++) {
                CatalogChanges changes = movie(id(n));
                published.add(publishers.submit(() -> log.publish(changes)));
            }
            Set<Long> numbers = new HashSet<>();
            for (Future<Long> number : published) {
                numbers.add(number.get());
            }
            assertEquals(160, numbers.size(), "each publisher has a number of its own");
        } finally {
            publishers.shutdown();
        }
        for (ChangeLog.Reader reader : List.of(one, two)) {
            CatalogChanges heard = reader.poll();
            assertFalse(heard.everything(), "nothing was missing");
            assertEquals(160, heard.movies().size());
            assertTrue(reader.poll().isEmpty(), "each change is heard once");
        }
    }

    @Test
    void aChangeLandingAfterALaterOneIsStillHeard() {
        ChangeLog.Reader reader = started();
        long slow = takeANumberAndDie();
        log.publish(movie(id(2)));
        assertEquals(Set.of(MovieId.of(id(2))), reader.poll().movies(), "the later change is heard at once");
        // The slow publisher's change lands within the wait, under the number it took.
        client.putItem(put -> put.tableName(table).item(TableModel.CHANGE.encode(new TableModel.Change(slow,
                List.of(id(1)), List.of(), false, 0)))).join();
        now.addAndGet(ChangeLog.GAP_WAIT.toMillis() / 2);
        CatalogChanges late = reader.poll();
        assertEquals(Set.of(MovieId.of(id(1))), late.movies());
        assertFalse(late.everything(), "nothing was given up");
        now.addAndGet(ChangeLog.GAP_WAIT.toMillis());
        assertTrue(reader.poll().isEmpty());
    }

    @Test
    void aNumberWhoseChangeNeverLandsIsGivenUpAsEverythingAfterTheWait() {
        ChangeLog.Reader reader = started();
        takeANumberAndDie();
        log.publish(movie(id(2)));
        CatalogChanges first = reader.poll();
        assertFalse(first.everything(), "a missing number may still land: not given up yet");
        now.addAndGet(ChangeLog.GAP_WAIT.toMillis() - 1);
        assertTrue(reader.poll().isEmpty());
        now.addAndGet(1);
        assertTrue(reader.poll().everything(), "every subscription reads again: the lost change is made good");
        assertTrue(reader.poll().isEmpty(), "given up once");
        log.publish(movie(id(3)));
        assertEquals(Set.of(MovieId.of(id(3))), reader.poll().movies(), "the reader goes on past the gap");
    }

    @Test
    void aChangeOfMoreMoviesThanAnItemShouldHoldIsEverything() {
        ChangeLog.Reader reader = started();
        Set<MovieId> many = new HashSet<>();
        for (int n = 0; n <= ChangeLog.MAX_MOVIES_PER_CHANGE; n++) {
            many.add(MovieId.of(id(n)));
        }
        log.publish(new CatalogChanges(many, Set.of(), false));
        CatalogChanges heard = reader.poll();
        assertTrue(heard.everything());
        assertTrue(heard.movies().isEmpty(), "the item names none of them");
        assertEquals(0, log.publish(new CatalogChanges(Set.of(), Set.of(), false)), "nothing to publish, no number");
    }

    @Test
    void ownersOfPrivateCollectionsTravelThroughTheLogAndAnOlderChangeReadsBackWithNone() {
        ChangeLog.Reader reader = log.reader();
        CatalogChanges.Owner alice = new CatalogChanges.Owner(Part.Collection.values()[0], "auth0|alice:with:colons");
        log.publish(new CatalogChanges(Set.of(), Set.of(), Set.of(alice), false));
        CatalogChanges heard = reader.poll();
        assertEquals(Set.of(alice), heard.owners(), "an owner alone is a change, published and heard");
        assertTrue(heard.movies().isEmpty());
        assertFalse(heard.everything());

        // A change item written before owners existed (no owners attribute) reads back with none.
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> older = new java.util.HashMap<>(
                TableModel.CHANGE.encode(new TableModel.Change(takeANumberAndDie(), List.of(id(1)), List.of(), false, 0)));
        older.remove("owners");
        client.putItem(put -> put.tableName(table).item(older)).join();
        CatalogChanges old = reader.poll();
        assertEquals(Set.of(MovieId.of(id(1))), old.movies());
        assertTrue(old.owners().isEmpty());
    }

    @Test
    void anOwnerOfAKindThisVersionDoesNotKnowIsLeftOut() {
        assertEquals(null, CatalogChanges.Owner.parse("NEWER_KIND:bob"));
        assertEquals(null, CatalogChanges.Owner.parse("no separator"));
        assertEquals(new CatalogChanges.Owner(Part.Collection.PERSON, "a:b"), CatalogChanges.Owner.parse("PERSON:a:b"));
    }
}
