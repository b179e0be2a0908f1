package dev.moviegraph.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
import java.util.concurrent.locks.ReentrantLock;

/**
 * A DynamoDB endpoint in front of another one (DynamoDB Local) that charges every request its read and
 * write units per partition key value of the table and of each index ({@link Charges}) in a
 * {@link PartitionLedger}, and refuses what would pass a partition's limit with DynamoDB's own error and
 * throttling reason, so a benchmark can see which partition a design makes hot. DynamoDB Local enforces
 * no limits; this does.
 *
 * <p>A write is sent on, and its item is read before and after (consistently, uncharged) to know what it
 * changed: each index key that moved, and the larger size. A refused write is undone (the item put back
 * as it was before), so nothing refused is in the table; writes of one item are serialized here so the
 * before and after are that write's. A transaction refused is cancelled with {@code ThrottlingError}, as
 * DynamoDB cancels one whose index write is throttled. Queries are charged for the items they returned
 * (DynamoDB charges what it read before a filter; this gateway's filters drop few items). Requests of
 * other kinds (tables, streams) pass through uncharged.
 */
public final class CapacityStandIn implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET = "X-Amz-Target";
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "connection", "expect", "upgrade");
    private static final int LOCK_STRIPES = 1024;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(32);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI target;
    private final PartitionLedger ledger;
    private final Map<String, Charges> schemas = new ConcurrentHashMap<>();
    private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];

    private CapacityStandIn(URI target, PartitionLedger ledger) throws IOException {
        this.target = target;
        this.ledger = ledger;
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
        try {
            return new CapacityStandIn(target, ledger);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        } catch (RuntimeException e) {
            byte[] error = error("InternalServerError", "capacity stand-in: " + e).getBytes();
            exchange.sendResponseHeaders(500, error.length);
            exchange.getResponseBody().write(error);
        }
    }

    private Answer read(Call call) throws IOException, InterruptedException {
        Answer answer = call.forward(call.body);
        if (answer.status() != 200) {
            return answer;
        }
        JsonNode request = JSON.readTree(call.body);
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
        return ledger.charge(charges).map(CapacityStandIn::throttled).orElse(answer);
    }

    private Answer write(Call call) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(call.body);
        String table = request.path("TableName").asText();
        Charges charges = charges(call, table);
        JsonNode key = request.has("Key") ? request.get("Key") : charges.keyOf(request.get("Item"));
        ReentrantLock lock = lockOf(table, key);
        lock.lock();
        try {
            JsonNode before = call.item(table, key);
            Answer answer = call.forward(call.body);
            if (answer.status() != 200) {
                // a failed condition still costs its write
                ledger.charge(charges.write(key, before, before, false));
                return answer;
            }
            JsonNode after = call.item(table, key);
            Optional<PartitionLedger.Throttle> refused = ledger.charge(charges.write(key, before, after, false));
            if (refused.isPresent()) {
                call.restore(table, key, before);
                return throttled(refused.get());
            }
            return answer;
        } finally {
            lock.unlock();
        }
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
            items.add(new Written(table, key, only.getKey().equals("ConditionCheck"), charges));
        }
        List<ReentrantLock> held = items.stream().map(item -> lockOf(item.table(), item.key())).distinct()
                .sorted(Comparator.comparingInt(System::identityHashCode)).toList();
        held.forEach(ReentrantLock::lock);
        try {
            List<JsonNode> before = new ArrayList<>();
            for (Written item : items) {
                before.add(call.item(item.table(), item.key()));
            }
            Answer answer = call.forward(call.body);
            if (answer.status() != 200) {
                return answer;
            }
            List<Charge> charges = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                Written item = items.get(i);
                JsonNode after = item.check() ? before.get(i) : call.item(item.table(), item.key());
                charges.addAll(item.charges().write(item.key(), before.get(i), after, true));
            }
            Optional<PartitionLedger.Throttle> refused = ledger.charge(charges);
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

    private ReentrantLock lockOf(String table, JsonNode key) {
        Map<String, String> canonical = new TreeMap<>();
        key.fields().forEachRemaining(attribute -> canonical.put(attribute.getKey(), attribute.getValue().toString()));
        return locks[Math.floorMod((table + canonical).hashCode(), LOCK_STRIPES)];
    }

    /** The item among {@code items} with every attribute of {@code key}, or null. */
    private static JsonNode found(JsonNode items, JsonNode key) {
        for (JsonNode item : items) {
            boolean matches = true;
            for (Map.Entry<String, JsonNode> attribute : iterable(key)) {
                matches &= attribute.getValue().equals(item.get(attribute.getKey()));
            }
            if (matches) {
                return item;
            }
        }
        return null;
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

    private static String error(String type, String message) {
        return JSON.createObjectNode().put("__type", "com.amazonaws.dynamodb.v20120810#" + type)
                .put("message", message).toString();
    }

    private record Answer(int status, byte[] body) {
    }

    private record Written(String table, JsonNode key, boolean check, Charges charges) {
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
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.body());
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
