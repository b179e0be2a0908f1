package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.table.Table;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class ReplayTest {

    @Test
    void aReplaySetsTheNumbersAndTimesOfTheRecordsItReMakes() {
        StreamFixture fixture = new StreamFixture();
        Instant then = StreamFixture.START.minus(Duration.ofHours(1));
        fixture.streams.replayNext(0, then);
        Table table = fixture.table("Movies", "KEYS_ONLY");
        assertEquals("2024-03-01T09:00:00.250", table.spec().streamLabel());

        fixture.streams.replayNext(1000, then.plusSeconds(60));
        put(table, item("m", 1));
        assertEquals(1000, fixture.streams.lastSequenceNumber());
        fixture.streams.replayNext(2000, then.plusSeconds(120));
        put(table, item("m", 2));
        fixture.streams.replayDone();
        put(table, item("m", 3));

        List<JsonNode> records = fixture.readAll(fixture.arn(table));
        assertEquals("000000000000000001000", records.get(0).path("dynamodb").path("SequenceNumber").asText());
        assertEquals(then.getEpochSecond() + 60, records.get(0).path("dynamodb").path("ApproximateCreationDateTime").asLong());
        assertEquals("000000000000000002000", records.get(1).path("dynamodb").path("SequenceNumber").asText());
        assertEquals("000000000000000002001", records.get(2).path("dynamodb").path("SequenceNumber").asText());
        assertEquals(StreamFixture.START.getEpochSecond(),
                records.get(2).path("dynamodb").path("ApproximateCreationDateTime").asLong());
    }

    @Test
    void aStreamsNumbersOnlyIncreaseEvenWhenAReplaySetsTheCounterBack() {
        StreamFixture fixture = new StreamFixture();
        Table table = fixture.table("Movies", "KEYS_ONLY");
        fixture.streams.replayNext(500, null);
        put(table, item("m", 1));
        fixture.streams.replayNext(10, null);
        put(table, item("m", 2));

        List<JsonNode> records = fixture.readAll(fixture.arn(table));
        assertEquals("000000000000000000500", records.get(0).path("dynamodb").path("SequenceNumber").asText());
        assertEquals("000000000000000000501", records.get(1).path("dynamodb").path("SequenceNumber").asText());
    }

    @Test
    void shardIdsAreTheSameWhenAReplayReMakesTheStream() {
        Instant then = StreamFixture.START.minus(Duration.ofHours(1));
        StreamFixture before = new StreamFixture();
        before.streams.replayNext(0, then);
        Table original = before.table("Movies", "KEYS_ONLY");
        StreamFixture after = new StreamFixture();
        after.streams.replayNext(0, then);
        Table replayed = after.table("Movies", "KEYS_ONLY");
        assertEquals(before.shardIds(before.arn(original)), after.shardIds(after.arn(replayed)));
    }
}
