package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A DynamoDB endpoint in front of another one (DynamoDB Local) that charges every request its read and
 * write units per partition key value of the table and of each index ({@link Charges}) in a
 * {@link PartitionLedger}, and refuses what would pass a partition's limit with DynamoDB's own error and
 * throttling reason, so a benchmark can see which partition a design makes hot. DynamoDB Local enforces
 * no limits; this does.
 *
 * <p>A write is sent on, and what it changed (each index key that moved, each projected attribute, the
 * larger size) is learnt from the item before and after it: a PutItem or DeleteItem is sent with
 * {@code ReturnValues=ALL_OLD} (and {@code ReturnValuesOnConditionCheckFailure=ALL_OLD}), its after being
 * the item put or none; an UpdateItem is sent with {@code ReturnValues=ALL_NEW} after one consistent read
 * of the item; a transaction's items are read in one BatchGetItem before and one after. What the caller
 * did not ask for is taken out of the answer. {@link #startReadingEveryItem} reads each item before and
 * after instead (a GetItem each, uncharged), the reference the fast path is tested against. A refused
 * write is undone (the item put back as it was before), so nothing refused is in the table; writes of
 * one item are serialized here so the before and after are that write's. A transaction refused is
 * cancelled with {@code ThrottlingError}, as DynamoDB cancels one whose index write is throttled. Queries
 * are charged for the items they returned (DynamoDB charges what it read before a filter; this gateway's
 * filters drop few items). Requests of other kinds (tables, streams) pass through uncharged.
 *
 * <p>It counts what it saw ({@link #counts}): the table requests it answered, the units it charged, and
 * the writes refused by a failed condition, by the prefix of their partition key value.
 */
public final class CapacityStandIn implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET = "X-Amz-Target";
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "connection", "expect", "upgrade");
    private static final int LOCK_STRIPES = 1024;
    /** Calls that change nothing, so sent again when DynamoDB Local's connection drops before it answers. */
    private static final Set<String> READS = Set.of("GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable",
            "GetRecords", "GetShardIterator", "DescribeStream", "ListStreams");
    private static final int READ_ATTEMPTS = 3;
    /** The requests {@link Counts#requests} counts: a table's reads and writes (not streams, not DescribeTable). */
    private static final Set<String> TABLE_REQUESTS = Set.of("GetItem", "BatchGetItem", "Query", "Scan",
            "TransactGetItems", "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(32);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI target;
    private final PartitionLedger ledger;
    private final Map<String, Charges> schemas = new ConcurrentHashMap<>();
    private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
    private final boolean readEveryItem;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final DoubleAdder readUnits = new DoubleAdder();
    private final DoubleAdder writeUnits = new DoubleAdder();
    private final Map<String, LongAdder> failedConditions = new ConcurrentHashMap<>();

    private CapacityStandIn(URI target, PartitionLedger ledger, boolean readEveryItem) throws IOException {
        this.target = target;
        this.ledger = ledger;
        this.readEveryItem = readEveryItem;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** Starts one on a free loopback port, in front of {@code target}. */
    public static CapacityStandIn start(URI target, PartitionLedger ledger) {
        return start(target, ledger, false);
    }

    /**
     * The same charges, learnt the slow way: each written item read before and after its write (a GetItem
     * each, three calls a write). The reference {@link #start}'s answers are tested against.
     */
    public static CapacityStandIn startReadingEveryItem(URI target, PartitionLedger ledger) {
        return start(target, ledger, true);
    }

    private static CapacityStandIn start(URI target, PartitionLedger ledger, boolean readEveryItem) {
        try {
            return new CapacityStandIn(target, ledger, readEveryItem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What the stand-in saw so far: table requests answered (reads and writes, refused ones included: each
     * SDK attempt is one), calls it sent on to DynamoDB Local (its own reads and undos included), units charged (refused requests charge none), and writes refused by a failed
     * condition, by the prefix of their partition key value up to its first {@code #} ({@code toplist#}).
     */
    public record Counts(long requests, long forwarded, double readUnits, double writeUnits,
                         Map<String, Long> failedConditions) {
        public Counts {
            failedConditions = Map.copyOf(failedConditions);
        }

        /** Conditions failed on items whose partition key value starts with {@code prefix} (up to its '#'). */
        public long failedConditions(String prefix) {
            return failedConditions.getOrDefault(prefix, 0L);
        }

        /** What happened between {@code earlier} and this. */
        public Counts since(Counts earlier) {
            Map<String, Long> failed = new TreeMap<>(failedConditions);
            earlier.failedConditions.forEach((prefix, n) -> failed.merge(prefix, -n, Long::sum));
            failed.values().removeIf(n -> n == 0);
            return new Counts(requests - earlier.requests, forwarded - earlier.forwarded, readUnits - earlier.readUnits,
                    writeUnits - earlier.writeUnits, failed);
        }
    }

    /** A snapshot of what the stand-in saw so far; two of them give what happened in between. */
    public Counts counts() {
        Map<String, Long> failed = new TreeMap<>();
        failedConditions.forEach((prefix, n) -> failed.put(prefix, n.sum()));
        return new Counts(requests.get(), forwarded.get(), readUnits.sum(), writeUnits.sum(), failed);
    }

    /** Where clients send their DynamoDB calls. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Call call = new Call(exchange, body);
            String operation = call.operation();
            if (TABLE_REQUESTS.contains(operation)) {
                requests.incrementAndGet();
            }
            Answer answer = switch (operation) {
                case "GetItem", "BatchGetItem", "Query" -> read(call);
                case "PutItem", "UpdateItem", "DeleteItem" -> write(call);
                case "TransactWriteItems" -> transaction(call);
                case "BatchWriteItem" -> batchWrite(call);
                default -> call.forward(body);
            };
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(answer.status(), answer.body().length);
            exchange.getResponseBody().write(answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | ForwardFailed e) {
            // DynamoDB answers a fault of its own with a 500, which clients retry; a dropped connection is not that
            byte[] error = error("InternalServerError", "capacity stand-in: " + e).getBytes();
            exchange.sendResponseHeaders(500, error.length);
            exchange.getResponseBody().write(error);
        }
    }

    private Answer read(Call call) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(call.body);
        // A refused write is in DynamoDB Local until it is undone, under its key's lock: a read by key waits for
        // that lock, so it never sees a write DynamoDB would not have made (a merge reading a refused increment
        // would list a count that was never acknowledged).
        List<ReentrantLock> held = locksOfKeysRead(call.operation(), request);
        held.forEach(ReentrantLock::lock);
        Answer answer;
        try {
            answer = call.forward(call.body);
        } finally {
            held.forEach(ReentrantLock::unlock);
        }
        if (answer.status() != 200) {
            return answer;
        }
        JsonNode response = JSON.readTree(answer.body());
        List<Charge> charges = new ArrayList<>();
        switch (call.operation()) {
            case "GetItem" -> charges.addAll(charges(call, request.path("TableName").asText())
                    .get(request.path("Key"), response.get("Item"), request.path("ConsistentRead").asBoolean(false), false));
            case "Query" -> {
                List<JsonNode> items = new ArrayList<>();
                response.path("Items").forEach(items::add);
                charges.addAll(charges(call, request.path("TableName").asText()).query(request, items));
            }
            default -> request.path("RequestItems").fields().forEachRemaining(table -> {
                Charges of = charges(call, table.getKey());
                boolean consistent = table.getValue().path("ConsistentRead").asBoolean(false);
                for (JsonNode key : table.getValue().path("Keys")) {
                    charges.addAll(of.get(key, found(response.path("Responses").path(table.getKey()), key), consistent, false));
                }
            });
        }
        return charge(charges).map(CapacityStandIn::throttled).orElse(answer);
    }

    /** Charges the ledger and, when it accepts, counts the units. */
    private Optional<PartitionLedger.Throttle> charge(List<Charge> charges) {
        Optional<PartitionLedger.Throttle> refused = ledger.charge(charges);
        if (refused.isEmpty()) {
            for (Charge charge : charges) {
                (charge.kind() == Charge.Kind.READ ? readUnits : writeUnits).add(charge.units());
            }
        }
        return refused;
    }

    private void failedCondition(String partition) {
        int end = partition.indexOf('#');
        failedConditions.computeIfAbsent(end < 0 ? partition : partition.substring(0, end + 1), prefix -> new LongAdder())
                .increment();
    }

    private Answer write(Call call) throws IOException, InterruptedException {
        ObjectNode request = (ObjectNode) JSON.readTree(call.body);
        String table = request.path("TableName").asText();
        Charges charges = charges(call, table);
        JsonNode key = request.has("Key") ? request.get("Key") : charges.keyOf(request.get("Item"));
        ReentrantLock lock = lockOf(table, key);
        lock.lock();
        try {
            Changed changed = readEveryItem ? readingEveryItem(call, table, key) : call.operation().equals("UpdateItem")
                    ? update(call, request, table, key) : putOrDelete(call, request, table, key);
            Answer answer = changed.answer();
            if (answer.status() != 200) {
                if (isConditionFailure(answer)) {
                    failedCondition(Charges.scalar(key.path(charges.partitionKey())));
                }
                // a failed condition still costs its write
                charge(charges.write(key, changed.before(), changed.before(), false));
                return answer;
            }
            Optional<PartitionLedger.Throttle> refused = charge(charges.write(key, changed.before(), changed.after(), false));
            if (refused.isPresent()) {
                call.restore(table, key, changed.before());
                return throttled(refused.get());
            }
            return answer;
        } finally {
            lock.unlock();
        }
    }

    /** A write's answer, and its item before and after it (after: null unless the answer is 200). */
    private record Changed(Answer answer, JsonNode before, JsonNode after) {
    }

    /** The reference: the item read before and after the write. */
    private Changed readingEveryItem(Call call, String table, JsonNode key) throws IOException, InterruptedException {
        JsonNode before = call.item(table, key);
        Answer answer = call.forward(call.body);
        return new Changed(answer, before, answer.status() == 200 ? call.item(table, key) : null);
    }

    /**
     * One call: a PutItem or DeleteItem returns the item it replaced ({@code ALL_OLD}, also when its
     * condition fails), and leaves the item it put (or none).
     */
    private Changed putOrDelete(Call call, ObjectNode request, String table, JsonNode key)
            throws IOException, InterruptedException {
        boolean askedOld = "ALL_OLD".equals(request.path("ReturnValues").asText());
        boolean conditional = request.has("ConditionExpression") || request.has("Expected");
        boolean askedOldOnFailure = "ALL_OLD".equals(request.path("ReturnValuesOnConditionCheckFailure").asText());
        request.put("ReturnValues", "ALL_OLD");
        if (conditional) {
            request.put("ReturnValuesOnConditionCheckFailure", "ALL_OLD");
        }
        Answer answer = call.forward(JSON.writeValueAsBytes(request));
        if (answer.status() == 200) {
            ObjectNode response = (ObjectNode) JSON.readTree(answer.body());
            JsonNode before = response.get("Attributes");
            if (!askedOld && before != null) {
                response.remove("Attributes");
                answer = new Answer(200, JSON.writeValueAsBytes(response));
            }
            return new Changed(answer, before, call.operation().equals("PutItem") ? request.get("Item") : null);
        }
        if (conditional && isConditionFailure(answer)) {
            ObjectNode error = (ObjectNode) JSON.readTree(answer.body());
            JsonNode before = error.get("Item");
            if (!askedOldOnFailure && before != null) {
                error.remove("Item");
                answer = new Answer(answer.status(), JSON.writeValueAsBytes(error));
            }
            return new Changed(answer, before, null);
        }
        return new Changed(answer, call.item(table, key), null); // an error of another kind: rare
    }

    /** Two calls: the item read, then the UpdateItem returning the item it left ({@code ALL_NEW}). */
    private Changed update(Call call, ObjectNode request, String table, JsonNode key)
            throws IOException, InterruptedException {
        JsonNode before = call.item(table, key);
        String asked = request.path("ReturnValues").asText("NONE");
        if (!asked.equals("NONE") && !asked.equals("ALL_NEW")) {
            // the caller wants other values back: the after is read on its own
            Answer answer = call.forward(call.body);
            return new Changed(answer, before, answer.status() == 200 ? call.item(table, key) : null);
        }
        request.put("ReturnValues", "ALL_NEW");
        Answer answer = call.forward(JSON.writeValueAsBytes(request));
        if (answer.status() != 200) {
            return new Changed(answer, before, null);
        }
        ObjectNode response = (ObjectNode) JSON.readTree(answer.body());
        JsonNode after = response.get("Attributes");
        if (asked.equals("NONE")) {
            response.remove("Attributes");
            answer = new Answer(200, JSON.writeValueAsBytes(response));
        }
        return new Changed(answer, before, after);
    }

    private static boolean isConditionFailure(Answer answer) {
        return answer.status() == 400 && new String(answer.body(), StandardCharsets.UTF_8)
                .contains("ConditionalCheckFailedException");
    }

    private Answer transaction(Call call) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(call.body);
        List<Written> items = new ArrayList<>();
        for (JsonNode action : request.path("TransactItems")) {
            Map.Entry<String, JsonNode> only = action.fields().next();
            JsonNode operation = only.getValue();
            String table = operation.path("TableName").asText();
            Charges charges = charges(call, table);
            JsonNode key = operation.has("Key") ? operation.get("Key") : charges.keyOf(operation.get("Item"));
            items.add(new Written(table, key, only.getKey(), operation, charges));
        }
        List<ReentrantLock> held = items.stream().map(item -> lockOf(item.table(), item.key())).distinct()
                .sorted(Comparator.comparingInt(System::identityHashCode)).toList();
        held.forEach(ReentrantLock::lock);
        try {
            List<JsonNode> before = readEveryItem ? each(call, items) : together(call, items);
            Answer answer = call.forward(call.body);
            if (answer.status() != 200) {
                countFailedConditions(answer, items);
                return answer;
            }
            List<JsonNode> after = new ArrayList<>();
            List<Written> updated = new ArrayList<>();
            List<Integer> updatedAt = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                Written item = items.get(i);
                if (readEveryItem) {
                    after.add(item.check() ? before.get(i) : call.item(item.table(), item.key()));
                    continue;
                }
                switch (item.action()) {
                    case "ConditionCheck" -> after.add(before.get(i));
                    case "Put" -> after.add(item.operation().get("Item"));
                    case "Delete" -> after.add(null);
                    default -> {
                        updatedAt.add(after.size());
                        after.add(null); // read below, with the other updates
                        updated.add(item);
                    }
                }
            }
            if (!updated.isEmpty()) {
                List<JsonNode> read = together(call, updated);
                for (int u = 0; u < updated.size(); u++) {
                    after.set(updatedAt.get(u), read.get(u));
                }
            }
            List<Charge> charges = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                Written item = items.get(i);
                charges.addAll(item.charges().write(item.key(), before.get(i), after.get(i), true));
            }
            Optional<PartitionLedger.Throttle> refused = charge(charges);
            if (refused.isEmpty()) {
                return answer;
            }
            for (int i = 0; i < items.size(); i++) {
                if (!items.get(i).check()) {
                    call.restore(items.get(i).table(), items.get(i).key(), before.get(i));
                }
            }
            return cancelled(items.size());
        } finally {
            held.forEach(ReentrantLock::unlock);
        }
    }

    /** A transaction cancelled for its conditions: each item whose condition failed, counted by its partition. */
    private void countFailedConditions(Answer answer, List<Written> items) throws IOException {
        if (answer.status() != 400) {
            return;
        }
        JsonNode reasons = JSON.readTree(answer.body()).path("CancellationReasons");
        for (int i = 0; i < Math.min(reasons.size(), items.size()); i++) {
            if ("ConditionalCheckFailed".equals(reasons.get(i).path("Code").asText())) {
                Written item = items.get(i);
                failedCondition(Charges.scalar(item.key().path(item.charges().partitionKey())));
            }
        }
    }

    /** The items under the keys, now, a GetItem each (consistent, uncharged); null where there is none. */
    private static List<JsonNode> each(Call call, List<Written> items) throws IOException, InterruptedException {
        List<JsonNode> found = new ArrayList<>();
        for (Written item : items) {
            found.add(call.item(item.table(), item.key()));
        }
        return found;
    }

    /** The same in BatchGetItems of up to 100 keys (consistent, uncharged). */
    private static List<JsonNode> together(Call call, List<Written> items) throws IOException, InterruptedException {
        List<JsonNode> found = new ArrayList<>();
        for (int from = 0; from < items.size(); from += 100) {
            found.addAll(call.items(items.subList(from, Math.min(items.size(), from + 100))));
        }
        return found;
    }

    /** Each put or delete of a batch on its own: a refused one comes back among UnprocessedItems. */
    private Answer batchWrite(Call call) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(call.body);
        ObjectNode unprocessed = JSON.createObjectNode();
        int refused = 0;
        int all = 0;
        for (Map.Entry<String, JsonNode> table : iterable(request.path("RequestItems"))) {
            for (JsonNode entry : table.getValue()) {
                all++;
                ObjectNode single = JSON.createObjectNode().put("TableName", table.getKey());
                String operation;
                if (entry.has("PutRequest")) {
                    operation = "PutItem";
                    single.set("Item", entry.get("PutRequest").get("Item"));
                } else {
                    operation = "DeleteItem";
                    single.set("Key", entry.get("DeleteRequest").get("Key"));
                }
                Answer answer = write(call.as(operation, JSON.writeValueAsBytes(single)));
                if (answer.status() != 200) {
                    refused++;
                    ((ArrayNode) unprocessed.withArray(table.getKey())).add(entry);
                }
            }
        }
        if (all > 0 && refused == all) {
            return new Answer(400, error("ProvisionedThroughputExceededException",
                    "Every write of the batch was throttled").getBytes());
        }
        return new Answer(200, JSON.writeValueAsBytes(JSON.createObjectNode().set("UnprocessedItems", unprocessed)));
    }

    private Charges charges(Call call, String table) {
        return schemas.computeIfAbsent(table, name -> {
            try {
                Answer described = call.as("DescribeTable", JSON.writeValueAsBytes(
                        JSON.createObjectNode().put("TableName", name))).forward(null);
                return new Charges(KeySchema.of(JSON.readTree(described.body()).path("Table")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    /** The locks of the items a GetItem or BatchGetItem reads, in the order writes take them (none for a Query). */
    private List<ReentrantLock> locksOfKeysRead(String operation, JsonNode request) {
        List<ReentrantLock> locks = new ArrayList<>();
        if (operation.equals("GetItem")) {
            locks.add(lockOf(request.path("TableName").asText(), request.path("Key")));
        } else if (operation.equals("BatchGetItem")) {
            request.path("RequestItems").fields().forEachRemaining(table -> table.getValue().path("Keys")
                    .forEach(key -> locks.add(lockOf(table.getKey(), key))));
        }
        return locks.stream().distinct().sorted(Comparator.comparingInt(System::identityHashCode)).toList();
    }

    private ReentrantLock lockOf(String table, JsonNode key) {
        Map<String, String> canonical = new TreeMap<>();
        key.fields().forEachRemaining(attribute -> canonical.put(attribute.getKey(), attribute.getValue().toString()));
        return locks[Math.floorMod((table + canonical).hashCode(), LOCK_STRIPES)];
    }

    /** The item among {@code items} with every attribute of {@code key}, or null. */
    private static JsonNode found(JsonNode items, JsonNode key) {
        for (JsonNode item : items) {
            if (hasKey(item, key)) {
                return item;
            }
        }
        return null;
    }

    private static boolean hasKey(JsonNode item, JsonNode key) {
        for (Map.Entry<String, JsonNode> attribute : iterable(key)) {
            if (!AttributeValues.same(attribute.getValue(), item.get(attribute.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }

    private static Answer throttled(PartitionLedger.Throttle throttle) {
        ObjectNode error = JSON.createObjectNode()
                .put("__type", "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException")
                .put("message", "Throughput exceeds the limit of one partition: " + throttle.partition() + " took "
                        + throttle.units() + " units this second");
        error.putArray("ThrottlingReasons").addObject()
                .put("reason", throttle.reason())
                .put("resource", "arn:aws:dynamodb:us-east-1:000000000000:table/" + throttle.resource());
        return new Answer(400, error.toString().getBytes());
    }

    private static Answer cancelled(int items) {
        ObjectNode error = JSON.createObjectNode()
                .put("__type", "com.amazonaws.dynamodb.v20120810#TransactionCanceledException")
                .put("Message", "Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError]");
        ArrayNode reasons = error.putArray("CancellationReasons");
        for (int i = 0; i < items; i++) {
            reasons.addObject().put("Code", "ThrottlingError")
                    .put("Message", "Throughput exceeds the current capacity for one or more partitions.");
        }
        return new Answer(400, error.toString().getBytes());
    }

    /** DynamoDB Local's answer to a forwarded call never came (its connection dropped). */
    private static final class ForwardFailed extends IOException {
        ForwardFailed(String operation, IOException cause) {
            super(operation + " to DynamoDB Local failed: " + cause, cause);
        }
    }

    private static String error(String type, String message) {
        return JSON.createObjectNode().put("__type", "com.amazonaws.dynamodb.v20120810#" + type)
                .put("message", message).toString();
    }

    private record Answer(int status, byte[] body) {
    }

    /** One item of a transaction: {@code action} is Put, Update, Delete or ConditionCheck. */
    private record Written(String table, JsonNode key, String action, JsonNode operation, Charges charges) {
        boolean check() {
            return action.equals("ConditionCheck");
        }
    }

    /** One incoming call: its headers (signature, date) are reused for the reads and undos it needs. */
    private final class Call {
        private final HttpExchange exchange;
        private final byte[] body;
        private final String operation;

        Call(HttpExchange exchange, byte[] body) {
            this(exchange, body, exchange.getRequestHeaders().getFirst(TARGET) == null ? ""
                    : exchange.getRequestHeaders().getFirst(TARGET).substring(
                    exchange.getRequestHeaders().getFirst(TARGET).indexOf('.') + 1));
        }

        private Call(HttpExchange exchange, byte[] body, String operation) {
            this.exchange = exchange;
            this.body = body;
            this.operation = operation;
        }

        String operation() {
            return operation;
        }

        Call as(String otherOperation, byte[] otherBody) {
            return new Call(exchange, otherBody, otherOperation);
        }

        Answer forward(byte[] content) throws IOException, InterruptedException {
            byte[] sent = content == null ? body : content;
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().getPath()))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(sent));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase()) && !name.equalsIgnoreCase(TARGET)) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            String original = exchange.getRequestHeaders().getFirst(TARGET);
            // a call passed through keeps its own target (DynamoDB Streams' calls have another prefix)
            request.header(TARGET, original != null && original.endsWith("." + operation) ? original
                    : "DynamoDB_20120810." + operation);
            HttpRequest built = request.build();
            for (int attempt = 1; ; attempt++) {
                forwarded.incrementAndGet();
                try {
                    HttpResponse<byte[]> response = http.send(built, HttpResponse.BodyHandlers.ofByteArray());
                    return new Answer(response.statusCode(), response.body());
                } catch (IOException e) {
                    // the JDK client does not resend a POST whose pooled connection DynamoDB Local closed; a read is
                    // safe to send again, a write is answered as DynamoDB's own fault (500) and left to the client
                    if (!READS.contains(operation) || attempt == READ_ATTEMPTS) {
                        throw new ForwardFailed(operation, e);
                    }
                }
            }
        }

        /** The item under {@code key} now, read consistently and not charged; null when there is none. */
        JsonNode item(String table, JsonNode key) throws IOException, InterruptedException {
            ObjectNode get = JSON.createObjectNode().put("TableName", table).put("ConsistentRead", true);
            get.set("Key", key);
            Answer answer = as("GetItem", JSON.writeValueAsBytes(get)).forward(null);
            if (answer.status() != 200) {
                throw new IllegalStateException("Reading " + key + " failed: " + new String(answer.body()));
            }
            return JSON.readTree(answer.body()).get("Item");
        }

        /** The items under these keys now (of any tables), in their order: one BatchGetItem, consistent, not charged. */
        List<JsonNode> items(List<Written> keys) throws IOException, InterruptedException {
            List<JsonNode> found = new ArrayList<>(java.util.Collections.nCopies(keys.size(), (JsonNode) null));
            ObjectNode unread = JSON.createObjectNode();
            for (Written item : keys) {
                ObjectNode ofTable = unread.has(item.table()) ? (ObjectNode) unread.get(item.table())
                        : unread.putObject(item.table()).put("ConsistentRead", true);
                ofTable.withArray("Keys").add(item.key());
            }
            while (!unread.isEmpty()) {
                ObjectNode get = JSON.createObjectNode();
                get.set("RequestItems", unread);
                Answer answer = as("BatchGetItem", JSON.writeValueAsBytes(get)).forward(null);
                if (answer.status() != 200) {
                    throw new IllegalStateException("Reading " + keys.size() + " items failed: " + new String(answer.body()));
                }
                JsonNode response = JSON.readTree(answer.body());
                for (Map.Entry<String, JsonNode> table : iterable(response.path("Responses"))) {
                    for (JsonNode item : table.getValue()) {
                        for (int i = 0; i < keys.size(); i++) {
                            Written asked = keys.get(i);
                            if (found.get(i) == null && asked.table().equals(table.getKey()) && hasKey(item, asked.key())) {
                                found.set(i, item);
                                break;
                            }
                        }
                    }
                }
                JsonNode left = response.path("UnprocessedKeys");
                unread = left.isObject() ? (ObjectNode) left : JSON.createObjectNode();
            }
            return found;
        }

        /** Puts the item back as it was (or deletes it, when it was not there). */
        void restore(String table, JsonNode key, JsonNode before) throws IOException, InterruptedException {
            ObjectNode undo = JSON.createObjectNode().put("TableName", table);
            if (before == null) {
                undo.set("Key", key);
            } else {
                undo.set("Item", before);
            }
            as(before == null ? "DeleteItem" : "PutItem", JSON.writeValueAsBytes(undo)).forward(null);
        }
    }
}
