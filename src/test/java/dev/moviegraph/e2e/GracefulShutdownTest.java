package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GatewayProcess;
import dev.moviegraph.support.GraphQLClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * SIGTERM to a real server process (a JVM of its own running dev.moviegraph.Main, DYNAMODB_DATA_DIR on a
 * temporary folder) while writes and reads are in flight: every request the server had accepted gets
 * its whole answer, requests after the signal are refused (503 on a connection already open, no new
 * connection), the process exits 0 within the grace, and a second process on the same folder finds
 * every acknowledged write and none of the refused ones.
 */
class GracefulShutdownTest {
    private static final int GRACE_SECONDS = 20;
    /** The grace, plus what closing the DynamoDB client and the engine takes. */
    private static final long EXIT_BOUND_SECONDS = GRACE_SECONDS + 10;
    /**
     * Writers, each with one write in flight at any time, on a movie of its own (tt96100NN, only this
     * test's): writes to one movie's monthly total would conflict and be retried, which is another test's.
     */
    private static final int WRITERS = 8;
    /** Writes acknowledged before the last phase, {@value #WRITES_BEFORE} / {@value #WRITERS} per writer. */
    private static final int WRITES_BEFORE = 48;
    /** Writes acknowledged in the last phase before the signal: the signal comes in full flow. */
    private static final int ACKNOWLEDGED_BEFORE_SIGNAL = 16;
    /** Slower reads (dozens of DynamoDB calls each) started with the last phase. */
    private static final int READERS = 3;
    private static final int READ_MOVIES = 3;
    private static final String MONTH = "2026-08";
    private static final String RECORD = "mutation($m: ID!, $s: ID!, $at: DateTime!) { recordStream(input: "
            + "{movieId: $m, streamId: $s, at: $at}) { counted } }";

    /** What became of a request: a whole answer, a refusal (it was never run), or anything else. */
    private enum Outcome { COMPLETED, REFUSED, LOST }

    /** One request's fate; {@code detail} is what came back (status and body, or exception), for the messages. */
    private record Sent(Write write, Outcome outcome, long answeredAt, String detail) {
        boolean counted() {
            return detail.contains("\"counted\":true");
        }
    }

    /** A stream of a writer's movie. */
    private record Write(int writer, String streamId) {
        String movie() {
            return movie(writer);
        }

        static String movie(int writer) {
            return "tt96100" + String.format("%02d", writer);
        }
    }

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void sigtermFinishesAcceptedRequestsRefusesNewOnesExitsZeroAndKeepsEveryAcknowledgedWrite(
            @TempDir(factory = Scratch.class) Path dir) throws Exception {
        GatewayProcess first = start(dir, "first", Map.of());
        GraphQLClient client = new GraphQLClient(first.port());
        for (int w = 0; w < WRITERS; w++) {
            JsonNode put = client.query("mutation($id: ID!) { putMovie(input: {id: $id, title: \"Drained\"}) { id } }",
                    Map.of("id", Write.movie(w))).data();
            assertEquals(Write.movie(w), put.path("putMovie").path("id").asText(), put.toString());
        }
        String reads = readQuery(client);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        try {
            List<Sent> before = perWriter(pool, writer -> IntStream.range(0, WRITES_BEFORE / WRITERS)
                    .mapToObj(i -> new Write(writer, "before-" + writer + "-" + i)).toList(), client);
            assertEquals(List.of(), before.stream().filter(one -> !one.counted()).toList());

            ConcurrentLinkedQueue<Sent> writes = new ConcurrentLinkedQueue<>();
            AtomicInteger acknowledged = new AtomicInteger();
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 1_000; i++) {
                        Sent one = record(client, new Write(writer, "during-" + writer + "-" + i));
                        writes.add(one);
                        if (one.outcome() != Outcome.COMPLETED) {
                            return;
                        }
                        acknowledged.incrementAndGet();
                    }
                }));
            }
            List<Future<Sent>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                readers.add(pool.submit(() -> read(client, reads)));
            }
            long flowing = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (acknowledged.get() < ACKNOWLEDGED_BEFORE_SIGNAL && System.nanoTime() < flowing) {
                Thread.sleep(5);
            }
            assertTrue(acknowledged.get() >= ACKNOWLEDGED_BEFORE_SIGNAL, "the writers got going: " + acknowledged);

            int probeStatus;
            long signalled;
            try (Socket probe = openProbe(first.port())) {
                signalled = System.nanoTime();
                first.process().destroy(); // SIGTERM on Linux
                awaitListenerClosed(first);
                first.process().destroy(); // and again while it stops
                probeStatus = probeStatusOrClosed(probe);
            }
            boolean exited = first.process().waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
            long exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
            assertTrue(exited, "exit within " + EXIT_BOUND_SECONDS + " s of SIGTERM\n" + first.log());
            assertEquals(0, first.process().exitValue(), "exit status after SIGTERM\n" + first.log());

            for (Future<?> writer : writers) {
                writer.get(10, TimeUnit.SECONDS);
            }
            List<Sent> lastPhase = new ArrayList<>(writes);
            for (Future<Sent> reader : readers) {
                lastPhase.add(reader.get(10, TimeUnit.SECONDS));
            }
            long finishedAfterSignal = lastPhase.stream()
                    .filter(one -> one.outcome() == Outcome.COMPLETED && one.answeredAt() > signalled).count();
            List<Write> stored = new ArrayList<>(writes(before, Outcome.COMPLETED));
            stored.addAll(writes(lastPhase, Outcome.COMPLETED));
            List<Write> refused = writes(lastPhase, Outcome.REFUSED);
            System.out.printf("GracefulShutdownTest: exit %d ms after SIGTERM; %d writes acknowledged (%d in the "
                            + "last phase), %d refused; %d requests in flight at SIGTERM finished after it%n%s%n",
                    exitMillis, stored.size(), stored.size() - WRITES_BEFORE, refused.size(), finishedAfterSignal,
                    first.shutdownLog());

            assertEquals(List.of(), lastPhase.stream().filter(one -> one.outcome() == Outcome.LOST).toList(),
                    "every request the server accepted got its whole answer\n" + first.log());
            assertTrue(finishedAfterSignal > 0, "requests in flight at the signal finished after it");
            assertEquals(WRITERS, refused.size(), "each writer's first write after the signal is refused: " + refused);
            // Refused while Jetty still holds its idle connections; once it closes them (within a second or
            // two of the signal, requests in flight or not) the connection ends unanswered and the client's
            // next connection is refused. Never served: a stopping server takes no new request.
            assertTrue(probeStatus == 503 || probeStatus == CLOSED_UNANSWERED,
                    "a request on a connection opened before the signal is refused or its connection closed: " + probeStatus);
            assertTrue(first.log().contains("SIGTERM again: already shutting down"), first.shutdownLog());

            // The same folder, without the sample: what answers now was kept on disk by the first process.
            GatewayProcess second = start(dir, "second", Map.of("LOAD_SAMPLE", "false"));
            assertStoredExactly(new GraphQLClient(second.port()), pool, stored, refused);
            second.process().destroy();
            assertTrue(second.process().waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS), second.log());
            assertEquals(0, second.process().exitValue(), second.log());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every acknowledged write is stored, no refused one is: per movie total, then stream by stream. */
    private static void assertStoredExactly(GraphQLClient client, ExecutorService pool, List<Write> stored,
                                            List<Write> refused) throws Exception {
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            JsonNode total = client.query("query($m: ID!, $month: YearMonth!) { streamTotal(movieId: $m, month: "
                    + "$month) { streams } }", Map.of("m", Write.movie(w), "month", MONTH)).data();
            assertEquals(stored.stream().filter(write -> write.writer() == writer).count(),
                    total.path("streamTotal").path("streams").asLong(), Write.movie(w) + ": " + total);
        }
        // Recording a stream again finds it (counted: false) when it was stored, and stores it otherwise.
        List<Sent> storedAgain = perWriter(pool, writer -> ofWriter(stored, writer), client);
        assertEquals(List.of(), storedAgain.stream().filter(one -> one.outcome() != Outcome.COMPLETED || one.counted())
                .toList(), "every acknowledged write is stored");
        List<Sent> refusedAgain = perWriter(pool, writer -> ofWriter(refused, writer), client);
        assertEquals(List.of(), refusedAgain.stream().filter(one -> !one.counted()).toList(),
                "no refused write is stored");
    }

    private static List<Write> ofWriter(List<Write> writes, int writer) {
        return writes.stream().filter(write -> write.writer() == writer).toList();
    }

    private static Map<String, String> withData(Path dataDir, Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("DYNAMODB_DATA_DIR", dataDir.toString());
        all.put("SHUTDOWN_GRACE_SECONDS", Integer.toString(GRACE_SECONDS));
        return all;
    }

    private GatewayProcess start(Path dir, String name, Map<String, String> env) throws Exception {
        GatewayProcess server = GatewayProcess.launch(dir.resolve(name + ".log"), withData(dir.resolve("data"), env));
        started.add(server.process());
        server.awaitReady();
        return server;
    }

    /** Each writer's writes in turn (its movie's total is never written twice at once), the writers together. */
    private static List<Sent> perWriter(ExecutorService pool, IntFunction<List<Write>> writesOf, GraphQLClient client)
            throws Exception {
        List<Callable<List<Sent>>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            List<Write> writes = writesOf.apply(w);
            writers.add(() -> writes.stream().map(write -> record(client, write)).toList());
        }
        List<Sent> sent = new ArrayList<>();
        for (Future<List<Sent>> writer : pool.invokeAll(writers)) {
            sent.addAll(writer.get());
        }
        return sent;
    }

    private static List<Write> writes(List<Sent> sent, Outcome outcome) {
        return sent.stream().filter(one -> one.write() != null && one.outcome() == outcome).map(Sent::write).toList();
    }

    /** A recordStream: COMPLETED when it answered 200 with a receipt, REFUSED on 503 or a refused connection. */
    private static Sent record(GraphQLClient client, Write write) {
        try {
            GraphQLClient.Response response = client.query(RECORD, Map.of("m", write.movie(), "s", write.streamId(),
                    "at", MONTH + "-20T10:00:00Z"));
            long at = System.nanoTime();
            String detail = response.status() + " " + response.raw().body();
            if (response.status() == 503) {
                return new Sent(write, Outcome.REFUSED, at, detail);
            }
            boolean receipt = response.status() == 200 && response.errors().isMissingNode()
                    && response.data().path("recordStream").path("counted").isBoolean();
            return new Sent(write, receipt ? Outcome.COMPLETED : Outcome.LOST, at, detail);
        } catch (IllegalStateException e) {
            return new Sent(write, e.getCause() instanceof ConnectException ? Outcome.REFUSED : Outcome.LOST,
                    System.nanoTime(), String.valueOf(e.getCause()));
        }
    }

    private static Sent read(GraphQLClient client, String query) {
        try {
            GraphQLClient.Response response = client.query(query);
            boolean whole = response.status() == 200 && response.errors().isMissingNode()
                    && response.data().path("movies").size() == READ_MOVIES;
            return new Sent(null, whole ? Outcome.COMPLETED : Outcome.LOST, System.nanoTime(),
                    response.status() + " " + response.errors());
        } catch (IllegalStateException e) {
            return new Sent(null, Outcome.LOST, System.nanoTime(), String.valueOf(e.getCause()));
        }
    }

    /** A few movies with their casts and each actor's filmography: about 20 DynamoDB calls, within MAX_READ_UNITS. */
    private static String readQuery(GraphQLClient client) {
        JsonNode top = client.query("{ topMovies(month: \"2024-05\", limit: " + READ_MOVIES + ") { movie { id } } }")
                .data().path("topMovies");
        List<String> ids = new ArrayList<>();
        top.forEach(entry -> ids.add('"' + entry.path("movie").path("id").asText() + '"'));
        return "{ movies(ids: " + ids + ") { title cast(first: 6) { edges { node { person { name "
                + "movies(first: 6) { edges { node { movie { title genres } } } } } } } } } }";
    }

    /**
     * A keep-alive connection, used once so that the server has surely accepted it. It asks for the icon, which
     * needs no DynamoDB call: /health would answer 503 when the engine is slow on a busy machine, and after
     * the signal any path gets the stopping server's 503.
     */
    private static Socket openProbe(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        assertEquals(200, probeStatus(socket));
        return socket;
    }

    /** The probe's connection was closed before any byte of an answer. */
    private static final int CLOSED_UNANSWERED = -1;

    /** {@link #probeStatus}, or {@link #CLOSED_UNANSWERED} when the server closed the idle connection instead. */
    private static int probeStatusOrClosed(Socket socket) throws IOException {
        try {
            return probeStatus(socket);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().endsWith("after ''")) {
                return CLOSED_UNANSWERED;
            }
            throw e;
        }
    }

    /** GET /favicon.ico on the probe connection: the status, once the whole response is read. */
    private static int probeStatus(Socket socket) throws IOException {
        byte[] request = "GET /favicon.ico HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        socket.getOutputStream().write(request);
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the probe connection after '" + head + "'");
            }
            head.append((char) b);
        }
        Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (length.find()) {
            in.readNBytes(Integer.parseInt(length.group(1)));
        }
        return Integer.parseInt(head.substring(9, 12));
    }

    /** Waits until a new connection is refused: the server has begun to stop. */
    private static void awaitListenerClosed(GatewayProcess server) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                Thread.sleep(2);
            } catch (IOException refused) {
                return;
            }
        }
        fail("the listener was still open 10 s after SIGTERM\n" + server.log());
    }

    /** On tmpfs when there is one, like the embedded default's own data: on a disk each write waits for a sync. */
    static final class Scratch implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext extension)
                throws IOException {
            return EmbeddedDynamo.scratchDirectory("moviegraph-shutdown");
        }
    }
}
