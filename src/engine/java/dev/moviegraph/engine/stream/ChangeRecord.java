package dev.moviegraph.engine.stream;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.value.Wire;
import dev.moviegraph.engine.value.Value;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * One stream record as kept: only the images its stream's view type carries (a KEYS_ONLY stream keeps no
 * item), so what a stream holds for its retention is what it will hand out.
 *
 * @param newImage  null when the view type does not carry it or the item was deleted
 * @param oldImage  null when the view type does not carry it or the item was new
 * @param byService a deletion by time to live
 */
public record ChangeRecord(long sequence, long createdMillis, String eventName, Map<String, Value> keys,
                    Map<String, Value> newImage, Map<String, Value> oldImage, boolean byService, long sizeBytes) {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The record in the shape of GetRecords' Records. */
    ObjectNode json(String streamArn, String region, String viewType) {
        ObjectNode node = NODES.objectNode();
        node.put("eventID", eventId(streamArn));
        node.put("eventName", eventName);
        node.put("eventVersion", "1.1");
        node.put("eventSource", "aws:dynamodb");
        node.put("awsRegion", region);
        ObjectNode dynamodb = node.putObject("dynamodb");
        // DynamoDB rounds the record's time down to the second
        dynamodb.put("ApproximateCreationDateTime", Math.floorDiv(createdMillis, 1000L));
        dynamodb.set("Keys", Wire.json(keys));
        if (newImage != null) {
            dynamodb.set("NewImage", Wire.json(newImage));
        }
        if (oldImage != null) {
            dynamodb.set("OldImage", Wire.json(oldImage));
        }
        dynamodb.put("SequenceNumber", SequenceNumbers.format(sequence));
        dynamodb.put("SizeBytes", sizeBytes);
        dynamodb.put("StreamViewType", viewType);
        if (byService) {
            ObjectNode identity = node.putObject("userIdentity");
            identity.put("PrincipalId", "dynamodb.amazonaws.com");
            identity.put("Type", "Service");
        }
        return node;
    }

    /**
     * 32 hex digits, as DynamoDB's are; derived from the stream and the number rather than random, so a
     * record re-made by a journal's replay keeps its id and consumers that deduplicate by id still can.
     */
    private String eventId(String streamArn) {
        byte[] name = (streamArn + '#' + sequence).getBytes(StandardCharsets.UTF_8);
        return UUID.nameUUIDFromBytes(name).toString().replace("-", "");
    }
}
