import java.net.URI;
import java.net.http.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * Closed-loop load on one query shape: {@code Load URL GATEWAY_PID QUERY CLIENTS WARMUP_S SECONDS [WINDOWS]}.
 * Prints req/s, the gateway process's CPU ms per request (utime + stime from /proc, 100 ticks a second)
 * and client latency p50/p99 over the measured seconds. With WINDOWS > 0 it first prints the req/s of
 * each of the first WINDOWS 10-second windows from the first request (a cold start), then measures.
 * With the environment variable BEARER set, every request carries {@code Authorization: Bearer BEARER};
 * with ACCEPT set, {@code Accept: ACCEPT}; with PERSISTED=1 each client registers the query as an automatic
 * persisted query once and then sends its hash alone. With RATE set (requests a second) the load is an open loop
 * instead, CLIENTS and WINDOWS unused: see {@link OpenLoop}.
 */
public class Load {
    public static void main(String[] a) throws Exception {
        String url = a[0]; long pid = Long.parseLong(a[1]); String query = a[2];
        int clients = Integer.parseInt(a[3]); int warmup = Integer.parseInt(a[4]); int seconds = Integer.parseInt(a[5]);
        int windows = a.length > 6 ? Integer.parseInt(a[6]) : 0;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest req = request(url, query);
        if (System.getenv("RATE") != null) {
            OpenLoop.run(http, req, pid, Double.parseDouble(System.getenv("RATE")), warmup, seconds);
            return;
        }
        AtomicLong done = new AtomicLong(); AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean(); AtomicBoolean recording = new AtomicBoolean();
        ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) pool.submit(() -> {
            long[] mine = new long[1 << 20]; int count = 0;
            latencies.add(mine);
            while (!stop.get()) {
                try {
                    long start = System.nanoTime();
                    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                    long took = System.nanoTime() - start;
                    if (failed(r)) errors.incrementAndGet();
                    done.incrementAndGet();
                    if (recording.get() && count < mine.length - 1) mine[++count] = took;
                    mine[0] = count;
                } catch (Exception e) { errors.incrementAndGet(); }
            }
            return null;
        });
        if (windows > 0) {
            // WINDOW_SECONDS: the windows' length (default 10), shorter to see a start that warms in seconds.
            int length = Integer.parseInt(System.getenv().getOrDefault("WINDOW_SECONDS", "10"));
            StringBuilder line = new StringBuilder("first " + length + " s windows, req/s:");
            for (int w = 0; w < windows; w++) {
                long n0 = done.get();
                Thread.sleep(length * 1000L);
                line.append(String.format(" %.0f", (done.get() - n0) / (double) length));
            }
            System.out.println(line);
        }
        Thread.sleep(warmup * 1000L);
        long cpu0 = cpu(pid), n0 = done.get(), t0 = System.nanoTime();
        recording.set(true);
        Thread.sleep(seconds * 1000L);
        recording.set(false);
        long cpu1 = cpu(pid), n1 = done.get(), t1 = System.nanoTime();
        stop.set(true); pool.shutdown(); pool.awaitTermination(10, TimeUnit.SECONDS);
        double secs = (t1 - t0) / 1e9; long n = n1 - n0;
        long[] all = latencies.stream().flatMapToLong(l -> Arrays.stream(l, 1, (int) l[0] + 1)).sorted().toArray();
        System.out.printf("req/s %.0f  gateway CPU %.3f ms/request  latency p50 %.2f ms p99 %.2f ms  (%d requests, %d errors)%n",
            n / secs, (cpu1 - cpu0) * 10.0 / n, pct(all, 0.50), pct(all, 0.99), n, errors.get());
    }
    /** The POST of one query, with the headers BEARER and ACCEPT ask for. */
    static HttpRequest request(String url, String query) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json");
        // BEARER: a signed-in viewer's token, sent with every request (SIGNED_IN=1 in run.sh).
        if (System.getenv("BEARER") != null) builder.header("Authorization", "Bearer " + System.getenv("BEARER"));
        // ACCEPT: e.g. multipart/mixed for @defer's parts (the whole multipart body is read, as a client does).
        if (System.getenv("ACCEPT") != null) builder.header("Accept", System.getenv("ACCEPT"));
        if (!"1".equals(System.getenv("PERSISTED"))) {
            return builder.POST(HttpRequest.BodyPublishers.ofString("{\"query\":" + quote(query) + "}")).build();
        }
        // PERSISTED=1: an automatic persisted query, as Apollo Client's link sends it: registered once with its
        // text, then the hash alone in every measured request.
        String extensions = "\"extensions\":{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"" + sha256(query) + "\"}}";
        try {
            HttpResponse<String> registered = HttpClient.newHttpClient().send(builder.copy().POST(HttpRequest.BodyPublishers.ofString(
                    "{\"query\":" + quote(query) + "," + extensions + "}")).build(), HttpResponse.BodyHandlers.ofString());
            if (failed(registered)) throw new IllegalStateException("the persisted query was not registered: " + registered.body());
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return builder.POST(HttpRequest.BodyPublishers.ofString("{" + extensions + "}")).build();
    }
    static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
    static boolean failed(HttpResponse<String> r) { return r.statusCode() != 200 || r.body().contains("\"errors\""); }
    static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
    }
    /** utime + stime in clock ticks (10 ms). */
    static long cpu(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
    static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }
}
