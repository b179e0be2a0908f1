package dev.moviegraph.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.BatchApi;
import dev.moviegraph.engine.api.ItemApi;
import dev.moviegraph.engine.api.ReadApi;
import dev.moviegraph.engine.api.TableApi;
import dev.moviegraph.engine.api.Throughput;
import dev.moviegraph.engine.api.TransactApi;
import dev.moviegraph.engine.capacity.PartitionLimits;
import dev.moviegraph.engine.http.EngineHttp;
import dev.moviegraph.engine.legacy.LegacyParameters;
import dev.moviegraph.engine.partiql.PartiqlApi;
import dev.moviegraph.engine.store.Journal;
import dev.moviegraph.engine.store.RowHome;
import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.ChangeListener;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.ttl.TimeToLive;

import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A DynamoDB-compatible engine: tables, indexes, streams and time to live in this process, served over
 * DynamoDB's own HTTP protocol, in memory or durable in a folder. This is its one handle: start it,
 * read its endpoint, close it.
 */
public final class Engine implements AutoCloseable {
    private final EngineHttp http;
    private final TimeToLive timeToLive;
    private final Journal journal;
    private final RowHome rows;
    private final ExecutorService background;

    private Engine(EngineHttp http, TimeToLive timeToLive, Journal journal, RowHome rows, ExecutorService background) {
        this.http = http;
        this.timeToLive = timeToLive;
        this.journal = journal;
        this.rows = rows;
        this.background = background;
    }

    public static Engine start(EngineOptions options) {
        Clock clock = Clock.systemUTC();
        Journal journal = Journal.open(options.dataDir(),
                Journal.Options.defaults().withStreamRetention(options.streamRetention())
                        .withCompactAfterBytes(options.compactAfterBytes()));
        // rows and stream records compact in memory, or with a data folder in its rows file; the journal keeps
        // them across restarts either way (the file is rebuilt from it at start)
        RowHome rows;
        try {
            rows = RowHome.of(options.rowsInMemory() ? null : journal.dataDir());
        } catch (RuntimeException e) {
            journal.close();
            throw e;
        }
        Streams streams = new Streams(new Streams.StreamSettings(options.shardPeriod(), options.streamRetention(),
                java.time.Duration.ofMinutes(15)), clock, options.region(), rows.records());
        // streams make a change's record and the journal records it with that record's number, in one step
        ChangeListener listener = journal.listener(streams);
        Tables tables = new Tables(listener, rows.storage());
        ExecutorService background = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "engine-background");
            thread.setDaemon(true);
            return thread;
        });
        TableApi tableApi = new TableApi(tables, streams, options.region(), clock, background, journal::declared,
                journal::deleted);
        journal.replay(tables, streams);
        PartitionLimits limits = options.partitionLimits() ? new PartitionLimits(clock, options.region()) : null;
        Throughput throughput = limits != null ? limits : Throughput.UNLIMITED;
        ItemApi items = new ItemApi(tables, throughput);
        ReadApi reads = new ReadApi(tables, throughput);
        BatchApi batches = new BatchApi(tables, throughput);
        TransactApi transactions = new TransactApi(tables, limits != null ? limits.transactional() : throughput,
                journal::atomically);
        Map<String, Function<JsonNode, ObjectNode>> operations = new HashMap<>();
        String dynamo = "DynamoDB_20120810.";
        operations.put(dynamo + "CreateTable", tableApi::createTable);
        operations.put(dynamo + "DescribeTable", tableApi::describeTable);
        operations.put(dynamo + "UpdateTable", tableApi::updateTable);
        operations.put(dynamo + "DeleteTable", tableApi::deleteTable);
        operations.put(dynamo + "ListTables", tableApi::listTables);
        operations.put(dynamo + "UpdateTimeToLive", tableApi::updateTimeToLive);
        operations.put(dynamo + "DescribeTimeToLive", tableApi::describeTimeToLive);
        operations.put(dynamo + "GetItem", legacy("GetItem", items::getItem));
        operations.put(dynamo + "PutItem", legacy("PutItem", items::putItem));
        operations.put(dynamo + "UpdateItem", legacy("UpdateItem", items::updateItem));
        operations.put(dynamo + "DeleteItem", legacy("DeleteItem", items::deleteItem));
        operations.put(dynamo + "Query", legacy("Query", reads::query));
        operations.put(dynamo + "Scan", legacy("Scan", reads::scan));
        operations.put(dynamo + "BatchGetItem", legacy("BatchGetItem", batches::batchGetItem));
        operations.put(dynamo + "BatchWriteItem", batches::batchWriteItem);
        operations.put(dynamo + "TransactWriteItems", transactions::transactWriteItems);
        operations.put(dynamo + "TransactGetItems", transactions::transactGetItems);
        PartiqlApi partiql = new PartiqlApi(tables, items, reads, batches, transactions);
        operations.put(dynamo + "ExecuteStatement", partiql::executeStatement);
        operations.put(dynamo + "BatchExecuteStatement", partiql::batchExecuteStatement);
        operations.put(dynamo + "ExecuteTransaction", partiql::executeTransaction);
        operations.put(dynamo + "TagResource", tableApi::tagResource);
        operations.put(dynamo + "UntagResource", tableApi::untagResource);
        operations.put(dynamo + "ListTagsOfResource", tableApi::listTagsOfResource);
        String stream = "DynamoDBStreams_20120810.";
        operations.put(stream + "ListStreams", streams::listStreams);
        operations.put(stream + "DescribeStream", streams::describeStream);
        operations.put(stream + "GetShardIterator", streams::getShardIterator);
        operations.put(stream + "GetRecords", streams::getRecords);
        if (limits != null) {
            operations.put(PartitionLimits.DESCRIBE_USAGE, limits::describeUsage);
            operations.put(PartitionLimits.START_SECOND, limits::startSecond);
        }
        TimeToLive ttl = new TimeToLive(tables, options.ttlSweep(), clock);
        ttl.start();
        EngineHttp http;
        try {
            http = new EngineHttp(options.host(), options.port(), Map.copyOf(operations)::get, new ObjectMapper());
        } catch (RuntimeException e) {
            // A port in use: let go of the data folder's lock, so a retry on another port can have it.
            ttl.close();
            background.shutdownNow();
            journal.close();
            rows.close();
            throw e;
        }
        return new Engine(http, ttl, journal, rows, background);
    }

    /** An operation that also takes DynamoDB's legacy parameters, rewritten as expressions before it runs. */
    private static Function<JsonNode, ObjectNode> legacy(String operation, Function<JsonNode, ObjectNode> modern) {
        return request -> modern.apply(LegacyParameters.translate(operation, request));
    }

    /** Where the rows are: in memory, or on disk with the sizes of its layers and cache. */
    public String rowsDescription() {
        return rows.description();
    }

    /**
     * Where this start took the journal up from: "generation:offset" of the rows' checkpoint it replayed after, or
     * null when it replayed everything (no data folder, rows in memory, or no checkpoint it could trust).
     */
    public String restoredAt() {
        return journal.restoredAt();
    }

    /** What this start's replay read, or null without a data folder. */
    public dev.moviegraph.engine.store.Journal.ReplayStats lastReplay() {
        return journal.lastReplay();
    }

    public int port() {
        return http.port();
    }

    /** Where clients send requests: http://host:port. */
    public URI endpoint() {
        String host = http.address().getHostString();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port());
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            timeToLive.close();
            background.shutdownNow();
            try {
                journal.checkpoint(); // the rows on disk as they stand: the next start replays nothing before
            } catch (RuntimeException e) {
                System.getLogger(Engine.class.getName()).log(System.Logger.Level.WARNING,
                        "The rows' last checkpoint failed; the next start replays more of the journal: " + e);
            }
            journal.close();
            rows.close();
        }
    }
}
