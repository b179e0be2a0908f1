package dev.moviegraph.dynamo.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.ChangeFeed;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.local.EmbeddedDynamo;

import java.time.Clock;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/** Two feeds on one table, as two replicas: one reads the stream, both hear every change, and a stop hands over. */
class StreamChangeFeedTest {
    private static final String TABLE = "feedtest";
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static DynamoDbStreamsAsyncClient streams;
    private static String arn;

    @BeforeAll
    static void start() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
        streams = DynamoClients.createStreams(dynamo.endpoint());
        TableAdmin admin = new TableAdmin(client, TABLE);
        admin.ensureTable();
        arn = admin.ensureStream(true);
    }

    @AfterAll
    static void stop() {
        streams.close();
        client.close();
        dynamo.close();
    }

    private static StreamChangeFeed feed() {
        return StreamChangeFeed.readingTheStream(client, streams, TABLE, arn, Clock.systemUTC());
    }

    private static void addStreams(String movie, YearMonth month) {
        client.updateItem(TestItems.addStreams(TABLE, MovieId.of(movie), month, "A title", 1)).join();
    }

    /** The next delivery naming {@code movie} (or everything) within {@code seconds}. */
    private static CatalogChanges await(BlockingQueue<CatalogChanges> heard, String movie, double seconds)
            throws InterruptedException {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < until) {
            CatalogChanges changes = heard.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (changes != null && (movie == null ? changes.everything() : changes.movies().contains(MovieId.of(movie)))) {
                return changes;
            }
        }
        return null;
    }

    /** The lease's holder once it is held by another than {@code previous}, within {@code seconds}; else null. */
    private static String awaitOwnerOtherThan(String previous, double seconds) throws InterruptedException {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < until) {
            String owner = leaseOwner();
            if (owner != null && !owner.equals(previous)) {
                return owner;
            }
            Thread.sleep(100);
        }
        return null;
    }

    private static String leaseOwner() {
        var item = client.getItem(b -> b.tableName(TABLE).key(TableModel.LEASE.key(java.util.Map.of("name",
                StreamChangeFeed.LEASE_NAME))).consistentRead(true)).join().item();
        return item.isEmpty() || TableModel.LEASE.decode(item).heldUntil() < System.currentTimeMillis() ? null
                : TableModel.LEASE.decode(item).owner();
    }

    @Test
    void bothReplicasHearEveryChangeAndAStoppedReaderIsReplacedWithoutLosingAny() throws Exception {
        BlockingQueue<CatalogChanges> first = new LinkedBlockingQueue<>();
        BlockingQueue<CatalogChanges> second = new LinkedBlockingQueue<>();
        YearMonth month = YearMonth.of(2024, 5);
        StreamChangeFeed one = feed();
        StreamChangeFeed two = feed();
        try {
            one.listen(first::add);
            assertNotNull(await(first, null, 5), "the first holder publishes 'everything' when it takes the lease");
            String holder = leaseOwner();
            assertNotNull(holder);
            two.listen(second::add);
            Thread.sleep(1_500);
            assertEquals(holder, leaseOwner(), "the second replica polls; it does not take the lease from a live holder");

            addStreams("tt0000001", month);
            CatalogChanges heardByOne = await(first, "tt0000001", 3);
            CatalogChanges heardByTwo = await(second, "tt0000001", 3);
            assertNotNull(heardByOne, "the holder's own replica heard nothing");
            assertNotNull(heardByTwo, "the other replica heard nothing");
            assertTrue(heardByTwo.months().contains(month), heardByTwo.toString());

            one.close();
            // The second takes over within its next attempts (the lease was given up, not left to expire). An
            // 'everything' it heard before may be another's, so the lease itself is what is waited for.
            String successor = awaitOwnerOtherThan(holder, 10);
            assertNotNull(successor, "the lease did not change hands");
            assertNotNull(await(second, null, 5), "the new holder did not publish 'everything'");
            addStreams("tt0000002", month);
            assertNotNull(await(second, "tt0000002", 3), "a change after the handover was not heard");
        } finally {
            one.close();
            two.close();
        }
    }

    @Test
    void aFeedWithoutListenersReadsNothingAndReleasesTheLease() throws Exception {
        BlockingQueue<CatalogChanges> heard = new LinkedBlockingQueue<>();
        StreamChangeFeed feed = feed();
        try {
            ChangeFeed.Registration registration = feed.listen(heard::add);
            assertNotNull(await(heard, null, 5));
            assertNotNull(leaseOwner());
            registration.close();
            Thread.sleep(1_000);
            assertEquals(null, leaseOwner(), "the lease is given up when the last listener leaves");
        } finally {
            feed.close();
        }
    }
}
