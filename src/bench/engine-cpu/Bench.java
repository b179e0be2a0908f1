import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load side of the engine CPU benchmark: a DynamoDB endpoint's own CPU time per request, for four
 * operations, the load from this process over CONNECTIONS keep-alive HTTP/1.1 connections.
 *
 * <pre>Bench LABEL ENDPOINT SERVER_PID ITEMS CONNECTIONS WARM_S SECS MILLION OPS [MILLION_KEYS]</pre>
 *
 * It creates table {@code bench}, shaped like the gateway's (pk/sk strings, an LSI, three GSIs projecting
 * every attribute, a NEW_IMAGE stream), puts ITEMS items in partitions of 20 (every item in every index),
 * then for each operation of OPS (comma-separated: get, query, put, transact) runs all connections
 * closed-loop for WARM_S seconds, then SECS seconds timed, and prints one Markdown row: requests/s, the
 * server process's utime + stime from /proc over the timed seconds divided by the requests, latency
 * p50/p99, this process's own CPU per request and the errors; "of which GC" is the part of the server's
 * CPU spent by its garbage collector's threads (the VM thread, GC workers; from /proc/PID/task). Each
 * timed window's start and end (local time) go to stderr as {@code window OP FROM TO}, for Profile.java,
 * and each row ends with the machine's one-minute load average (/proc/loadavg) at the window's end.
 * With MILLION &gt; 0 it then makes MILLION PutItems and runs the operations again: fresh against after.
 * MILLION_KEYS says which keys those puts write: {@code new} (the default) puts the first half to
 * distinct new keys and the second half overwrites them, so the table grows by MILLION/2 items;
 * {@code loaded} overwrites the ITEMS loaded items round and round with a new {@code ver} each time,
 * so the table keeps its size and only the writes (and the stream's records of them) pile up.
 *
 * <p>The client is a socket per connection writing hand-built requests and reading the answer's bytes,
 * nothing parsed but the status line and the framing: the load costs as little CPU as it can. The
 * requests carry a fixed, unsigned Authorization header; neither server checks signatures.
 */
public class Bench {
    static final String TABLE = "bench";
    /** Where the million's versions start in MILLION_KEYS=loaded: above any the timed puts and transactions reach. */
    static final long OVERWRITE_VERSIONS = 1_000_000_000_000L;
    static final String AUTH = "Authorization: AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, "
        + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature="
        + "0".repeat(64) + "\r\nX-Amz-Date: 20260101T000000Z\r\n";
    static String host;
    static int port;
    static int partitions;

    public static void main(String[] a) throws Exception {
        String label = a[0];
        URI endpoint = URI.create(a[1]);
        host = endpoint.getHost();
        port = endpoint.getPort();
        long pid = Long.parseLong(a[2]);
        int items = Integer.parseInt(a[3]);
        int connections = Integer.parseInt(a[4]);
        int warm = Integer.parseInt(a[5]);
        int secs = Integer.parseInt(a[6]);
        long million = Long.parseLong(a[7]);
        List<String> ops = List.of(a[8].split(","));
        String millionKeys = a.length > 9 ? a[9] : "new";
        if (!millionKeys.equals("new") && !millionKeys.equals("loaded")) {
            throw new IllegalArgumentException("MILLION_KEYS is new or loaded, not " + millionKeys);
        }
        partitions = items / 20;
        if (partitions < connections) {
            throw new IllegalArgumentException("ITEMS must be at least 20 x CONNECTIONS: writes keep to partitions of their own");
        }
        Conn[] conns = new Conn[connections];
        for (int i = 0; i < connections; i++) {
            conns[i] = new Conn();
        }
        createTable(conns[0]);
        long t0 = System.nanoTime();
        long cpu0 = cpu(pid);
        long loaded = parallel(conns, (t, conn) -> {
            for (int n = t; n < items; n += connections) {
                check(conn, "PutItem", "{\"TableName\":\"bench\",\"Item\":" + item(mKey(n / 20), sk(n % 20), n, 0) + "}", null);
            }
            return (long) ((items - t + connections - 1) / connections);
        });
        System.out.printf(Locale.ROOT, "loaded %d items in %.1f s, server CPU %.3f ms/put%n", loaded,
            (System.nanoTime() - t0) / 1e9, (cpu(pid) - cpu0) * 10.0 / loaded);
        check(conns[0], "Query", query(0), "\"Count\":20");
        check(conns[0], "GetItem", get(0, 0), "\"Item\"");

        System.out.println(Result.HEADER);
        Map<String, Result> fresh = new LinkedHashMap<>();
        for (String op : ops) {
            Result r = measure(op, conns, warm, secs, pid);
            fresh.put(op, r);
            System.out.println(r.row(label, op));
        }
        if (million <= 0) {
            return;
        }
        boolean loadedKeys = millionKeys.equals("loaded");
        long half = Math.max(1, million / 2);
        t0 = System.nanoTime();
        cpu0 = cpu(pid);
        LongAdder errors = new LongAdder();
        LongAdder progress = new LongAdder();
        Thread monitor = new Thread(() -> {
            try {
                long before = 0;
                long cpuBefore = cpu(pid);
                long at = System.nanoTime();
                while (true) {
                    Thread.sleep(30_000);
                    long now = progress.sum();
                    long cpuNow = cpu(pid);
                    long then = System.nanoTime();
                    System.out.printf(Locale.ROOT, "  %d puts: the last 30 s %.0f puts/s, server CPU %.3f ms/put, server RSS %s, load %s%n",
                        now, (now - before) / ((then - at) / 1e9), (cpuNow - cpuBefore) * 10.0 / Math.max(1, now - before), rss(pid),
                        loadAverage());
                    before = now;
                    cpuBefore = cpuNow;
                    at = then;
                }
            } catch (InterruptedException | IOException e) {
                // the puts are done
            }
        });
        monitor.setDaemon(true);
        monitor.start();
        long gcBefore = gcCpu(pid);
        long puts = parallel(conns, (t, conn) -> {
            long done = 0;
            for (long i = t; i < million; i += connections) {
                String item;
                if (loadedKeys) {
                    // the loaded items round and round, each write a ver no earlier write used, so none is a no-op
                    int n = (int) (i % items);
                    item = item(mKey(n / 20), sk(n % 20), n, OVERWRITE_VERSIONS + i);
                } else {
                    long k = i % half;
                    item = item(xKey(k / 20), sk((int) (k % 20)), (int) k, i / half);
                }
                if (conn.call("PutItem", "{\"TableName\":\"bench\",\"Item\":" + item + "}") != 200) {
                    errors.increment();
                }
                done++;
                progress.increment();
            }
            return done;
        });
        monitor.interrupt();
        double took = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%d PutItems (%s) in %.1f s: %.0f puts/s, "
            + "server CPU %.3f ms/put (of which GC %.3f), %d errors, server RSS %s, load %s%n", puts,
            loadedKeys ? "overwriting the " + items + " loaded items, each about " + million / items + " times"
                : half + " distinct new keys, then each overwritten", took, puts / took,
            (cpu(pid) - cpu0) * 10.0 / puts, (gcCpu(pid) - gcBefore) * 10.0 / puts, errors.sum(), rss(pid), loadAverage());
        check(conns[0], "Query", "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\""
            + (loadedKeys ? mKey(0) : xKey(0)) + "\"}}}", "\"Count\":20");
        System.out.println(Result.HEADER);
        Map<String, Result> after = new LinkedHashMap<>();
        for (String op : ops) {
            Result r = measure(op, conns, warm, secs, pid);
            after.put(op, r);
            System.out.println(r.row(label + ", after " + puts + (loadedKeys ? " overwrites" : " puts"), op));
        }
        System.out.println("| Operation | fresh CPU ms/request (GC) | after CPU ms/request (GC) | after / fresh | within 20% "
            + "| without GC: after / fresh |");
        System.out.println("|---|---|---|---|---|---|");
        for (String op : ops) {
            Result f = fresh.get(op);
            Result g = after.get(op);
            double ratio = g.cpuMs() / f.cpuMs();
            System.out.printf(Locale.ROOT, "| %s | %.3f (%.3f) | %.3f (%.3f) | %.2f | %s | %.2f |%n", name(op), f.cpuMs(), f.gcMs(),
                g.cpuMs(), g.gcMs(), ratio, Math.abs(ratio - 1) <= 0.20 ? "yes" : "NO",
                (g.cpuMs() - g.gcMs()) / (f.cpuMs() - f.gcMs()));
        }
    }

    // ---- the operations

    interface Request {
        /** The target (without its prefix) and body of one request of thread t. */
        String[] next(int thread, int threads, SplittableRandom random, long sequence);
    }

    static Request request(String op) {
        return switch (op) {
            case "get" -> (t, n, r, s) -> new String[] {"GetItem", get(r.nextInt(partitions), r.nextInt(20))};
            case "query" -> (t, n, r, s) -> new String[] {"Query", query(r.nextInt(partitions))};
            case "put" -> (t, n, r, s) -> {
                int p = own(t, n, r);
                int j = r.nextInt(20);
                return new String[] {"PutItem", "{\"TableName\":\"bench\",\"Item\":" + item(mKey(p), sk(j), p * 20 + j, s) + "}"};
            };
            case "transact" -> (t, n, r, s) -> {
                int p = own(t, n, r);
                int j = r.nextInt(20);
                int other = (j + 1 + r.nextInt(19)) % 20;
                return new String[] {"TransactWriteItems", "{\"TransactItems\":[{\"Put\":{\"TableName\":\"bench\",\"Item\":"
                    + item(mKey(p), sk(j), p * 20 + j, s) + "}},{\"Update\":{\"TableName\":\"bench\",\"Key\":"
                    + key(mKey(p), sk(other)) + ",\"UpdateExpression\":\"SET #v = #v + :one\","
                    + "\"ConditionExpression\":\"attribute_exists(pk)\",\"ExpressionAttributeNames\":{\"#v\":\"ver\"},"
                    + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}}]}"};
            };
            default -> throw new IllegalArgumentException("no operation " + op + " (get, query, put, transact)");
        };
    }

    static String name(String op) {
        return switch (op) {
            case "get" -> "GetItem";
            case "query" -> "Query of 20";
            case "put" -> "PutItem";
            case "transact" -> "TransactWriteItems of 2";
            default -> op;
        };
    }

    /** A partition only thread t writes, so that no two transactions touch one item at once. */
    static int own(int thread, int threads, SplittableRandom random) {
        return thread + threads * random.nextInt((partitions - thread + threads - 1) / threads);
    }

    static String get(int p, int j) {
        return "{\"TableName\":\"bench\",\"Key\":" + key(mKey(p), sk(j)) + "}";
    }

    static String query(int p) {
        return "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\""
            + mKey(p) + "\"}}}";
    }

    static String key(String pk, String sk) {
        return "{\"pk\":{\"S\":\"" + pk + "\"},\"sk\":{\"S\":\"" + sk + "\"}}";
    }

    static String mKey(long p) {
        return "movie#" + pad(p, 7);
    }

    static String xKey(long p) {
        return "extra#" + pad(p, 7);
    }

    static String sk(int j) {
        return "credit#" + pad(j, 2);
    }

    static String pad(long n, int width) {
        String s = Long.toString(n);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }

    static final String[] GENRES = {"Drama", "Comedy", "Action", "Thriller", "Romance", "Horror", "Crime", "Documentary",
        "Adventure", "Family", "Fantasy", "Mystery", "Animation", "Biography", "History", "Music", "War", "Western",
        "Sport", "Sci-Fi", "Musical", "News", "Short", "Film-Noir"};

    /**
     * An item of about 450 bytes in the table, lsi1, gsi3 (a person's credits), gsi4 (a search word's
     * entries, 1,000 words) and gsi6 (a genre's list, 24 genres). Its index keys depend on n only, so an
     * overwrite changes attributes but moves no index entry.
     */
    static String item(String pk, String sk, int n, long version) {
        int year = 1930 + n % 95;
        return "{\"pk\":{\"S\":\"" + pk + "\"},\"sk\":{\"S\":\"" + sk + "\"},\"type\":{\"S\":\"credit\"},"
            + "\"lsi1sk\":{\"S\":\"3#" + sk + "\"},"
            + "\"gsi3pk\":{\"S\":\"person#nm" + pad(n * 7919L % 1_000_003, 7) + "\"},"
            + "\"gsi3sk\":{\"S\":\"actor#" + year + "#" + pk + "\"},"
            + "\"gsi4pk\":{\"S\":\"word#w" + (n % 1000) + "\"},\"srank\":{\"S\":\"" + pad(n * 31L % 10_000_000, 8) + "#" + pk + "\"},"
            + "\"gsi6pk\":{\"S\":\"genre#" + GENRES[n % GENRES.length] + "\"},\"lrank\":{\"S\":\"" + pad(n * 17L % 10_000_000, 8) + "\"},"
            + "\"name\":{\"S\":\"Person Number " + n + "\"},\"title\":{\"S\":\"The Movie Called " + (n / 20) + "\"},"
            + "\"characters\":{\"L\":[{\"S\":\"Character " + n + "\"},{\"S\":\"Self\"}]},"
            + "\"billing\":{\"N\":\"" + (n % 20) + "\"},\"year\":{\"N\":\"" + year + "\"},\"rating\":{\"N\":\"" + (n % 100) / 10.0 + "\"},"
            + "\"votes\":{\"N\":\"" + (n * 13L % 2_000_000) + "\"},\"ver\":{\"N\":\"" + version + "\"}}";
    }

    // ---- measuring

    record Result(double perSecond, double cpuMs, double gcMs, double p50, double p99, double loadCpuMs, long requests,
                  long errors, String firstError, String loadAverage) {
        static final String HEADER = "| Server | Operation | req/s | server CPU ms/request | of which GC | p50 ms | p99 ms "
            + "| load CPU ms/request | errors | load average |\n|---|---|---|---|---|---|---|---|---|---|";

        String row(String label, String op) {
            return String.format(Locale.ROOT, "| %s | %s | %.0f | %.3f | %.3f | %.2f | %.2f | %.3f | %d%s | %s |", label, name(op),
                perSecond, cpuMs, gcMs, p50, p99, loadCpuMs, errors, firstError == null ? "" : " (" + firstError + ")", loadAverage);
        }
    }

    static Result measure(String op, Conn[] conns, int warm, int secs, long pid) throws Exception {
        Request request = request(op);
        int threads = conns.length;
        AtomicInteger phase = new AtomicInteger();
        LongAdder done = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicReference<String> firstError = new AtomicReference<>();
        long[][] latencies = new long[threads][1 << 18];
        int[] counts = new int[threads];
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(thread * 7_919L + op.hashCode());
                long sequence = 1;
                long[] mine = latencies[thread];
                int count = 0;
                while (phase.get() < 2) {
                    String[] next = request.next(thread, threads, random, sequence++);
                    long start = System.nanoTime();
                    int status;
                    try {
                        status = conns[thread].call(next[0], next[1]);
                    } catch (IOException e) {
                        status = -1;
                        conns[thread].reconnect();
                    }
                    long took = System.nanoTime() - start;
                    if (status != 200) {
                        errors.increment();
                        firstError.compareAndSet(null, status + " " + shorter(conns[thread].body()));
                    }
                    done.increment();
                    if (phase.get() == 1 && count < mine.length) {
                        mine[count++] = took;
                    }
                }
                counts[thread] = count;
            });
            worker.start();
            running.add(worker);
        }
        Thread.sleep(warm * 1000L);
        long cpu0 = cpu(pid);
        long gc0 = gcCpu(pid);
        long self0 = cpu(ProcessHandle.current().pid());
        long n0 = done.sum();
        long e0 = errors.sum();
        long t0 = System.nanoTime();
        java.time.LocalTime start = java.time.LocalTime.now();
        phase.set(1);
        Thread.sleep(secs * 1000L);
        long cpu1 = cpu(pid);
        long gc1 = gcCpu(pid);
        long self1 = cpu(ProcessHandle.current().pid());
        long n1 = done.sum();
        long e1 = errors.sum();
        long t1 = System.nanoTime();
        phase.set(2);
        System.err.println("window " + op + " " + start + " " + java.time.LocalTime.now());
        for (Thread worker : running) {
            worker.join();
        }
        long n = n1 - n0;
        long[] all = new long[Arrays.stream(counts).sum()];
        int at = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(latencies[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        return new Result(n / ((t1 - t0) / 1e9), (cpu1 - cpu0) * 10.0 / n, (gc1 - gc0) * 10.0 / n, pct(all, 0.50), pct(all, 0.99),
            (self1 - self0) * 10.0 / n, n, e1 - e0, firstError.get(), loadAverage());
    }

    interface Work {
        long run(int thread, Conn conn) throws Exception;
    }

    /** Runs work on every connection at once, each on a thread of its own; the sum of what they return. */
    static long parallel(Conn[] conns, Work work) throws Exception {
        long[] results = new long[conns.length];
        AtomicReference<Exception> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < conns.length; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    results[thread] = work.run(thread, conns[thread]);
                } catch (Exception e) {
                    failed.compareAndSet(null, e);
                }
            });
            worker.start();
            threads.add(worker);
        }
        for (Thread worker : threads) {
            worker.join();
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        return Arrays.stream(results).sum();
    }

    static void createTable(Conn conn) throws Exception {
        StringBuilder attributes = new StringBuilder();
        for (String name : List.of("pk", "sk", "lsi1sk", "gsi3pk", "gsi3sk", "gsi4pk", "srank", "gsi6pk", "lrank")) {
            attributes.append(attributes.length() == 0 ? "" : ",")
                .append("{\"AttributeName\":\"").append(name).append("\",\"AttributeType\":\"S\"}");
        }
        String body = "{\"TableName\":\"bench\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[" + attributes + "],"
            + "\"KeySchema\":" + schema("pk", "sk") + ","
            + "\"LocalSecondaryIndexes\":[" + index("lsi1", "pk", "lsi1sk") + "],"
            + "\"GlobalSecondaryIndexes\":[" + index("gsi3", "gsi3pk", "gsi3sk") + "," + index("gsi4", "gsi4pk", "srank") + ","
            + index("gsi6", "gsi6pk", "lrank") + "],"
            + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"}}";
        check(conn, "CreateTable", body, null);
        for (int i = 0; i < 600; i++) {
            check(conn, "DescribeTable", "{\"TableName\":\"bench\"}", null);
            String described = conn.body();
            if (!described.contains("CREATING") && !described.contains("UPDATING")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("table bench not active after a minute");
    }

    static String schema(String hash, String range) {
        return "[{\"AttributeName\":\"" + hash + "\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"" + range + "\",\"KeyType\":\"RANGE\"}]";
    }

    static String index(String name, String hash, String range) {
        return "{\"IndexName\":\"" + name + "\",\"KeySchema\":" + schema(hash, range) + ",\"Projection\":{\"ProjectionType\":\"ALL\"}}";
    }

    static void check(Conn conn, String target, String body, String expected) throws IOException {
        int status = conn.call(target, body);
        if (status != 200 || (expected != null && !conn.body().contains(expected))) {
            throw new IllegalStateException(target + " answered " + status + ": " + shorter(conn.body()));
        }
    }

    static String shorter(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
    }

    /** utime + stime of a process, in clock ticks (10 ms). */
    static long cpu(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * utime + stime of a JVM's garbage collector threads, in clock ticks: the VM thread (where the serial
     * collector runs, and safepoint work) and any "GC Thread#n" / "G1 ..." worker.
     */
    static long gcCpu(long pid) throws IOException {
        long total = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (comm.equals("VM Thread") || comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
        }
        return total;
    }

    /** The machine's one-minute load average, from /proc/loadavg. */
    static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    static String rss(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
            .map(l -> l.substring(6).trim()).findFirst().orElse("?");
    }

    // ---- HTTP/1.1 over a socket

    static final class Conn {
        private Socket socket;
        private InputStream in;
        private OutputStream out;
        private byte[] body = new byte[1 << 16];
        private int length;
        private final StringBuilder line = new StringBuilder();

        Conn() throws IOException {
            open();
        }

        private void open() throws IOException {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        }

        void reconnect() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // opening a new one is what matters
            }
            try {
                open();
            } catch (IOException e) {
                throw new IllegalStateException("cannot reconnect to " + host + ":" + port, e);
            }
        }

        String body() {
            return new String(body, 0, length, StandardCharsets.UTF_8);
        }

        int call(String target, String json) throws IOException {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            String head = "POST / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + "X-Amz-Target: DynamoDB_20120810." + target + "\r\n" + AUTH + "Content-Length: " + bytes.length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            String status = line();
            int code = Integer.parseInt(status.substring(9, 12));
            long contentLength = -1;
            boolean chunked = false;
            boolean close = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    contentLength = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    close = value.equalsIgnoreCase("close");
                }
            }
            length = 0;
            if (chunked) {
                while (true) {
                    String size = line();
                    int semicolon = size.indexOf(';');
                    int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                    if (n == 0) {
                        while (!line().isEmpty()) {
                            // trailers
                        }
                        break;
                    }
                    read(n);
                    line();
                }
            } else if (contentLength >= 0) {
                read((int) contentLength);
            }
            if (close) {
                reconnect();
            }
            return code;
        }

        private void read(int n) throws IOException {
            if (length + n > body.length) {
                body = Arrays.copyOf(body, Math.max(body.length * 2, length + n));
            }
            int read = in.readNBytes(body, length, n);
            if (read < n) {
                throw new EOFException("the server closed the connection mid-answer");
            }
            length += n;
        }

        private String line() throws IOException {
            line.setLength(0);
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException("the server closed the connection");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }
}
