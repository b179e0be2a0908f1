package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static dev.moviegraph.engine.stream.StreamFixture.request;
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
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class StreamListingTest {
    private final StreamFixture fixture = new StreamFixture();

    @Test
    void theStreamArnIsTheTableArnAndTheLabel() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        assertEquals("arn:aws:dynamodb:eu-west-1:000000000000:table/Movies/stream/" + table.spec().streamLabel(),
                fixture.arn(table));
        assertNull(fixture.arn(fixture.table("Quiet", null)));
    }

    @Test
    void describeStreamTellsTheStreamAndItsTable() {
        Table table = fixture.table("Movies", "NEW_AND_OLD_IMAGES");
        JsonNode description = fixture.describe(fixture.arn(table)).path("StreamDescription");
        assertEquals(fixture.arn(table), description.path("StreamArn").asText());
        assertEquals(table.spec().streamLabel(), description.path("StreamLabel").asText());
        assertEquals("ENABLED", description.path("StreamStatus").asText());
        assertEquals("NEW_AND_OLD_IMAGES", description.path("StreamViewType").asText());
        assertEquals("Movies", description.path("TableName").asText());
        assertEquals(StreamFixture.START.toEpochMilli() / 1000.0, description.path("CreationRequestDateTime").asDouble(),
                0.0005);
        assertEquals("[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]",
                description.path("KeySchema").toString());
        assertEquals(1, description.path("Shards").size());
        assertFalse(description.has("LastEvaluatedShardId"));
    }

    @Test
    void describeStreamPagesShardsWithLimitAndExclusiveStartShardId() {
        Table table = fixture.table("Movies", "KEYS_ONLY");
        String arn = fixture.arn(table);
        for (int i = 0; i < 4; i++) {
            put(table, item("m", i));
            fixture.advance(Duration.ofHours(4));
        }
        List<String> all = fixture.shardIds(arn);
        assertEquals(5, all.size());
        List<String> paged = new ArrayList<>();
        String start = null;
        do {
            ObjectNode request = request("StreamArn", arn).put("Limit", 2);
            if (start != null) {
                request.put("ExclusiveStartShardId", start);
            }
            JsonNode description = fixture.streams.describeStream(request).path("StreamDescription");
            assertTrue(description.path("Shards").size() <= 2);
            description.path("Shards").forEach(shard -> paged.add(shard.path("ShardId").asText()));
            start = description.path("LastEvaluatedShardId").asText(null);
        } while (start != null);
        assertEquals(all, paged);
    }

    @Test
    void listStreamsFiltersByTableAndPages() {
        for (String name : List.of("Alpha", "Beta", "Gamma")) {
            fixture.table(name, "KEYS_ONLY");
        }
        JsonNode beta = fixture.streams.listStreams(request("TableName", "Beta")).path("Streams");
        assertEquals(1, beta.size());
        assertEquals("Beta", beta.get(0).path("TableName").asText());
        assertTrue(beta.get(0).path("StreamArn").asText().contains("table/Beta/stream/"));
        assertEquals(fixture.tables.require("Beta").spec().streamLabel(), beta.get(0).path("StreamLabel").asText());

        ObjectNode first = fixture.streams.listStreams(fixture.NODES.objectNode().put("Limit", 2));
        assertEquals(2, first.path("Streams").size());
        String last = first.path("LastEvaluatedStreamArn").asText();
        assertEquals(first.path("Streams").get(1).path("StreamArn").asText(), last);
        ObjectNode second = fixture.streams.listStreams(request("ExclusiveStartStreamArn", last).put("Limit", 2));
        assertEquals(1, second.path("Streams").size());
        assertEquals("Gamma", second.path("Streams").get(0).path("TableName").asText());
        assertFalse(second.has("LastEvaluatedStreamArn"));
        assertEquals(0, fixture.streams.listStreams(request("TableName", "Nothing")).path("Streams").size());
    }

    @Test
    void requestsBreakingConstraintsAreRefusedAllAtOnce() {
        ApiException missing = assertThrows(ApiException.class, () -> fixture.streams.describeStream(request()));
        assertEquals("1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: Member must"
                + " not be null", missing.getMessage());
        ApiException two = assertThrows(ApiException.class,
                () -> fixture.streams.getShardIterator(request("StreamArn", "arn:aws:dynamodb:eu-west-1:0:table/T/stream/x")));
        assertTrue(two.getMessage().startsWith("2 validation errors detected: "), two.getMessage());
        ApiException limit = assertThrows(ApiException.class,
                () -> fixture.streams.listStreams(fixture.NODES.objectNode().put("Limit", 101)));
        assertTrue(limit.getMessage().contains("less than or equal to 100"), limit.getMessage());
    }

    @Test
    void anUnknownStreamIsNotFound() {
        String arn = "arn:aws:dynamodb:eu-west-1:000000000000:table/Nope/stream/2024-01-01T00:00:00.000";
        ApiException notFound = assertThrows(ApiException.class, () -> fixture.describe(arn));
        assertTrue(notFound.type().endsWith("#ResourceNotFoundException"));
        assertEquals("Requested resource not found: Stream: " + arn + " not found", notFound.getMessage());
    }

    @Test
    void anUnknownViewTypeIsRefused() {
        Table table = fixture.table("Movies", null);
        ApiException refused = assertThrows(ApiException.class, () -> fixture.streams.enable(table.spec(), "EVERYTHING"));
        assertTrue(refused.type().endsWith("ValidationException"));
    }
}
