package dev.moviegraph.engine.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.ChangeListener;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * DynamoDB Streams: every change of a table whose stream is on becomes one record, in the order the
 * table calls {@link #changed} (under the item's lock, so per item in the order of its writes), and
 * the four DynamoDBStreams_20120810 operations read them. Records live in memory for the retention;
 * shards close after the shard period and a child takes over, as DynamoDB's do.
 */
public final class Streams implements ChangeListener {
    /**
     * @param shardPeriod      how long a shard stays open before it closes and a child opens
     * @param retention        how long records stay readable
     * @param iteratorLifetime how long a shard iterator can be used
     */
    public record StreamSettings(Duration shardPeriod, Duration retention, Duration iteratorLifetime) {
        public StreamSettings {
            positive(shardPeriod, "shardPeriod");
            positive(retention, "retention");
            positive(iteratorLifetime, "iteratorLifetime");
        }

        /** DynamoDB's: shards of about four hours, 24 hours of records, iterators good for 15 minutes. */
        public static StreamSettings defaults() {
            return new StreamSettings(Duration.ofHours(4), Duration.ofHours(24), Duration.ofMinutes(15));
        }

        private static void positive(Duration duration, String name) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + " must be positive: " + duration);
            }
        }
    }

    static final List<String> VIEW_TYPES = List.of("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY");
    private static final List<String> ITERATOR_TYPES = List.of("TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
            "AFTER_SEQUENCE_NUMBER");
    private static final DateTimeFormatter LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");
    private static final long MAX_PAGE_BYTES = 1 << 20;
    /** How often writers also look after the other streams, so idle ones let go of expired records too. */
    private static final long HOUSEKEEPING_MILLIS = 60_000;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final StreamSettings settings;
    private final Clock clock;
    private final String region;
    private final SequenceNumbers numbers = new SequenceNumbers();
    private final RecordLog.Logs logs;
    private final ConcurrentMap<String, Stream> byArn = new ConcurrentHashMap<>();
    /** The stream a table's changes go to (its latest); a turned-off one stays until the table is deleted. */
    private final ConcurrentMap<String, Stream> latestByTable = new ConcurrentHashMap<>();
    private final AtomicLong lastHousekeeping = new AtomicLong();
    private final ThreadLocal<long[]> lastOfThread = ThreadLocal.withInitial(() -> new long[1]);
    /** A journal's replay: the time of the change being re-made, used instead of the clock's; null otherwise. */
    private volatile Instant replayTime;

    public Streams(StreamSettings settings, Clock clock, String region, RecordLog.Logs logs) {
        this.logs = Objects.requireNonNull(logs, "logs");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.region = Objects.requireNonNull(region, "region");
    }

    // ---- the table side ----

    /** The table's stream turned on with this view type; returns the new stream label (unique per table). */
    public String enable(TableSpec spec, String viewType) {
        if (viewType == null || !VIEW_TYPES.contains(viewType)) {
            throw ApiException.validation("1 validation error detected: Value '" + viewType + "' at"
                    + " 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum"
                    + " value set: " + VIEW_TYPES);
        }
        synchronized (this) { // enabling and disabling are rare; writers never take this
            Instant at = eventTime();
            Stream previous = latestByTable.get(spec.name());
            if (previous != null) {
                previous.disable(at);
            }
            long millis = Math.max(at.toEpochMilli(), labelFloor(spec) + 1);
            String label = LABEL.format(LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
                    (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC));
            String arn = arnOf(spec, label);
            Stream stream = new Stream(arn, label, spec.name(), spec.tableId(), spec.key(), viewType,
                    Instant.ofEpochMilli(millis), settings.shardPeriod(), settings.retention(), numbers, logs);
            byArn.put(arn, stream);
            latestByTable.put(spec.name(), stream);
            return label;
        }
    }

    /** Turned off: the stream becomes DISABLED, its open shard closes; its records stay readable until retention. */
    public void disable(String tableName) {
        synchronized (this) {
            Stream stream = latestByTable.get(tableName);
            if (stream != null) {
                stream.disable(eventTime());
            }
        }
    }

    /** The table was deleted: its stream is disabled as above, and forgotten as the table's. */
    public void tableDeleted(String tableName) {
        synchronized (this) {
            Stream stream = latestByTable.remove(tableName);
            if (stream != null) {
                stream.disable(eventTime());
            }
        }
    }

    /** The ARN of the table's latest stream label, null when it never had a stream. */
    public String streamArn(TableSpec spec) {
        return spec.streamLabel() == null ? null : arnOf(spec, spec.streamLabel());
    }

    @Override
    public void changed(Table table, StoredItem before, StoredItem after, boolean byService) {
        Stream stream = latestByTable.get(table.name());
        if (stream != null && stream.enabled() && (before != null || after != null)
                && stream.belongsTo(table.spec().tableId())) {
            Instant now = clock.instant();
            Instant replaying = replayTime;
            long number = stream.append(draft(stream, before, after, byService), replaying == null ? now : replaying,
                    now);
            if (number > 0) {
                lastOfThread.get()[0] = number;
            }
        }
        housekeepNowAndThen();
    }

    private static ChangeRecord draft(Stream stream, StoredItem before, StoredItem after, boolean byService) {
        String viewType = stream.viewType();
        Map<String, Value> keys = stream.keysOf((after != null ? after : before).attributes());
        boolean carriesNew = viewType.equals("NEW_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES");
        boolean carriesOld = viewType.equals("OLD_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES");
        Map<String, Value> newImage = carriesNew && after != null ? after.attributes() : null;
        Map<String, Value> oldImage = carriesOld && before != null ? before.attributes() : null;
        // SizeBytes as DynamoDB reports it: the keys and the images the record carries
        long size = Sizes.item(keys) + (newImage == null ? 0 : after.size()) + (oldImage == null ? 0 : before.size());
        String eventName = before == null ? "INSERT" : after == null ? "REMOVE" : "MODIFY";
        return new ChangeRecord(0, 0, eventName, keys, newImage, oldImage, byService && after == null, size);
    }

    // ---- durability ----

    /**
     * For durability: before a journal's replay re-makes a change, it sets the number the next record gets
     * ({@code nextSequenceNumber}; 0 or less leaves the counter) and the time it was made, which also stands
     * for now in {@link #enable}, {@link #disable} and shard closing while it is set, so labels, shard ids and
     * numbers come out as they were. A stream's numbers still only increase. {@link #replayDone} ends it.
     */
    public void replayNext(long nextSequenceNumber, Instant creationTime) {
        if (nextSequenceNumber > 0) {
            numbers.set(nextSequenceNumber);
        }
        replayTime = creationTime;
    }

    /** The replay is over: times come from the clock again. */
    public void replayDone() {
        replayTime = null;
    }

    /** The number of the record the calling thread's latest change made (0: none), for a journal that runs after. */
    public long lastSequenceNumber() {
        return lastOfThread.get()[0];
    }

    /**
     * What the streams hold besides their records, for a checkpoint of the rows: taken while no write runs (the
     * rows' checkpoint holds writers off), under this monitor so no stream is enabled or disabled meanwhile.
     */
    public synchronized StreamsState state() {
        List<StreamsState.StreamState> kept = new ArrayList<>();
        for (Stream stream : byArn.values()) {
            kept.add(stream.state());
        }
        Map<String, String> latest = new java.util.HashMap<>();
        latestByTable.forEach((table, stream) -> latest.put(table, stream.arn()));
        return new StreamsState(numbers.peek(), kept, latest);
    }

    /** Takes the streams up as a checkpoint left them (before the journal after it is replayed); empty before. */
    public synchronized void restore(StreamsState state) {
        if (!byArn.isEmpty()) {
            throw new IllegalStateException("streams restore only into an engine that has none yet");
        }
        for (StreamsState.StreamState kept : state.streams()) {
            byArn.put(kept.arn(), Stream.restored(kept, settings.shardPeriod(), settings.retention(), numbers, logs));
        }
        state.latestByTable().forEach((table, arn) -> {
            Stream stream = byArn.get(arn);
            if (stream != null) {
                latestByTable.put(table, stream);
            }
        });
        numbers.set(Math.max(numbers.peek(), state.nextSequence()));
    }

    /** Whether the table's current stream has that label. */
    public boolean isLatest(String tableName, String label) {
        Stream stream = latestByTable.get(tableName);
        return stream != null && stream.label().equals(label);
    }

    /** The number the next record will get at the earliest, for a journal's checkpoint. */
    public long nextSequenceNumber() {
        return numbers.peek();
    }

    // ---- the DynamoDBStreams_20120810 operations ----

    public ObjectNode listStreams(JsonNode request) {
        Requests in = new Requests(request);
        int limit = in.integer("Limit", "limit", 1, 100, 100);
        String tableName = in.optional("TableName", "tableName", 3, 255);
        String start = in.optional("ExclusiveStartStreamArn", "exclusiveStartStreamArn", 37, 1024);
        in.check();
        housekeep(clock.instant());
        List<Stream> matching = new ArrayList<>();
        for (Stream stream : byArn.values()) {
            if ((tableName == null || stream.tableName().equals(tableName))
                    && (start == null || stream.arn().compareTo(start) > 0)) {
                matching.add(stream);
            }
        }
        // ARN order: by table, then by label, which is by time
        matching.sort(Comparator.comparing(Stream::arn));
        ObjectNode response = NODES.objectNode();
        ArrayNode list = response.putArray("Streams");
        for (Stream stream : matching.subList(0, Math.min(limit, matching.size()))) {
            ObjectNode node = list.addObject();
            node.put("StreamArn", stream.arn());
            node.put("TableName", stream.tableName());
            node.put("StreamLabel", stream.label());
        }
        if (matching.size() > limit) {
            response.put("LastEvaluatedStreamArn", matching.get(limit - 1).arn());
        }
        return response;
    }

    public ObjectNode describeStream(JsonNode request) {
        Requests in = new Requests(request);
        String arn = in.required("StreamArn", "streamArn", 37, 1024);
        int limit = in.integer("Limit", "limit", 1, 100, 100);
        String start = in.optional("ExclusiveStartShardId", "exclusiveStartShardId", 28, 65);
        in.check();
        Stream stream = stream(arn, clock.instant());
        ObjectNode description = NODES.objectNode();
        description.put("StreamArn", stream.arn());
        description.put("StreamLabel", stream.label());
        description.put("StreamStatus", stream.status());
        description.put("StreamViewType", stream.viewType());
        description.put("CreationRequestDateTime", BigDecimal.valueOf(stream.created().toEpochMilli(), 3));
        description.put("TableName", stream.tableName());
        ArrayNode keySchema = description.putArray("KeySchema");
        keySchema.addObject().put("AttributeName", stream.key().partition()).put("KeyType", "HASH");
        if (stream.key().hasSort()) {
            keySchema.addObject().put("AttributeName", stream.key().sort()).put("KeyType", "RANGE");
        }
        ArrayNode shards = description.putArray("Shards");
        List<Shard> after = new ArrayList<>();
        for (Shard shard : stream.shards()) {
            if (start == null || shard.id().compareTo(start) > 0) { // ids sort in the order shards opened
                after.add(shard);
            }
        }
        for (Shard shard : after.subList(0, Math.min(limit, after.size()))) {
            ObjectNode node = shards.addObject();
            node.put("ShardId", shard.id());
            if (shard.parentId() != null) {
                node.put("ParentShardId", shard.parentId());
            }
            ObjectNode range = node.putObject("SequenceNumberRange");
            range.put("StartingSequenceNumber", SequenceNumbers.format(shard.starting()));
            if (shard.closed()) {
                range.put("EndingSequenceNumber", SequenceNumbers.format(shard.ending()));
            }
        }
        if (after.size() > limit) {
            description.put("LastEvaluatedShardId", after.get(limit - 1).id());
        }
        ObjectNode response = NODES.objectNode();
        response.set("StreamDescription", description);
        return response;
    }

    public ObjectNode getShardIterator(JsonNode request) {
        Requests in = new Requests(request);
        String arn = in.required("StreamArn", "streamArn", 37, 1024);
        String shardId = in.required("ShardId", "shardId", 28, 65);
        String type = in.oneOf("ShardIteratorType", "shardIteratorType", ITERATOR_TYPES);
        String sequence = in.optional("SequenceNumber", "sequenceNumber", 21, 40);
        in.check();
        Instant now = clock.instant();
        Stream stream = stream(arn, now);
        Shard shard = shard(stream, shardId);
        long from = switch (type) {
            case "TRIM_HORIZON" -> Math.max(shard.starting(), shard.trimmedUpTo() + 1);
            case "LATEST" -> shard.closed() ? shard.ending() + 1 : Math.max(numbers.peek(), shard.last() + 1);
            default -> fromSequence(shard, type, sequence);
        };
        ObjectNode response = NODES.objectNode();
        response.put("ShardIterator", ShardIterators.encode(new ShardIterators.Position(arn, shardId, from,
                now.toEpochMilli())));
        return response;
    }

    /** The position of AT_ or AFTER_SEQUENCE_NUMBER, which must name a number of the shard not trimmed away. */
    private long fromSequence(Shard shard, String type, String sequence) {
        if (sequence == null) {
            throw ApiException.validation("SequenceNumber is required for ShardIteratorType " + type);
        }
        if (!sequence.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ApiException.validation("Invalid SequenceNumber: " + sequence);
        }
        BigInteger number = new BigInteger(sequence);
        // an open shard reaches as far as the numbers given out so far
        long end = shard.closed() ? shard.ending() : numbers.peek() - 1;
        if (number.compareTo(BigInteger.valueOf(shard.starting())) < 0
                || number.compareTo(BigInteger.valueOf(end)) > 0) {
            throw ApiException.validation("Invalid SequenceNumber " + sequence + " for shard " + shard.id()
                    + ": it is not in the shard's range");
        }
        long from = type.equals("AT_SEQUENCE_NUMBER") ? number.longValueExact() : number.longValueExact() + 1;
        if (from <= shard.trimmedUpTo()) {
            throw trimmed();
        }
        return from;
    }

    public ObjectNode getRecords(JsonNode request) {
        Requests in = new Requests(request);
        String iterator = in.required("ShardIterator", "shardIterator", 1, 2048);
        int limit = in.integer("Limit", "limit", 1, 1000, 1000);
        in.check();
        ShardIterators.Position position = ShardIterators.decode(iterator);
        Instant now = clock.instant();
        if (now.toEpochMilli() - position.issuedMillis() > settings.iteratorLifetime().toMillis()) {
            throw ApiException.expiredIterator("The provided iterator exceeds the maximum age allowed.");
        }
        Stream stream = stream(position.streamArn(), now);
        Shard shard = shard(stream, position.shardId());
        boolean closed = shard.closed(); // before reading: then every record the shard will have is there to read
        Shard.Page page = shard.read(position.from(), limit, MAX_PAGE_BYTES);
        if (position.from() <= shard.trimmedUpTo()) { // after reading: see Shard
            throw trimmed();
        }
        ObjectNode response = NODES.objectNode();
        ArrayNode records = response.putArray("Records");
        for (ChangeRecord record : page.records()) {
            records.add(record.json(stream.arn(), region, stream.viewType()));
        }
        if (!closed || page.cut()) {
            long next = page.records().isEmpty() ? position.from()
                    : page.records().get(page.records().size() - 1).sequence() + 1;
            response.put("NextShardIterator", ShardIterators.encode(new ShardIterators.Position(position.streamArn(),
                    position.shardId(), next, now.toEpochMilli())));
        }
        return response;
    }

    // ---- helpers ----

    /** The stream of an ARN, looked after first; ResourceNotFoundException when there is none (or no longer). */
    private Stream stream(String arn, Instant now) {
        Stream stream = byArn.get(arn);
        if (stream != null && stream.needsMaintenance(now) && stream.maintain(now)) {
            forget(stream);
            stream = null;
        }
        if (stream == null) {
            throw ApiException.resourceNotFound("Requested resource not found: Stream: " + arn + " not found");
        }
        return stream;
    }

    private static Shard shard(Stream stream, String shardId) {
        Shard shard = stream.shard(shardId);
        if (shard == null) {
            throw ApiException.resourceNotFound("Requested resource not found: Shard does not exist");
        }
        return shard;
    }

    private static ApiException trimmed() {
        return ApiException.trimmedData("The operation attempted to read past the oldest stream record in a shard.");
    }

    private void housekeepNowAndThen() {
        if (replayTime != null) {
            // a replay re-makes the past: cutting shards at the clock's now would cut them where they never were
            return;
        }
        long now = clock.millis();
        long last = lastHousekeeping.get();
        if (now - last >= HOUSEKEEPING_MILLIS && lastHousekeeping.compareAndSet(last, now)) {
            housekeep(clock.instant());
        }
    }

    /** Closes shards due to close, trims every stream and forgets turned-off streams with nothing left. */
    private void housekeep(Instant now) {
        for (Stream stream : byArn.values()) {
            if (stream.needsMaintenance(now) && stream.maintain(now)) {
                forget(stream);
            }
        }
    }

    private void forget(Stream stream) {
        byArn.remove(stream.arn(), stream);
        latestByTable.remove(stream.tableName(), stream);
    }

    private Instant eventTime() {
        Instant replaying = replayTime;
        return replaying == null ? clock.instant() : replaying;
    }

    private String arnOf(TableSpec spec, String label) {
        return spec.arn(region) + "/stream/" + label;
    }

    /** The latest label time the table had (as far as known), so a new label is later than every earlier one. */
    private long labelFloor(TableSpec spec) {
        long floor = labelMillis(spec.streamLabel());
        for (Stream stream : byArn.values()) {
            if (stream.tableName().equals(spec.name())) {
                floor = Math.max(floor, labelMillis(stream.label()));
            }
        }
        return floor;
    }

    private static long labelMillis(String label) {
        if (label == null) {
            return Long.MIN_VALUE + 1;
        }
        try {
            return LocalDateTime.parse(label, LABEL).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE + 1;
        }
    }
}
