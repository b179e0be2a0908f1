package dev.moviegraph.dynamo.streams;

import java.util.ArrayList;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/** The shards of a table's stream, every page of DescribeStream. */
final class StreamShards {
    private StreamShards() {
    }

    static List<Shard> all(DynamoDbStreamsAsyncClient streams, String streamArn) {
        List<Shard> shards = new ArrayList<>();
        String after = null;
        do {
            var description = streams.describeStream(DescribeStreamRequest.builder().streamArn(streamArn)
                    .exclusiveStartShardId(after).build()).join().streamDescription();
            shards.addAll(description.shards());
            after = description.lastEvaluatedShardId();
        } while (after != null);
        return shards;
    }
}
