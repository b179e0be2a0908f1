package dev.moviegraph.engine.stream;

import dev.moviegraph.engine.table.KeySchema;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the streams hold besides their records (which live in their {@link RecordLog}s): a checkpoint of the rows
 * keeps this beside them, so a restart takes the streams up where the rows stand instead of re-making every record.
 *
 * @param nextSequence  the number the next record gets at the earliest
 * @param streams       every stream still kept, enabled or not
 * @param latestByTable each table's current stream, by table name, as its ARN
 */
public record StreamsState(long nextSequence, List<StreamState> streams, Map<String, String> latestByTable) {
    public StreamsState {
        streams = List.copyOf(streams);
        latestByTable = Map.copyOf(latestByTable);
    }

    /** One stream: what {@code Stream} keeps apart from its records. */
    public record StreamState(String arn, String label, String tableName, String tableId, KeySchema key,
                              String viewType, Instant created, boolean enabled, long floor, long lastShardMillis,
                              int shardCount, List<ShardState> shards) {
        public StreamState {
            shards = List.copyOf(shards);
        }
    }

    /** One shard: its place in the lineage and its numbers ({@code closedAt} null while open). */
    public record ShardState(String id, String parentId, long starting, Instant opened, long last, long ending,
                             Instant closedAt, long trimmedUpTo) {
    }
}
