import java.net.http.*;
import java.util.Arrays;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load, {@link Load}'s mode with the environment variable RATE set: request i is due at i / RATE
 * seconds from the start, evenly spaced, whatever became of the ones before it. Each is sent with sendAsync, so
 * a slow answer holds no later one back: the client opens another keep-alive connection whenever all of its
 * open ones are busy. A request's latency runs from when it was due, not from when it left, so a queue anywhere
 * (the gateway's, or the load's own when it falls behind) shows as latency instead of lowering the rate unseen
 * (coordinated omission). At most {@link #MAX_IN_FLIGHT} requests are in flight; past that the load waits,
 * which the sent rate shows and the latency counts.
 * <p>
 * Requests due in the first WARMUP_S seconds warm up; those due in the SECONDS after are measured, each waited
 * for up to {@link #DRAIN_S} seconds after the last is due. Prints their latency p50, p90, p99 and max (one
 * still unanswered by then counts with its time so far: a lower bound), the gateway's CPU ms per answer over the
 * measured seconds (as the closed loop), the rates sent and answered in those seconds, and the number measured,
 * of errors among them (an exception, a status other than 200, or errors in the body) and of unanswered.
 */
final class OpenLoop {
    static final int MAX_IN_FLIGHT = 1000;
    static final int DRAIN_S = 30;

    static void run(HttpClient http, HttpRequest req, long pid, double rate, int warmup, int seconds) throws Exception {
        long first = (long) Math.ceil(warmup * rate), end = (long) Math.ceil((warmup + seconds) * rate);
        int count = (int) (end - first);
        AtomicLongArray latency = new AtomicLongArray(count); // ns; 0 unanswered, -1 an exception
        CountDownLatch measured = new CountDownLatch(count);
        AtomicLong sent = new AtomicLong(), answered = new AtomicLong(), errors = new AtomicLong();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        long start = System.nanoTime() + 100_000_000L;
        Thread sender = new Thread(() -> {
            for (long i = 0; i < end; i++) {
                long due = due(start, i, rate);
                for (long wait; (wait = due - System.nanoTime()) > 0; ) LockSupport.parkNanos(wait);
                inFlight.acquireUninterruptibly();
                sent.incrementAndGet();
                int slot = (int) (i - first);
                http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                    long took = System.nanoTime() - due;
                    inFlight.release();
                    if (r != null) answered.incrementAndGet();
                    if (slot < 0) return;
                    if (e != null || Load.failed(r)) errors.incrementAndGet();
                    latency.set(slot, e == null ? took : -1);
                    measured.countDown();
                });
            }
        }, "open-loop sender");
        sender.setDaemon(true);
        sender.start();
        long t0 = start + warmup * 1_000_000_000L, t1 = t0 + seconds * 1_000_000_000L;
        sleepUntil(t0);
        long cpu0 = Load.cpu(pid), a0 = answered.get(), s0 = sent.get();
        sleepUntil(t1);
        long cpu1 = Load.cpu(pid), a1 = answered.get(), s1 = sent.get();
        double secs = (System.nanoTime() - t0) / 1e9;
        sender.join();
        measured.await(DRAIN_S, TimeUnit.SECONDS);
        long now = System.nanoTime();
        long[] all = new long[count];
        int n = 0, unanswered = 0;
        for (int slot = 0; slot < count; slot++) {
            long took = latency.get(slot);
            if (took == 0) { unanswered++; took = now - due(start, first + slot, rate); }
            if (took > 0) all[n++] = took;
        }
        all = Arrays.copyOf(all, n);
        Arrays.sort(all);
        System.out.printf("p50 %.2f ms p90 %.2f ms p99 %.2f ms max %.2f ms  gateway CPU %.3f ms/request  "
                + "sent %.1f req/s answered %.1f req/s  (%d requests, %d errors, %d unanswered)%n",
            Load.pct(all, 0.50), Load.pct(all, 0.90), Load.pct(all, 0.99), n == 0 ? Double.NaN : all[n - 1] / 1e6,
            (cpu1 - cpu0) * 10.0 / (a1 - a0), (s1 - s0) / secs, (a1 - a0) / secs, count, errors.get(), unanswered);
        System.exit(0); // the unanswered are not waited for
    }

    static long due(long start, long i, double rate) { return start + (long) (i * 1e9 / rate); }

    static void sleepUntil(long nanoTime) throws InterruptedException {
        for (long wait; (wait = nanoTime - System.nanoTime()) > 0; ) TimeUnit.NANOSECONDS.sleep(wait);
    }
}
