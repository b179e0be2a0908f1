import dev.moviegraph.dynamo.client.DynamoClients;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The AWS SDK's own CPU per call in this process, with the gateway's client (the same builder, retries,
 * timeouts, Netty client and wrappers: DynamoClients.create), nothing else: no HTTP server, no GraphQL,
 * no decoding. {@code SdkFloor ENDPOINT TABLE CALLS_IN_FLIGHT WARMUP_S SECONDS}. Closed loop: each of
 * CALLS_IN_FLIGHT chains sends its next call when the last one answers. Prints CPU ms per call for a
 * GetItem of one movie, for a Query of a cast's first 4 items (as the 12-call shape's level 2 sends), for a
 * BatchGetItem of ten movies and for one of their people (the later levels of a nested shape that reads
 * the movies' first-billed cast from the movie items), and the mean latency of a call (calls in flight over calls a second), the stand-in's own time in it.
 */
public class SdkFloor {
    public static void main(String[] a) throws Exception {
        DynamoDbAsyncClient client = DynamoClients.create(URI.create(a[0]), List.of());
        String table = a[1];
        int inFlight = Integer.parseInt(a[2]);
        int warmup = Integer.parseInt(a[3]);
        int seconds = Integer.parseInt(a[4]);
        GetItemRequest get = GetItemRequest.builder().tableName(table)
                .key(Map.of("pk", AttributeValue.fromS("mov#tt0111161"), "sk", AttributeValue.fromS("mov#tt0111161")))
                .build();
        QueryRequest query = QueryRequest.builder().tableName(table)
                .indexName("lsi1").keyConditionExpression("pk = :pk AND begins_with(lsi1sk, :cast)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("mov#tt0111161"), ":cast", AttributeValue.fromS("movie#cast#")))
                .limit(4).build();
        // The batches a nested shape's later levels send: the movies of a page of ten, and up to thirty of their people.
        // The twelve shape's: the first ten movies of its person's filmography, and their first three billed.
        List<String> movieIds = client.query(QueryRequest.builder().tableName(table).indexName("gsi3")
                        .keyConditionExpression("gsi3pk = :pk AND begins_with(gsi3sk, :acted)")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("per#nm5161932"),
                                ":acted", AttributeValue.fromS("act#"))).limit(10).build()).join()
                .items().stream().map(item -> item.get("movieId").s()).toList();
        BatchGetItemRequest movies = batch(table, "mov#", movieIds);
        java.util.LinkedHashSet<String> personIds = new java.util.LinkedHashSet<>();
        for (String movie : movieIds) {
            client.query(query.toBuilder().expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("mov#" + movie),
                    ":cast", AttributeValue.fromS("movie#cast#"))).limit(3).build()).join()
                    .items().forEach(item -> personIds.add(item.get("personId").s()));
        }
        BatchGetItemRequest people = batch(table, "per#", List.copyOf(personIds));
        Map<String, Object> requests = new java.util.LinkedHashMap<>();
        requests.put("GetItem", get);
        requests.put("Query", query);
        requests.put("BatchGetItem of " + movieIds.size() + " movies", movies);
        requests.put("BatchGetItem of " + personIds.size() + " people", people);
        // A first pass over every call, unmeasured: the client's common path (signing, the pipeline, Netty) is
        // compiled before the first call measured, as the later ones find it.
        for (Object request : requests.values()) {
            CompletableFuture<?>[] warming = new CompletableFuture<?>[inFlight];
            long until = System.nanoTime() + warmup * 1_000_000_000L / requests.size();
            for (int c = 0; c < inFlight; c++) {
                warming[c] = CompletableFuture.runAsync(() -> {
                    while (System.nanoTime() < until) {
                        (request instanceof GetItemRequest one ? client.getItem(one)
                                : request instanceof BatchGetItemRequest many ? client.batchGetItem(many)
                                : client.query((QueryRequest) request)).join();
                    }
                });
            }
            CompletableFuture.allOf(warming).join();
        }
        for (Map.Entry<String, Object> entry : requests.entrySet()) {
            String shape = entry.getKey();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong calls = new AtomicLong();
            AtomicLong items = new AtomicLong();
            Phaser running = new Phaser(inFlight);
            for (int c = 0; c < inFlight; c++) {
                send(client, entry.getValue(), stop, calls, items, running);
            }
            Thread.sleep(warmup * 1000L);
            long cpu0 = cpu(), n0 = calls.get(), t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long cpu1 = cpu(), n1 = calls.get(), t1 = System.nanoTime();
            stop.set(true);
            running.awaitAdvance(0);
            long n = n1 - n0;
            double perSecond = n / ((t1 - t0) / 1e9);
            System.out.printf("SDK alone, %s (%d in flight): %.0f calls/s, CPU %.3f ms/call, mean latency %.2f ms,"
                    + " %.1f items/call%n", shape, inFlight, perSecond, (cpu1 - cpu0) / 1e6 / n, 1000 * inFlight / perSecond,
                    items.get() / (double) calls.get());
        }
        client.close();
    }

    /** One call; when it answers, the next one, until stopped. */
    private static void send(DynamoDbAsyncClient client, Object request, AtomicBoolean stop, AtomicLong calls,
                             AtomicLong items, Phaser running) {
        if (stop.get()) {
            running.arriveAndDeregister();
            return;
        }
        CompletableFuture<Integer> call = request instanceof GetItemRequest get
                ? client.getItem(get).thenApply(r -> r.hasItem() ? 1 : 0)
                : request instanceof BatchGetItemRequest batch
                ? client.batchGetItem(batch).thenApply(r -> r.responses().values().stream().mapToInt(List::size).sum())
                : client.query((QueryRequest) request).thenApply(r -> r.items().size());
        call.whenComplete((found, failure) -> {
            if (failure != null) {
                failure.printStackTrace();
                System.exit(1);
            }
            calls.incrementAndGet();
            items.addAndGet(found);
            send(client, request, stop, calls, items, running);
        });
    }

    /** One BatchGetItem of these items (their pk and sk are {@code prefix + id}), as the gateway's loaders send it. */
    private static BatchGetItemRequest batch(String table, String prefix, List<String> ids) {
        return BatchGetItemRequest.builder().requestItems(Map.of(table, KeysAndAttributes.builder()
                .keys(ids.stream().map(id -> Map.of("pk", AttributeValue.fromS(prefix + id),
                        "sk", AttributeValue.fromS(prefix + id))).toList()).build())).build();
    }

    /** This process's CPU time (all threads, user and system), in nanoseconds. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
