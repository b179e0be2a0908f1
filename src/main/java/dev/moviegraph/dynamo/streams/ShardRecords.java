package dev.moviegraph.dynamo.streams;

import dev.moviegraph.dynamo.model.TableModel;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * Reading one shard of the table's stream by sequence number: an iterator just after a record, and the
 * streams a stretch of the shard records. What a reader that was handed records by someone else (a
 * Lambda invocation) falls back on when what it was handed does not say what the checkpoint needs: a
 * window's state lost, a pending batch longer than the batch in hand.
 */
public final class ShardRecords {
    /** Empty pages in a row after which a shard with records still to come is given up on for now. */
    private static final int EMPTY_PAGES = 5;

    private final DynamoDbStreamsAsyncClient streams;
    private final String streamArn;

    public ShardRecords(DynamoDbStreamsAsyncClient streams, String streamArn) {
        this.streams = streams;
        this.streamArn = streamArn;
    }

    /**
     * A stretch of a shard: its first and last records (null: none), its streams per total, and whether
     * the shard ends with it (closed, read to its end).
     */
    public record Stretch(String first, String last, Map<ShardCounter.Counted, Long> sums, boolean ended) {
    }

    /** How a read stopped: its reader had what it wanted, the shard ended, or it has nothing more for now. */
    private enum Stop { WANTED, ENDED, NOTHING_YET }

    /**
     * The shard's records after {@code after} (null: from the shard's start) up to and including record
     * {@code upTo}. Throws when the shard no longer has them (trimmed after 24 hours) or does not reach
     * {@code upTo} yet.
     */
    public Stretch between(String shardId, String after, String upTo) {
        BigInteger end = new BigInteger(upTo);
        Map<ShardCounter.Counted, Long> sums = new HashMap<>();
        String[] first = new String[1];
        boolean reached = Stop.WANTED == readAfter(shardId, after, record -> {
            BigInteger sequence = new BigInteger(record.dynamodb().sequenceNumber());
            if (sequence.compareTo(end) > 0) {
                throw new IllegalStateException("Shard " + shardId + " has no record " + upTo);
            }
            if (first[0] == null) {
                first[0] = record.dynamodb().sequenceNumber();
            }
            add(record, sums);
            return !sequence.equals(end);
        });
        if (!reached) {
            throw new IllegalStateException("Shard " + shardId + " does not reach " + upTo + " (trimmed, or not read yet)");
        }
        return new Stretch(first[0], upTo, sums, false);
    }

    /** The shard's records after {@code after} (null: from its start), as far as it has any now. */
    public Stretch rest(String shardId, String after) {
        Map<ShardCounter.Counted, Long> sums = new HashMap<>();
        String[] firstAndLast = new String[2];
        Stop stop = readAfter(shardId, after, record -> {
            if (firstAndLast[0] == null) {
                firstAndLast[0] = record.dynamodb().sequenceNumber();
            }
            firstAndLast[1] = record.dynamodb().sequenceNumber();
            add(record, sums);
            return true;
        });
        return new Stretch(firstAndLast[0], firstAndLast[1], sums, stop == Stop.ENDED);
    }

    /** The shard's parent, if it has one the stream still lists (a parent older than 24 hours is gone). */
    public String parentOf(String shardId) {
        List<Shard> shards = StreamShards.all(streams, streamArn);
        String parent = shards.stream().filter(shard -> shard.shardId().equals(shardId)).map(Shard::parentShardId)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        return shards.stream().anyMatch(shard -> shard.shardId().equals(parent)) ? parent : null;
    }

    private static void add(Record record, Map<ShardCounter.Counted, Long> sums) {
        Map<String, AttributeValue> image = record.dynamodb().newImage();
        if (record.eventName() == OperationType.INSERT && image != null && TableModel.is(image, TableModel.STREAM)) {
            TableModel.StoredStream stream = TableModel.STREAM.decode(image);
            sums.merge(new ShardCounter.Counted(stream.movieId(), stream.month()), 1L, Long::sum);
        }
    }

    /**
     * Whether the shard's records after {@code after} (null: from its start) and before {@code first} count
     * nothing (a window that starts at {@code first} then covers every stream after {@code after}).
     */
    public boolean nothingCountedBetween(String shardId, String after, String first) {
        BigInteger end = new BigInteger(first);
        boolean[] counted = new boolean[1];
        Stop stop = readAfter(shardId, after, record -> {
            if (new BigInteger(record.dynamodb().sequenceNumber()).compareTo(end) >= 0) {
                return false;
            }
            Map<ShardCounter.Counted, Long> one = new HashMap<>();
            add(record, one);
            counted[0] = !one.isEmpty();
            return !counted[0];
        });
        return stop == Stop.WANTED && !counted[0];
    }

    /**
     * Hands the shard's records after {@code after} to {@code next} in order while it answers true, and
     * says why it stopped.
     */
    private Stop readAfter(String shardId, String after, java.util.function.Predicate<Record> next) {
        BigInteger from = after == null ? null : new BigInteger(after);
        String iterator = iteratorAfter(shardId, after, () -> { });
        int empty = 0;
        while (iterator != null && empty < EMPTY_PAGES) {
            GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator)
                    .limit(1000).build()).join();
            iterator = page.nextShardIterator();
            empty = page.records().isEmpty() ? empty + 1 : 0;
            for (Record record : page.records()) {
                boolean skipped = from != null && new BigInteger(record.dynamodb().sequenceNumber()).compareTo(from) <= 0;
                if (!skipped && !next.test(record)) { // skipped: an iterator from the shard's start (see iteratorAfter)
                    return Stop.WANTED;
                }
            }
        }
        return iterator == null ? Stop.ENDED : Stop.NOTHING_YET;
    }

    /**
     * An iterator just after {@code sequence}, or at the start of the shard when there is none. DynamoDB
     * Local refuses AFTER_SEQUENCE_NUMBER for the newest record of a shard; then the shard is read from
     * its start, and the caller skips the records up to {@code sequence} by number (real DynamoDB accepts
     * it). {@code refused}: told when that happens.
     */
    String iteratorAfter(String shardId, String sequence, Runnable refused) {
        GetShardIteratorRequest.Builder start = GetShardIteratorRequest.builder().streamArn(streamArn).shardId(shardId);
        if (sequence != null) {
            try {
                return streams.getShardIterator(start.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                        .sequenceNumber(sequence).build()).join().shardIterator();
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof DynamoDbException refusal) || refusal.getMessage() == null
                        || !refusal.getMessage().contains("SequenceNumber")) {
                    throw e;
                }
                refused.run();
            }
        }
        return streams.getShardIterator(GetShardIteratorRequest.builder().streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON).build()).join().shardIterator();
    }
}
