package dev.moviegraph.engine.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Reads a whole stream the way a consumer must: every shard, parents before children, each to its end. */
final class StreamReader {
    private StreamReader() {
    }

    /** Every shard of the stream, following DescribeStream's pages. */
    static List<Shard> shards(DynamoDbStreamsClient streams, String streamArn) {
        List<Shard> shards = new ArrayList<>();
        String start = null;
        int pages = 0;
        do {
            String from = start;
            StreamDescription description = streams.describeStream(d -> d.streamArn(streamArn)
                    .exclusiveStartShardId(from)).streamDescription();
            shards.addAll(description.shards());
            start = description.lastEvaluatedShardId();
            assertTrue(++pages < 1000, "DescribeStream paging ends");
        } while (start != null);
        return shards;
    }

    /** The shards ordered so that each comes after its parent. */
    static List<Shard> lineage(List<Shard> shards) {
        Set<String> ids = new HashSet<>();
        shards.forEach(shard -> ids.add(shard.shardId()));
        List<Shard> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        while (ordered.size() < shards.size()) {
            int before = ordered.size();
            for (Shard shard : shards) {
                if (placed.contains(shard.shardId())) {
                    continue;
                }
                String parent = shard.parentShardId();
                if (parent == null || !ids.contains(parent) || placed.contains(parent)) {
                    ordered.add(shard);
                    placed.add(shard.shardId());
                }
            }
            assertTrue(ordered.size() > before, "shards form a lineage without cycles: " + shards);
        }
        return ordered;
    }

    /** Every record now in the stream, in shard lineage order. */
    static List<Record> readAll(DynamoDbStreamsClient streams, String streamArn) {
        List<Record> records = new ArrayList<>();
        for (Shard shard : lineage(shards(streams, streamArn))) {
            records.addAll(readShard(streams, streamArn, shard.shardId(), ShardIteratorType.TRIM_HORIZON, null));
        }
        return records;
    }

    /** The records of one shard from the given position until a read comes back empty or the shard ends. */
    static List<Record> readShard(DynamoDbStreamsClient streams, String streamArn, String shardId,
                                  ShardIteratorType type, String sequenceNumber) {
        String iterator = streams.getShardIterator(g -> g.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(type).sequenceNumber(sequenceNumber)).shardIterator();
        List<Record> records = new ArrayList<>();
        int reads = 0;
        while (iterator != null) {
            String current = iterator;
            GetRecordsResponse page = streams.getRecords(g -> g.shardIterator(current));
            records.addAll(page.records());
            iterator = page.nextShardIterator();
            if (page.records().isEmpty()) {
                break;
            }
            assertTrue(++reads < 10_000, "reading a shard ends");
        }
        return records;
    }

    static BigInteger sequence(Record record) {
        return new BigInteger(record.dynamodb().sequenceNumber());
    }
}
