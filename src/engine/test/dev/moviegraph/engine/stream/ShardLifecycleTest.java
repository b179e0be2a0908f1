package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.Table;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class ShardLifecycleTest {
    private final StreamFixture fixture = new StreamFixture();

    private JsonNode shards(String arn) {
        return fixture.describe(arn).path("StreamDescription").path("Shards");
    }

    @Test
    void aShardOlderThanTheShardPeriodClosesOnAppendAndAChildTakesOver() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        fixture.advance(Duration.ofHours(4).plusSeconds(1));
        put(table, item("m", 2));

        JsonNode shards = shards(arn);
        assertEquals(2, shards.size());
        JsonNode parent = shards.get(0);
        JsonNode child = shards.get(1);
        assertEquals(parent.path("ShardId").asText(), child.path("ParentShardId").asText());
        assertFalse(parent.has("ParentShardId"));
        assertFalse(child.path("SequenceNumberRange").has("EndingSequenceNumber"));
        String parentEnd = parent.path("SequenceNumberRange").path("EndingSequenceNumber").asText();
        String childStart = child.path("SequenceNumberRange").path("StartingSequenceNumber").asText();
        assertTrue(childStart.compareTo(parentEnd) > 0);
        assertTrue(parent.path("ShardId").asText().matches("shardId-\\d{20}-[0-9a-f]{8}"), parent.toString());

        List<JsonNode> first = fixture.readShard(arn, parent.path("ShardId").asText());
        assertEquals(1, first.size());
        assertEquals(parentEnd, first.get(0).path("dynamodb").path("SequenceNumber").asText());
        assertEquals(1, fixture.readShard(arn, child.path("ShardId").asText()).size());
    }

    @Test
    void aShardClosesWhenDescribedAfterItsPeriodEvenWithoutWrites() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        fixture.advance(Duration.ofHours(5));
        JsonNode shards = shards(arn);
        assertEquals(2, shards.size());
        JsonNode range = shards.get(0).path("SequenceNumberRange");
        assertTrue(range.path("EndingSequenceNumber").asText().compareTo(range.path("StartingSequenceNumber").asText())
                >= 0);
    }

    @Test
    void aClosedShardReadToItsEndHasNoNextIterator() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        String shard = fixture.shardIds(arn).get(0);
        String open = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
        ObjectNode whileOpen = fixture.records(open);
        assertTrue(whileOpen.has("NextShardIterator"));

        String last = whileOpen.path("Records").get(0).path("dynamodb").path("SequenceNumber").asText();

        fixture.advance(Duration.ofHours(4));
        fixture.describe(arn);
        ObjectNode afterClose = fixture.records(fixture.iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", last));
        assertEquals(0, afterClose.path("Records").size());
        assertFalse(afterClose.has("NextShardIterator"));
        ObjectNode fromStart = fixture.records(fixture.iterator(arn, shard, "TRIM_HORIZON", null));
        assertEquals(1, fromStart.path("Records").size());
        assertFalse(fromStart.has("NextShardIterator"));
    }

    @Test
    void disablingClosesTheOpenShardAndKeepsItsRecordsReadable() {
        Table table = fixture.table("Movies", "NEW_IMAGE");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        fixture.streams.disable(table.name());

        JsonNode description = fixture.describe(arn).path("StreamDescription");
        assertEquals("DISABLED", description.path("StreamStatus").asText());
        assertTrue(description.path("Shards").get(0).path("SequenceNumberRange").has("EndingSequenceNumber"));
        assertEquals(1, fixture.readAll(arn).size());
    }

    @Test
    void aDeletedTablesStreamIsDisabledAndStillListedUntilRetention() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        fixture.tables.remove(table.name());
        fixture.streams.tableDeleted(table.name());

        assertEquals("DISABLED", fixture.describe(arn).path("StreamDescription").path("StreamStatus").asText());
        assertEquals(1, fixture.streams.listStreams(StreamFixture.request()).path("Streams").size());

        fixture.advance(Duration.ofHours(24).plusSeconds(1));
        assertEquals(0, fixture.streams.listStreams(StreamFixture.request()).path("Streams").size());
        ApiException gone = assertThrows(ApiException.class, () -> fixture.describe(arn));
        assertTrue(gone.type().endsWith("#ResourceNotFoundException"));
    }

    @Test
    void recordsOlderThanRetentionAreTrimmedAndPositionsBeforeThemRefused() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        fixture.advance(Duration.ofHours(2));
        put(table, item("m", 2));
        String shard = fixture.shardIds(arn).get(0);
        List<String> numbers = fixture.readShard(arn, shard).stream()
                .map(r -> r.path("dynamodb").path("SequenceNumber").asText()).toList();
        String heldIterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);

        fixture.advance(Duration.ofHours(22).plusSeconds(1)); // the first is 24 h old, the second 22 h
        ApiException trimmed = assertThrows(ApiException.class,
                () -> fixture.iterator(arn, shard, "AT_SEQUENCE_NUMBER", numbers.get(0)));
        assertTrue(trimmed.type().endsWith("#TrimmedDataAccessException"), trimmed.type());

        List<JsonNode> left = fixture.readShard(arn, shard);
        assertEquals(1, left.size());
        assertEquals(numbers.get(1), left.get(0).path("dynamodb").path("SequenceNumber").asText());
        assertEquals(numbers.get(1), fixture.records(fixture.iterator(arn, shard, "AFTER_SEQUENCE_NUMBER",
                numbers.get(0))).path("Records").get(0).path("dynamodb").path("SequenceNumber").asText());
        assertThrows(ApiException.class, () -> fixture.records(heldIterator), "expired, 24 h later");
    }

    @Test
    void anIteratorWhoseRecordsWereTrimmedSinceIsRefused() {
        Streams.StreamSettings settings = new Streams.StreamSettings(Duration.ofHours(4), Duration.ofMinutes(30),
                Duration.ofMinutes(15));
        StreamFixture shortLived = new StreamFixture(settings);
        Table table = shortLived.table("Movies", "KEYS_ONLY");
        String arn = shortLived.arn(table);
        put(table, item("m", 1));
        shortLived.advance(Duration.ofMinutes(20));
        String shard = shortLived.shardIds(arn).get(0);
        String iterator = shortLived.iterator(arn, shard, "TRIM_HORIZON", null);
        shortLived.advance(Duration.ofMinutes(11));
        ApiException trimmed = assertThrows(ApiException.class, () -> shortLived.records(iterator));
        assertTrue(trimmed.type().endsWith("#TrimmedDataAccessException"), trimmed.type());
    }

    @Test
    void closedShardsWithNothingLeftDisappearFromTheDescription() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        put(table, item("m", 1));
        String first = fixture.shardIds(arn).get(0);
        for (int hour = 0; hour < 30; hour++) {
            fixture.advance(Duration.ofHours(1));
            put(table, item("m", 2 + hour));
        }
        List<String> ids = fixture.shardIds(arn);
        assertFalse(ids.contains(first));
        JsonNode oldest = shards(arn).get(0);
        assertTrue(oldest.has("ParentShardId"), "the oldest listed shard still names its parent");
        assertFalse(ids.contains(oldest.path("ParentShardId").asText()));
        ApiException gone = assertThrows(ApiException.class, () -> fixture.iterator(arn, first, "TRIM_HORIZON", null));
        assertTrue(gone.type().endsWith("#ResourceNotFoundException"));
    }

    @Test
    void memoryIsBoundedByRetentionAcrossManyShards() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        for (int hour = 0; hour < 24 * 7; hour++) {
            put(table, item("m", hour));
            fixture.advance(Duration.ofHours(1));
        }
        int shards = fixture.shardIds(arn).size();
        assertTrue(shards <= 8, "shards kept: " + shards);
        int records = fixture.readAll(arn).size();
        assertTrue(records <= 25, "records kept: " + records);
        assertNull(fixture.describe(arn).path("StreamDescription").get("LastEvaluatedShardId"));
    }
}
