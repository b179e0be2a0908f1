import java.net.URI;
import java.net.http.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Closed-loop load on one query shape: {@code Load URL GATEWAY_PID QUERY CLIENTS WARMUP_S SECONDS}; prints req/s and the gateway process's CPU ms per request (utime + stime from /proc, 100 ticks a second). */
public class Load {
    public static void main(String[] a) throws Exception {
        String url = a[0]; long pid = Long.parseLong(a[1]); String query = a[2];
        int clients = Integer.parseInt(a[3]); int warmup = Integer.parseInt(a[4]); int seconds = Integer.parseInt(a[5]);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String body = "{\"query\":" + quote(query) + "}";
        AtomicLong done = new AtomicLong(); AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) pool.submit(() -> {
            HttpRequest req = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            while (!stop.get()) {
                try {
                    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200 || r.body().contains("\"errors\"")) errors.incrementAndGet();
                    done.incrementAndGet();
                } catch (Exception e) { errors.incrementAndGet(); }
            }
            return null;
        });
        Thread.sleep(warmup * 1000L);
        long cpu0 = cpu(pid), n0 = done.get(), t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long cpu1 = cpu(pid), n1 = done.get(), t1 = System.nanoTime();
        stop.set(true); pool.shutdown(); pool.awaitTermination(10, TimeUnit.SECONDS);
        double secs = (t1 - t0) / 1e9; long n = n1 - n0;
        System.out.printf("req/s %.0f  gateway CPU %.3f ms/request  (%d requests, %d errors)%n", n / secs,
            (cpu1 - cpu0) * 10.0 / n, n, errors.get());
    }
    /** utime + stime in clock ticks (10 ms). */
    static long cpu(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
    static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }
}
