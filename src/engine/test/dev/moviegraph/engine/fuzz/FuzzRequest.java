package dev.moviegraph.engine.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One request fuzz input as text: the operation's short name on the first line ({@code GetItem},
 * {@code GetRecords}), the body after it. A name the engine does not serve picks one of its operations by the
 * name's hash, so every byte string is a request to some operation; a first line that starts with
 * {@code DynamoDB} is sent as the X-Amz-Target itself, less what no header can carry (unknown targets, wrong
 * versions).
 */
record FuzzRequest(String operation, String target, byte[] body) {
    /** Every operation Engine.start serves (without partition limits), by its X-Amz-Target. */
    static final List<String> TARGETS = List.of(
            "DynamoDB_20120810.CreateTable", "DynamoDB_20120810.DescribeTable", "DynamoDB_20120810.UpdateTable",
            "DynamoDB_20120810.DeleteTable", "DynamoDB_20120810.ListTables", "DynamoDB_20120810.UpdateTimeToLive",
            "DynamoDB_20120810.DescribeTimeToLive", "DynamoDB_20120810.GetItem", "DynamoDB_20120810.PutItem",
            "DynamoDB_20120810.UpdateItem", "DynamoDB_20120810.DeleteItem", "DynamoDB_20120810.Query",
            "DynamoDB_20120810.Scan", "DynamoDB_20120810.BatchGetItem", "DynamoDB_20120810.BatchWriteItem",
            "DynamoDB_20120810.TransactWriteItems", "DynamoDB_20120810.TransactGetItems",
            "DynamoDB_20120810.ExecuteStatement", "DynamoDB_20120810.BatchExecuteStatement",
            "DynamoDB_20120810.ExecuteTransaction", "DynamoDB_20120810.TagResource",
            "DynamoDB_20120810.UntagResource", "DynamoDB_20120810.ListTagsOfResource",
            "DynamoDBStreams_20120810.ListStreams", "DynamoDBStreams_20120810.DescribeStream",
            "DynamoDBStreams_20120810.GetShardIterator", "DynamoDBStreams_20120810.GetRecords");

    /** The body as text, for messages. */
    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    static FuzzRequest parse(byte[] data) {
        int newline = indexOf(data, (byte) '\n');
        String first = new String(data, 0, newline < 0 ? data.length : newline, StandardCharsets.UTF_8).strip();
        byte[] body = newline < 0 ? new byte[0] : java.util.Arrays.copyOfRange(data, newline + 1, data.length);
        if (first.startsWith("DynamoDB")) {
            // Only what an HTTP header can carry: the client refuses control characters before sending.
            String target = first.replaceAll("[^\\x21-\\x7e]", "");
            return new FuzzRequest(target.substring(target.indexOf('.') + 1), target, body);
        }
        for (String target : TARGETS) {
            if (target.endsWith("." + first)) {
                return new FuzzRequest(first, target, body);
            }
        }
        String target = TARGETS.get(Math.floorMod(first.hashCode(), TARGETS.size()));
        return new FuzzRequest(target.substring(target.indexOf('.') + 1), target, body);
    }

    private static int indexOf(byte[] data, byte wanted) {
        for (int i = 0; i < data.length; i++) {
            if (data[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
