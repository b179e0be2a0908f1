package dev.moviegraph.engine.capacity;

import static dev.moviegraph.engine.capacity.CapacityFixture.item;
import static dev.moviegraph.engine.capacity.CapacityFixture.s;
import static dev.moviegraph.engine.capacity.CapacityFixture.total;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * DynamoDB's per-partition ceilings on the engine's Throughput hook: 1,000 write and 3,000 read units a second
 * per partition key value of the table and of each global index, refused whole with DynamoDB's errors, and
 * what was charged and refused, counted by partition key prefix.
 */
class PartitionLimitsTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final CapacityFixture.TestClock clock = new CapacityFixture.TestClock(Instant.parse("2024-05-04T10:00:00Z"));
    private final PartitionLimits limits = new PartitionLimits(clock, CapacityFixture.REGION);
    private final Table onDemand = CapacityFixture.table("PAY_PER_REQUEST");

    @Test
    void aHotPartitionIsRefusedPastAThousandWriteUnitsInASecondWithThrottlingOnDemand() {
        limits.startSecond(1);
        StoredItem counter = item("pk", "hot#1", "sk", "c");
        for (int i = 0; i < 1_000; i++) {
            limits.write(onDemand, counter, counter); // 1 unit each
        }

        ApiException refused = assertThrows(ApiException.class, () -> limits.write(onDemand, counter, counter));

        assertEquals("com.amazonaws.dynamodb.v20120810#ThrottlingException", refused.type());
        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().startsWith("Throughput exceeds the current capacity of your table or index."),
                refused.getMessage());
        assertEquals(List.of(Map.of("reason", "TableWriteKeyRangeThroughputExceeded",
                        "resource", "arn:aws:dynamodb:eu-west-1:000000000000:table/moviegraph")),
                refused.extra().get("ThrottlingReasons"));
        assertDoesNotThrow(() -> limits.write(onDemand, item("pk", "cold#1", "sk", "c"), null),
                "another partition of the table has its own thousand");
        limits.startSecond(2);
        assertDoesNotThrow(() -> limits.write(onDemand, counter, counter), "a new second starts every partition empty");
    }

    @Test
    void aProvisionedTableRefusesWithProvisionedThroughputExceeded() {
        Table provisioned = CapacityFixture.table("PROVISIONED");
        limits.startSecond(1);
        StoredItem big = item("pk", "hot#1", "sk", "c", "body", "x".repeat(300 * 1024));
        for (int i = 0; i < 3; i++) {
            limits.write(provisioned, null, big); // 300 units each
        }

        ApiException refused = assertThrows(ApiException.class, () -> limits.write(provisioned, null, big));

        assertEquals("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", refused.type());
        assertTrue(refused.getMessage().startsWith("The level of configured provisioned throughput for the table was"
                + " exceeded."), refused.getMessage());
    }

    @Test
    void anIndexPartitionIsThrottledSeparatelyAndARefusedWriteChargesNothing() {
        limits.startSecond(1);
        // 500 movies' totals moved in the month's gsi2 partition: a delete and a put each, 1,000 units there
        for (int i = 0; i < 500; i++) {
            String movie = String.format("tt%07d", i);
            limits.write(onDemand, total(movie, 1), total(movie, 2));
        }

        ApiException refused = assertThrows(ApiException.class,
                () -> limits.write(onDemand, total("tt0999999", 1), total("tt0999999", 2)));

        assertEquals(List.of(Map.of("reason", "IndexWriteKeyRangeThroughputExceeded",
                        "resource", "arn:aws:dynamodb:eu-west-1:000000000000:table/moviegraph/index/gsi2")),
                refused.extra().get("ThrottlingReasons"));
        JsonNode usage = limits.describeUsage(NODES.objectNode().put("Limit", 3));
        assertEquals(1_000, busiest(usage, "BusiestWrite", "moviegraph", "gsi2", "month#2024-05"), usage.toString());
        assertEquals(0, busiest(usage, "BusiestWrite", "moviegraph", null, "mov#tt0999999"),
                "the refused write's table partition was not charged either: " + usage);
        assertDoesNotThrow(() -> limits.write(onDemand, null, item("pk", "mov#tt0999999", "sk", "mov#tt0999999")),
                "the movie's own partition is far from its limit");
        assertDoesNotThrow(() -> limits.read(onDemand, "gsi2", s("month#2024-05"), 100),
                "reads of the full index partition have a ceiling of their own");
    }

    @Test
    void readsArePassedThreeThousandUnitsAndAQueryOnALocalIndexIsTheTablesPartition() {
        limits.startSecond(1);
        limits.read(onDemand, null, s("mov#1"), 2_000);
        limits.read(onDemand, "lsi1", s("mov#1"), 1_000);

        ApiException refused = assertThrows(ApiException.class, () -> limits.read(onDemand, null, s("mov#1"), 0.5));

        assertEquals("TableReadKeyRangeThroughputExceeded", reason(refused));
        assertDoesNotThrow(() -> limits.write(onDemand, null, item("pk", "mov#1", "sk", "x")),
                "writes have their own ceiling");
    }

    @Test
    void onTheClockAPartitionBurstsOneSecondsUnitsAndRefillsAtItsCeiling() {
        StoredItem counter = item("pk", "hot#1", "sk", "c");
        for (int i = 0; i < 1_000; i++) {
            limits.write(onDemand, counter, counter);
        }
        assertThrows(ApiException.class, () -> limits.write(onDemand, counter, counter), "a second's units at once");

        clock.advanceMillis(100);
        for (int i = 0; i < 100; i++) {
            limits.write(onDemand, counter, counter);
        }
        assertThrows(ApiException.class, () -> limits.write(onDemand, counter, counter),
                "a tenth of a second later, a tenth of the units");

        clock.advanceMillis(5_000);
        for (int i = 0; i < 1_000; i++) {
            limits.write(onDemand, counter, counter);
        }
        assertThrows(ApiException.class, () -> limits.write(onDemand, counter, counter),
                "idle for seconds, still no more than one second's units");
    }

    @Test
    void aTransactionsWritesAreChargedTwice() {
        limits.startSecond(1);
        StoredItem counter = item("pk", "hot#1", "sk", "c");
        for (int i = 0; i < 500; i++) {
            limits.transactional().write(onDemand, WriteCharges.partitionOf(onDemand.spec(), counter, counter), counter, counter);
        }

        assertThrows(ApiException.class, () -> limits.transactional().write(onDemand, WriteCharges.partitionOf(onDemand.spec(), counter, counter), counter, counter));
        assertThrows(ApiException.class, () -> limits.write(onDemand, counter, counter));
    }

    @Test
    void aWholeTransactionIsChargedAtOnceItsChecksIncludedAndRefusedWholeChargingNoPartition() {
        limits.startSecond(1);
        StoredItem movie = item("pk", "mov#1", "sk", "mov#1");
        StoredItem counter = item("pk", "hot#1", "sk", "c");
        for (int i = 0; i < 999; i++) {
            limits.write(onDemand, counter, counter);
        }
        // the movie's check (2) and its total's increment (2, and 4 in gsi2: its month entry moves, a delete and a put)
        limits.transaction(List.of(new PartitionLimits.Write(onDemand, s("mov#1"), movie, movie),
                new PartitionLimits.Write(onDemand, s("mov#1"), total("1", 1), total("1", 2))));

        assertThrows(ApiException.class, () -> limits.transaction(List.of(
                new PartitionLimits.Write(onDemand, s("mov#1"), movie, movie),
                new PartitionLimits.Write(onDemand, s("hot#1"), counter, counter))), "1 unit left, 2 wanted");

        JsonNode usage = limits.describeUsage(NODES.objectNode().put("Limit", 10));
        assertEquals(4, busiest(usage, "BusiestWrite", "moviegraph", null, "mov#1"),
                "the check (2) and the increment (2) of the first; nothing of the refused one: " + usage);
        assertEquals(4, busiest(usage, "BusiestWrite", "moviegraph", "gsi2", "month#2024-05"), usage.toString());
        assertEquals(999, busiest(usage, "BusiestWrite", "moviegraph", null, "hot#1"), usage.toString());
    }

    @Test
    void whatWasChargedRefusedAndFailedIsCountedByPartitionKeyPrefix() {
        limits.startSecond(7);
        limits.write(onDemand, null, total("tt0000001", 1));
        limits.write(onDemand, total("tt0000001", 1), total("tt0000001", 2));
        limits.read(onDemand, null, s("mov#tt0000001"), 0.5);
        limits.read(onDemand, "gsi2", s("month#2024-05"), 1);
        limits.conditionFailed(onDemand, s("toplist#2024-05"), item("pk", "toplist#2024-05", "sk", "toplist#2024-05"),
                false);
        limits.read(onDemand, null, s("toplist#2024-05"), 3_000);
        assertThrows(ApiException.class, () -> limits.read(onDemand, null, s("toplist#2024-05"), 1));

        JsonNode usage = limits.describeUsage(NODES.objectNode());

        assertEquals("SIMULATED", usage.path("Clock").asText());
        assertEquals(7, usage.path("Second").asLong());
        assertEquals(1, usage.path("Refused").asLong());
        assertEquals(3_001.5, usage.path("ThisSecond").path("ReadUnits").asDouble());
        assertEquals(6, usage.path("ThisSecond").path("WriteUnits").asDouble(), "2 in the table, 3 in gsi2, 1 failed");
        assertEquals("{\"TableName\":\"moviegraph\",\"Prefix\":\"mov#\",\"Requests\":3,\"ReadUnits\":0.5,"
                + "\"WriteUnits\":2.0,\"Refused\":0,\"ConditionalCheckFailed\":0}", prefix(usage, null, "mov#").toString());
        assertEquals("{\"TableName\":\"moviegraph\",\"IndexName\":\"gsi2\",\"Prefix\":\"month#\",\"Requests\":1,"
                + "\"ReadUnits\":1.0,\"WriteUnits\":3.0,\"Refused\":0,\"ConditionalCheckFailed\":0}",
                prefix(usage, "gsi2", "month#").toString());
        assertEquals("{\"TableName\":\"moviegraph\",\"Prefix\":\"toplist#\",\"Requests\":3,\"ReadUnits\":3000.0,"
                + "\"WriteUnits\":1.0,\"Refused\":1,\"ConditionalCheckFailed\":1}", prefix(usage, null, "toplist#").toString());
        assertEquals("{\"TableName\":\"moviegraph\",\"Partition\":\"toplist#2024-05\",\"Kind\":\"READ\",\"Count\":1}",
                usage.path("RefusedAt").path(0).toString());
        assertEquals("toplist#2024-05", usage.path("ThisSecond").path("BusiestRead").path(0).path("Partition").asText());
        assertEquals(3_000, usage.path("ThisSecond").path("BusiestRead").path(0).path("Units").asDouble());

        limits.startSecond(8);
        JsonNode next = limits.describeUsage(NODES.objectNode().put("Limit", 0));
        assertEquals(0, next.path("ThisSecond").path("WriteUnits").asDouble(), "the per-second figures start again");
        assertTrue(next.path("ThisSecond").path("BusiestWrite").isMissingNode(), "Limit 0 lists no partition");
        assertEquals(3, prefix(next, null, "mov#").path("Requests").asLong(), "the counts go on");
    }

    @Test
    void startingASecondTakesAnIntegerAndDescribingALimitOfAtMostAThousand() {
        assertEquals("validation", kind(() -> limits.startSecond(NODES.objectNode())));
        assertEquals("validation", kind(() -> limits.startSecond(NODES.objectNode().put("Second", -1))));
        assertEquals("validation", kind(() -> limits.startSecond(NODES.objectNode().put("Second", 1.5))));
        assertEquals("validation", kind(() -> limits.describeUsage(NODES.objectNode().put("Limit", 1_001))));
        assertEquals("{\"Clock\":\"SIMULATED\",\"Second\":3}",
                limits.startSecond(NODES.objectNode().put("Second", 3)).toString());
    }

    private static String kind(Runnable call) {
        try {
            call.run();
            return "none";
        } catch (ApiException e) {
            return e.type().endsWith("#ValidationException") ? "validation" : e.type();
        }
    }

    @SuppressWarnings("unchecked")
    private static String reason(ApiException refused) {
        List<Map<String, Object>> reasons = (List<Map<String, Object>>) refused.extra().get("ThrottlingReasons");
        return (String) reasons.get(0).get("reason");
    }

    private static double busiest(JsonNode usage, String list, String table, String index, String partition) {
        for (JsonNode node : usage.path("ThisSecond").path(list)) {
            if (node.path("TableName").asText().equals(table)
                    && java.util.Objects.equals(node.path("IndexName").asText(null), index)
                    && node.path("Partition").asText().equals(partition)) {
                return node.path("Units").asDouble();
            }
        }
        return 0;
    }

    private static JsonNode prefix(JsonNode usage, String index, String prefix) {
        for (JsonNode node : usage.path("Prefixes")) {
            if ((index == null ? node.path("IndexName").isMissingNode() : node.path("IndexName").asText().equals(index))
                    && node.path("Prefix").asText().equals(prefix)) {
                return node;
            }
        }
        return NODES.missingNode();
    }
}
