package dev.moviegraph.dynamo.streams;

import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN;
import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;

import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The change feed's log: any number of publishers at once (the gateway that holds the stream reader
 * lease, or one Lambda invocation per stream shard), every replica with subscribers reading it.
 *
 * <p>A publisher takes the next number from a ticket item (an atomic {@code ADD}), then writes its change
 * under that number. Numbers are handed out in order but their changes may land out of order, or not
 * at all (a publisher that died between the two writes), so a {@link Reader} delivers every change it
 * finds, remembers the numbers it has not seen below the highest it has, and when one of them is still
 * missing after {@link #GAP_WAIT} it delivers "everything": every subscription reads again, so a change
 * that never landed is made good, never lost. The changes of a ticket were written to the table before
 * its publisher took it, and it was taken before any higher one, so a reading made once a higher number
 * has been read sees them: giving a number up is always safe, waiting only spares a wider re-read.
 */
public final class ChangeLog {
    /** How long a reader waits for a number it has not seen before it gives it up (and everyone reads again). */
    static final Duration GAP_WAIT = Duration.ofSeconds(5);
    /** Published changes expire (TTL) after this; replicas read them within a second. */
    private static final Duration CHANGE_LIFETIME = Duration.ofHours(1);
    /**
     * A change naming more movies than this is published as "everything" (a bulk write, an import, a
     * busy second at scale): it keeps every change item near 1 KB, so the log's one partition takes
     * hundreds of publishers and the replicas' polls stay at one or two read units.
     */
    public static final int MAX_MOVIES_PER_CHANGE = 100;
    private static final String FEED = "log";
    private static final String ISSUED = TableModel.CHANGE_TICKET.attribute("issued");
    /**
     * A reader that finds more numbers missing than this at once (a log emptied by TTL over a quiet spell
     * while the ticket kept counting, say) gives them all up in one "everything" instead of waiting on each.
     */
    static final long MAX_GAP = 10_000;

    private final DynamoDbAsyncClient dynamo;
    private final String table;
    private final Clock clock;

    public ChangeLog(DynamoDbAsyncClient dynamo, String table, Clock clock) {
        this.dynamo = dynamo;
        this.table = table;
        this.clock = clock;
    }

    /** Publishes {@code changes} (nothing when empty) under a fresh number; returns that number, or 0. */
    public long publish(CatalogChanges changes) {
        if (changes.isEmpty()) {
            return 0;
        }
        Expression next = Expression.of(ItemUpdate.create().set(TableModel.TYPE, fromS(TableModel.CHANGE_TICKET.type()))
                .set(TableModel.CHANGE_TICKET.attribute("feed"), fromS(FEED)).add(ISSUED, fromN("1")), null);
        var issued = dynamo.updateItem(UpdateItemRequest.builder().tableName(table)
                .key(TableModel.CHANGE_TICKET.key(Map.of("feed", FEED)))
                .updateExpression(next.update())
                .expressionAttributeNames(next.names())
                .expressionAttributeValues(next.values())
                .returnValues(ReturnValue.UPDATED_NEW).build()).join();
        long number = Long.parseLong(issued.attributes().get(ISSUED).n());
        // Owners count with the movies: either many at once make one "everything", which keeps the item small.
        boolean everything = changes.everything()
                || changes.movies().size() + changes.owners().size() > MAX_MOVIES_PER_CHANGE;
        TableModel.Change change = new TableModel.Change(number,
                everything ? List.of() : changes.movies().stream().map(MovieId::value).sorted().toList(),
                everything ? List.of() : changes.months().stream().map(YearMonth::toString).sorted().toList(),
                everything, (clock.millis() + CHANGE_LIFETIME.toMillis()) / 1000,
                everything ? List.of() : changes.owners().stream().map(CatalogChanges.Owner::text).sorted().toList());
        dynamo.putItem(PutItemRequest.builder().tableName(table).item(TableModel.CHANGE.encode(change)).build()).join();
        return number;
    }

    /**
     * A reader that delivers the changes numbered after the last number handed out so far. Whoever reads
     * the catalog after this returns sees every change numbered before (its writes came before its
     * number), so listeners must make their first reading after it.
     */
    public Reader reader() {
        return new Reader(issued(), false);
    }

    /**
     * A reader for listeners that may have read the catalog before it started: its first poll says
     * "everything", as a change numbered before it may have been written after their reading.
     */
    public Reader lateReader() {
        return new Reader(issued(), true);
    }

    /** The last number handed out (0 before the first): strongly consistent. */
    private long issued() {
        Map<String, AttributeValue> ticket = dynamo.getItem(GetItemRequest.builder().tableName(table)
                .key(TableModel.CHANGE_TICKET.key(Map.of("feed", FEED))).consistentRead(true).build()).join().item();
        return ticket == null || !ticket.containsKey(ISSUED) ? 0 : Long.parseLong(ticket.get(ISSUED).n());
    }

    /** One replica's place in the log. Not thread-safe: one polling thread uses it. */
    public final class Reader {
        /** Every number at or below it was delivered or given up. */
        private long floor;
        /** Numbers above the floor already delivered. */
        private final Set<Long> delivered = new HashSet<>();
        /** Numbers above the floor not seen yet, with when they were first missed (epoch ms). */
        private final TreeMap<Long, Long> missing = new TreeMap<>();
        /** The highest number looked for gaps below. */
        private long examined;

        /** Whether the next poll must say "everything" (a late reader's first). */
        private boolean starting;

        private Reader(long after, boolean late) {
            this.floor = after;
            this.examined = after;
            this.starting = late;
        }

        /**
         * The changes published since the last call (one strongly consistent Query, usually one page). A
         * failed read throws and changes nothing: the next poll reads the same changes again.
         */
        public CatalogChanges poll() {
            List<TableModel.Change> read = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                QueryRequest.Builder query = Access.CHANGES_SINCE.query(table, Map.of("sequence", floor)).consistentRead(true);
                if (start != null) {
                    query.exclusiveStartKey(start);
                }
                QueryResponse page = dynamo.query(query.build()).join();
                for (Map<String, AttributeValue> item : page.items()) {
                    read.add(TableModel.CHANGE.decode(item));
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
            Set<MovieId> movies = new HashSet<>();
            Set<YearMonth> months = new HashSet<>();
            Set<CatalogChanges.Owner> owners = new HashSet<>();
            boolean everything = starting;
            starting = false;
            long highest = floor;
            for (TableModel.Change change : read) {
                highest = Math.max(highest, change.sequence());
                if (!delivered.add(change.sequence())) {
                    continue;
                }
                missing.remove(change.sequence());
                everything |= change.everything();
                change.movies().forEach(id -> movies.add(MovieId.of(id)));
                change.months().forEach(month -> months.add(YearMonth.parse(month)));
                for (String owner : change.owners()) {
                    CatalogChanges.Owner parsed = CatalogChanges.Owner.parse(owner);
                    if (parsed != null) { // else a newer version's kind: none of its subscriptions is here
                        owners.add(parsed);
                    }
                }
            }
            everything |= settle(highest);
            return new CatalogChanges(movies, months, owners, everything);
        }

        /** Notes the numbers still missing below {@code highest}, gives up the old ones, and raises the floor. */
        private boolean settle(long highest) {
            long now = clock.millis();
            if (highest - Math.max(examined, floor) > MAX_GAP) {
                // Too many to wait on one by one: give every number below the highest up at once.
                missing.clear();
                delivered.clear();
                floor = highest;
                examined = highest;
                return true;
            }
            for (long number = Math.max(examined, floor) + 1; number < highest; number++) {
                if (!delivered.contains(number)) {
                    missing.put(number, now);
                }
            }
            examined = Math.max(examined, highest);
            boolean gaveUp = false;
            for (Iterator<Map.Entry<Long, Long>> it = missing.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Long, Long> gap = it.next();
                if (now - gap.getValue() >= GAP_WAIT.toMillis()) {
                    it.remove();
                    delivered.add(gap.getKey());
                    gaveUp = true;
                }
            }
            while (delivered.remove(floor + 1)) {
                floor++;
            }
            return gaveUp;
        }
    }
}
