package dev.moviegraph.support;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/** The engine's real stream records, as Lambda hands them to a function. */
public final class LambdaEvents {
    private LambdaEvents() {
    }

    /** Every record of the stream that {@code wanted} keeps, by shard id, converted as Lambda converts them. */
    public static Map<String, List<DynamodbStreamRecord>> read(DynamoDbStreamsAsyncClient streams, String arn,
                                                        Predicate<Record> wanted) {
        Map<String, List<DynamodbStreamRecord>> byShard = new LinkedHashMap<>();
        var shards = streams.describeStream(describe -> describe.streamArn(arn)).join().streamDescription().shards();
        for (var shard : shards) {
            String iterator = streams.getShardIterator(get -> get.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).join().shardIterator();
            while (iterator != null) {
                String from = iterator;
                var page = streams.getRecords(get -> get.shardIterator(from).limit(1000)).join();
                for (Record record : page.records()) {
                    if (wanted.test(record)) {
                        byShard.computeIfAbsent(shard.shardId(), s -> new ArrayList<>()).add(lambdaRecord(record));
                    }
                }
                iterator = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        return byShard;
    }

    public static DynamodbStreamRecord lambdaRecord(Record record) {
        DynamodbStreamRecord lambda = new DynamodbStreamRecord();
        lambda.setEventName(record.eventNameAsString());
        lambda.setDynamodb(new com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord()
                .withSequenceNumber(record.dynamodb().sequenceNumber())
                .withKeys(converted(record.dynamodb().keys()))
                .withNewImage(converted(record.dynamodb().newImage())));
        return lambda;
    }

    /** Strings and numbers, which is all the functions read. */
    private static Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> converted(
            Map<String, AttributeValue> values) {
        Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> converted = new HashMap<>();
        if (values != null) {
            values.forEach((name, value) -> {
                var lambda = new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue();
                if (value.s() != null) {
                    lambda.setS(value.s());
                } else if (value.n() != null) {
                    lambda.setN(value.n());
                } else {
                    return;
                }
                converted.put(name, lambda);
            });
        }
        return converted;
    }
}
