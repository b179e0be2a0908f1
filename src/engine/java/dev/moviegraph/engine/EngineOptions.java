package dev.moviegraph.engine;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an engine runs.
 *
 * @param host            the address to listen on; loopback unless told otherwise
 * @param port            0 picks a free port
 * @param dataDir         where tables live across restarts; null keeps them in memory only
 * @param shardPeriod     how long a stream shard stays open before a child replaces it
 * @param streamRetention how long stream records stay readable
 * @param ttlSweep        how often expired items are looked for
 * @param partitionLimits whether DynamoDB's per-partition ceilings (3,000 read and 1,000 write units a
 *                        second per partition key) are enforced
 * @param region          the region ARNs and stream records name
 * @param rowsInMemory    rows and stream records on the heap even with a data folder, whose journal alone is then
 *                        on disk (a scratch folder in memory: the embedded sample's); otherwise a data folder keeps
 *                        them in its rows file
 * @param compactAfterBytes the journal compacts once the segments written since its last snapshot pass this many
 *                        bytes (and the snapshot's size); a small floor makes compactions frequent (tests)
 */
public record EngineOptions(String host, int port, Path dataDir, Duration shardPeriod, Duration streamRetention,
                            Duration ttlSweep, boolean partitionLimits, String region, boolean rowsInMemory,
                            long compactAfterBytes) {

    public static EngineOptions inMemory() {
        return new EngineOptions("127.0.0.1", 0, null, Duration.ofHours(4), Duration.ofHours(24), Duration.ofSeconds(30),
                false, "us-east-1", false, dev.moviegraph.engine.store.Journal.Options.defaults().compactAfterBytes());
    }

    public EngineOptions withPort(int newPort) {
        return new EngineOptions(host, newPort, dataDir, shardPeriod, streamRetention, ttlSweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withHost(String newHost) {
        return new EngineOptions(newHost, port, dataDir, shardPeriod, streamRetention, ttlSweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withDataDir(Path dir) {
        return new EngineOptions(host, port, dir, shardPeriod, streamRetention, ttlSweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withShardPeriod(Duration period) {
        return new EngineOptions(host, port, dataDir, period, streamRetention, ttlSweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withStreamRetention(Duration retention) {
        return new EngineOptions(host, port, dataDir, shardPeriod, retention, ttlSweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withTtlSweep(Duration sweep) {
        return new EngineOptions(host, port, dataDir, shardPeriod, streamRetention, sweep, partitionLimits, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withPartitionLimits(boolean on) {
        return new EngineOptions(host, port, dataDir, shardPeriod, streamRetention, ttlSweep, on, region, rowsInMemory,
                compactAfterBytes);
    }

    public EngineOptions withRowsInMemory(boolean inMemory) {
        return new EngineOptions(host, port, dataDir, shardPeriod, streamRetention, ttlSweep, partitionLimits, region,
                inMemory, compactAfterBytes);
    }

    public EngineOptions withCompactAfterBytes(long bytes) {
        return new EngineOptions(host, port, dataDir, shardPeriod, streamRetention, ttlSweep, partitionLimits, region,
                rowsInMemory, bytes);
    }
}
