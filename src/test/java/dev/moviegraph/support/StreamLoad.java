package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Concurrent writers recording streams over HTTP: {@value #WRITERS} writers x {@value #STREAMS} streams,
 * every tenth one sent a second time (a client retry), spread over four movies with unequal shares
 * (40/30/20/10%) and two months. Knows how many distinct streams each movie and month got.
 */
public final class StreamLoad {
    public static final int WRITERS = 8;
    /** Per writer: 2,000 distinct streams in all, 40% of them on one movie, each tenth sent twice. */
    public static final int STREAMS = 250;
    private static final String RECORD = "mutation($m: ID!, $s: ID!, $at: DateTime!) { recordStream(input: "
            + "{movieId: $m, streamId: $s, at: $at}) { counted } }";

    private final List<String> movies;
    private final List<YearMonth> months;
    private final String runId;
    private final Map<List<Object>, Integer> expected = new HashMap<>();
    private final AtomicInteger counted = new AtomicInteger();
    private final AtomicInteger notCounted = new AtomicInteger();
    private final AtomicInteger sent = new AtomicInteger();

    public StreamLoad(String runId, List<String> movies, List<YearMonth> months) {
        this.runId = runId;
        this.movies = movies;
        this.months = months;
        for (int writer = 0; writer < WRITERS; writer++) {
            for (int i = 0; i < STREAMS; i++) {
                expected.merge(List.of(movieOf(i), monthOf(writer, i)), 1, Integer::sum);
            }
        }
    }

    private String movieOf(int i) {
        int share = i % 10;
        return movies.get(share < 4 ? 0 : share < 7 ? 1 : share < 9 ? 2 : 3);
    }

    private YearMonth monthOf(int writer, int i) {
        return months.get((writer + i) % months.size());
    }

    /** Runs every writer to the end; {@code client} is called with a header map (the bearer token, maybe). */
    public void run(GraphQLClient client, Map<String, String> headers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < STREAMS; i++) {
                        send(client, headers, writer, i);
                        if (i % 10 == 0) {
                            send(client, headers, writer, i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void send(GraphQLClient client, Map<String, String> headers, int writer, int i) {
        YearMonth month = monthOf(writer, i);
        String at = month.atDay(1 + i % 28) + "T12:00:00Z";
        Response response = client.post(GraphQLClient.body(RECORD, Map.of("m", movieOf(i),
                "s", runId + "-" + writer + "-" + i, "at", at)), "application/json", "application/json", headers);
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), response.raw().body());
        (response.data().path("recordStream").path("counted").asBoolean() ? counted : notCounted).incrementAndGet();
        sent.incrementAndGet();
    }

    /** How many distinct streams each movie got in this month. */
    public int expected(String movie, YearMonth month) {
        return expected.getOrDefault(List.of(movie, month), 0);
    }

    public int distinct() {
        return WRITERS * STREAMS;
    }

    public int counted() {
        return counted.get();
    }

    public int notCounted() {
        return notCounted.get();
    }

    public int sent() {
        return sent.get();
    }

    public List<String> movies() {
        return movies;
    }

    public List<YearMonth> months() {
        return months;
    }
}
