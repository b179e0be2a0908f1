package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.delete;
import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.table.Table;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class StreamRecordsTest {
    private final StreamFixture fixture = new StreamFixture();

    @Test
    void insertModifyRemoveFollowThePriorStateOfTheItem() {
        Table table = fixture.table("Movies", "NEW_AND_OLD_IMAGES");
        put(table, item("m1", 1, "title", "Alien"));
        put(table, item("m1", 1, "title", "Aliens"));
        delete(table, "m1", 1);

        List<JsonNode> records = fixture.readAll(fixture.arn(table));
        assertEquals(List.of("INSERT", "MODIFY", "REMOVE"), records.stream().map(r -> r.path("eventName").asText()).toList());
        JsonNode modify = records.get(1).path("dynamodb");
        assertEquals("Alien", modify.path("OldImage").path("title").path("S").asText());
        assertEquals("Aliens", modify.path("NewImage").path("title").path("S").asText());
        assertFalse(records.get(0).path("dynamodb").has("OldImage"));
        assertFalse(records.get(2).path("dynamodb").has("NewImage"));
        assertEquals("Aliens", records.get(2).path("dynamodb").path("OldImage").path("title").path("S").asText());
    }

    @Test
    void aRecordCarriesDynamoDbsFields() {
        Table table = fixture.table("Movies", "NEW_IMAGE");
        put(table, item("m1", 7, "year", 1979));

        JsonNode record = fixture.readAll(fixture.arn(table)).get(0);
        assertEquals(32, record.path("eventID").asText().length());
        assertEquals("1.1", record.path("eventVersion").asText());
        assertEquals("aws:dynamodb", record.path("eventSource").asText());
        assertEquals("eu-west-1", record.path("awsRegion").asText());
        assertFalse(record.has("userIdentity"));
        JsonNode dynamodb = record.path("dynamodb");
        assertTrue(dynamodb.path("ApproximateCreationDateTime").isIntegralNumber());
        assertEquals(StreamFixture.START.getEpochSecond(), dynamodb.path("ApproximateCreationDateTime").asLong());
        assertEquals("m1", dynamodb.path("Keys").path("pk").path("S").asText());
        assertEquals("7", dynamodb.path("Keys").path("sk").path("N").asText());
        assertEquals(2, dynamodb.path("Keys").size());
        assertEquals("1979", dynamodb.path("NewImage").path("year").path("N").asText());
        assertEquals(21, dynamodb.path("SequenceNumber").asText().length());
        assertTrue(dynamodb.path("SizeBytes").asLong() > 0);
        assertEquals("NEW_IMAGE", dynamodb.path("StreamViewType").asText());
    }

    @Test
    void eachViewTypeCarriesItsImages() {
        for (String viewType : List.of("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")) {
            Table table = fixture.table("T_" + viewType, viewType);
            put(table, item("a", 1, "v", "one"));
            put(table, item("a", 1, "v", "two"));
            JsonNode modify = fixture.readAll(fixture.arn(table)).get(1).path("dynamodb");
            assertEquals(viewType.equals("NEW_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES"), modify.has("NewImage"),
                    viewType);
            assertEquals(viewType.equals("OLD_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES"), modify.has("OldImage"),
                    viewType);
            assertTrue(modify.has("Keys"), viewType);
            assertEquals(viewType, modify.path("StreamViewType").asText());
        }
    }

    @Test
    void aDeletionByTheServiceNamesDynamoDbAsItsIdentity() {
        Table table = fixture.table("Sessions", "KEYS_ONLY");
        put(table, item("s", 1));
        var lock = fixture.tables.locks().lockFor(table.name(), StreamFixture.key("s", 1));
        lock.lock();
        try {
            table.writeLocked(StreamFixture.key("s", 1), current -> null, true);
        } finally {
            lock.unlock();
        }

        JsonNode remove = fixture.readAll(fixture.arn(table)).get(1);
        assertEquals("REMOVE", remove.path("eventName").asText());
        assertEquals("dynamodb.amazonaws.com", remove.path("userIdentity").path("PrincipalId").asText());
        assertEquals("Service", remove.path("userIdentity").path("Type").asText());
    }

    @Test
    void everyChangeMakesOneRecordInCallOrderWithIncreasingNumbers() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        for (int i = 0; i < 50; i++) {
            put(table, item("m" + (i % 7), i % 3, "n", i));
        }
        List<JsonNode> records = fixture.readAll(fixture.arn(table));
        assertEquals(50, records.size());
        String previous = "";
        Set<String> ids = new HashSet<>();
        for (JsonNode record : records) {
            String number = record.path("dynamodb").path("SequenceNumber").asText();
            assertTrue(number.compareTo(previous) > 0, number + " after " + previous);
            previous = number;
            assertTrue(ids.add(record.path("eventID").asText()));
        }
    }

    @Test
    void aTableWithoutAStreamOrWithItTurnedOffMakesNoRecords() {
        Table quiet = fixture.table("Quiet", null);
        put(quiet, item("q", 1));
        assertEquals(0, fixture.streams.listStreams(StreamFixture.request()).path("Streams").size());

        Table table = fixture.table("Movies", "KEYS_ONLY");
        put(table, item("m", 1));
        fixture.streams.disable(table.name());
        put(table, item("m", 2));
        assertEquals(1, fixture.readAll(fixture.arn(table)).size());
    }

    @Test
    void reEnablingMakesANewStreamWithALaterLabel() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String first = table.spec().streamLabel();
        put(table, item("m", 1));
        fixture.streams.disable(table.name());
        table.respec(table.spec().withStream(null, first));
        String second = fixture.enable(table, "NEW_IMAGE"); // the same millisecond: still a later label
        put(table, item("m", 2));

        assertNotEquals(first, second);
        assertTrue(second.compareTo(first) > 0);
        assertTrue(first.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}"), first);
        String oldArn = table.spec().arn("eu-west-1") + "/stream/" + first;
        assertEquals(1, fixture.readAll(oldArn).size());
        assertEquals(1, fixture.readAll(fixture.arn(table)).size());
        assertEquals("DISABLED", fixture.describe(oldArn).path("StreamDescription").path("StreamStatus").asText());
    }
}
