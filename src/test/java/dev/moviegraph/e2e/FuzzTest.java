package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * Hostile requests over real HTTP against the shared server: every category of abuse the gateway must
 * survive, each from its own small generator, all from one seed. None may get a 5xx, hang, leak an
 * exception or stack trace, or hit an internal error, and the server answers normally afterwards.
 * Replay with {@code -Dfuzz.seed=N}; {@code -Dfuzz.case=I} sends only case I of that seed.
 */
class FuzzTest {
    private static final long DEFAULT_SEED = 20_240_517L;
    private static final int REQUESTS = 1_300;
    private static final int THREADS = 4;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_BODY_BYTES = AppConfig.defaults().limits().maxBodyBytes();
    /** The status counted for a connection closed without an answer (allowed only past MAX_BODY_BYTES). */
    private static final int CLOSED = 0;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GRAPHQL_RESPONSE = "application/graphql-response+json";
    /** Fuzzed mutations use only these ids (tt9690000..tt9690099, nm9690000..nm9690099); none may exist afterwards. */
    private static final String FUZZ_MOVIE = "tt96900";
    private static final String FUZZ_ACTOR = "nm96900";
    private static final Pattern ERROR_CODE = Pattern.compile("\"code\":\"([A-Z_]+)\"");
    private static final Pattern STACK_FRAME = Pattern.compile("\\bat [\\w$.]+\\([\\w$]+\\.java:\\d+\\)");
    private static final List<String> LEAKS = List.of("Exception", "software.amazon", "at dev.moviegraph",
            "at java.", "at io.javalin", "at org.eclipse", "at graphql.", "Caused by:");

    private final TestServer server = TestServer.get();

    /** What is sent, before the driver adds its index and category. */
    private record Sent(String method, String target, String contentType, String accept, Map<String, String> headers,
                byte[] body, boolean chunked) {
    }

    private record Case(int index, Category category, Sent sent) {
    }

    enum Category {
        RANDOM_BYTES(FuzzTest::randomBytes),
        TRUNCATED_JSON(FuzzTest::truncatedJson),
        NESTED_JSON(FuzzTest::nestedJson),
        WRONG_VARIABLE_TYPES(FuzzTest::wrongVariableTypes),
        HUGE_STRINGS(FuzzTest::hugeStrings),
        INVALID_UTF8(FuzzTest::invalidUtf8),
        DEEP_QUERY(FuzzTest::deepQuery),
        ALIAS_BOMB(FuzzTest::aliasBomb),
        DIRECTIVE_BOMB(FuzzTest::directiveBomb),
        FRAGMENT_CYCLE(FuzzTest::fragmentCycle),
        BATCHED_ARRAY(FuzzTest::batchedArray),
        UNKNOWN_OPERATION(FuzzTest::unknownOperation),
        MUTATION(FuzzTest::mutation);

        final Function<SplittableRandom, Sent> generator;

        Category(Function<SplittableRandom, Sent> generator) {
            this.generator = generator;
        }
    }

    /** Case {@code index} of {@code seed}: the categories take turns, each case has its own random stream. */
    private static Case generate(long seed, int index) {
        Category category = Category.values()[index % Category.values().length];
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + index);
        return new Case(index, category, category.generator.apply(random));
    }

    @Test
    void hostileRequestsNeverBreakTheServer() throws Exception {
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        Integer only = Integer.getInteger("fuzz.case");
        List<Case> cases = (only != null ? IntStream.of(only) : IntStream.range(0, REQUESTS))
                .mapToObj(index -> generate(seed, index)).toList();
        Run run = new Run(URI.create("http://127.0.0.1:" + server.port()));

        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<CompletableFuture<Void>> sends = cases.stream()
                    .map(c -> CompletableFuture.runAsync(() -> run.send(seed, c), pool)).toList();
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("FuzzTest: seed %d, %d requests in %d ms (slowest %d ms: %s), %d sent again on a fresh"
                        + " connection%nstatuses by category (0: closed without an answer): %s%n"
                        + "first error code by category: %s%n", seed, cases.size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), run.slowestMillis, run.slowest,
                run.reconnects.get(), run.statuses, run.codes);

        if (!run.failures.isEmpty()) {
            fail(run.failures.size() + " of " + cases.size() + " hostile requests failed (seed " + seed + "):\n"
                    + String.join("\n", run.failures.subList(0, Math.min(15, run.failures.size()))));
        }
        if (only == null) {
            assertTrue(cases.size() >= 1_000);
            assertEquals(Category.values().length, run.statuses.size(),
                    "every category was answered: " + run.statuses.keySet());
        }
        assertHealthyAfterwards();
    }

    /** The cases' answers as they come in from the sending threads. */
    private static final class Run {
        final URI base;
        final HttpClient http = newClient();
        final Map<Category, Map<Integer, Integer>> statuses = new EnumMap<>(Category.class);
        final Map<Category, Map<String, Integer>> codes = new EnumMap<>(Category.class);
        final List<String> failures = new ArrayList<>();
        final AtomicInteger reconnects = new AtomicInteger();
        long slowestMillis;
        String slowest;

        Run(URI base) {
            this.base = base;
        }

        static HttpClient newClient() {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        }

        void send(long seed, Case c) {
            long start = System.nanoTime();
            String problem;
            try {
                problem = check(c);
            } catch (RuntimeException e) {
                problem = "could not be sent: " + e;
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            synchronized (this) {
                if (problem != null) {
                    failures.add(describe(seed, c, problem));
                }
                if (millis > slowestMillis) {
                    slowestMillis = millis;
                    slowest = "case " + c.index() + " " + c.category();
                }
            }
        }

        /** The problem with one case's answer, or null when it was a clean non-5xx answer in time. */
        private String check(Case c) {
            HttpResponse<byte[]> response;
            try {
                try {
                    response = exchange(http, c);
                } catch (IOException stale) {
                    // Jetty closes the connection after a 414 without saying "Connection: close", so the pooled
                    // connection a request takes may be dead already. Once more on a fresh connection tells that
                    // apart from a request the server never answers.
                    reconnects.incrementAndGet();
                    response = exchange(newClient(), c);
                }
            } catch (TimeoutException e) {
                return "no answer within " + TIMEOUT.toSeconds() + " s (hang)";
            } catch (IOException e) {
                if (c.sent().body() != null && c.sent().body().length > MAX_BODY_BYTES) {
                    // RFC 9110, 413: the server may close the connection, and the client, still sending, can
                    // lose the answer to the reset. Only for a body past the limit.
                    synchronized (this) {
                        statuses.computeIfAbsent(c.category(), k -> new TreeMap<>()).merge(CLOSED, 1, Integer::sum);
                    }
                    return null;
                }
                return "no HTTP answer, also on a fresh connection: " + e;
            }
            String body = new String(response.body(), StandardCharsets.UTF_8);
            Matcher code = ERROR_CODE.matcher(body);
            String firstCode = code.find() ? code.group(1) : "-";
            synchronized (this) {
                statuses.computeIfAbsent(c.category(), k -> new TreeMap<>())
                        .merge(response.statusCode(), 1, Integer::sum);
                codes.computeIfAbsent(c.category(), k -> new TreeMap<>()).merge(firstCode, 1, Integer::sum);
            }
            if (response.statusCode() >= 500) {
                return "status " + response.statusCode() + ": " + printable(response.body(), 300);
            }
            for (String leak : LEAKS) {
                if (body.contains(leak)) {
                    return "the body leaks '" + leak + "': " + printable(response.body(), 300);
                }
            }
            if (STACK_FRAME.matcher(body).find()) {
                return "the body has a stack frame: " + printable(response.body(), 300);
            }
            if (body.contains("\"INTERNAL\"")) {
                return "an internal error: " + printable(response.body(), 300);
            }
            return null;
        }

        private HttpResponse<byte[]> exchange(HttpClient client, Case c) throws IOException, TimeoutException {
            CompletableFuture<HttpResponse<byte[]>> future = client.sendAsync(request(base, c.sent()),
                    HttpResponse.BodyHandlers.ofByteArray());
            try {
                return future.get(TIMEOUT.toSeconds() + 2, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof HttpTimeoutException) {
                    throw new TimeoutException();
                }
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            } finally {
                future.cancel(true);
            }
        }
    }

    private static HttpRequest request(URI base, Sent sent) {
        HttpRequest.BodyPublisher publisher = sent.body() == null ? HttpRequest.BodyPublishers.noBody()
                : sent.chunked() ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(sent.body()))
                : HttpRequest.BodyPublishers.ofByteArray(sent.body());
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(sent.target()))
                .timeout(TIMEOUT)
                .method(sent.method(), publisher);
        if (sent.contentType() != null) {
            builder.header("Content-Type", sent.contentType());
        }
        if (sent.accept() != null) {
            builder.header("Accept", sent.accept());
        }
        sent.headers().forEach(builder::header);
        return builder.build();
    }

    private static String describe(long seed, Case c, String problem) {
        Sent sent = c.sent();
        Map<String, String> headers = new LinkedHashMap<>();
        sent.headers().forEach((name, value) -> headers.put(name, printable(utf8(value), 60)));
        String body = sent.body() == null ? ""
                : " body (" + sent.body().length + " bytes" + (sent.chunked() ? ", chunked" : "") + "): "
                + printable(sent.body(), 200);
        return "case " + c.index() + " " + c.category() + " (replay: -Dfuzz.seed=" + seed + " -Dfuzz.case=" + c.index()
                + "): " + sent.method() + " " + printable(utf8(sent.target()), 160)
                + " Content-Type: " + sent.contentType()
                + " Accept: " + (sent.accept() == null ? null : printable(utf8(sent.accept()), 60)) + " " + headers
                + body + "\n    -> " + problem;
    }

    /** The first bytes as printable ASCII, anything else as \xNN. */
    private static String printable(byte[] bytes, int max) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(max, bytes.length); i++) {
            int b = bytes[i] & 0xFF;
            out.append(b >= 0x20 && b < 0x7F && b != '\\' ? String.valueOf((char) b) : String.format("\\x%02X", b));
        }
        return bytes.length > max ? out + "...(" + bytes.length + " bytes)" : out.toString();
    }

    private void assertHealthyAfterwards() {
        Response health = server.client().get("/health", Map.of(), "application/json");
        assertEquals(200, health.status(), health.raw().body());
        Response matrix = server.client().query("{ movie(id: \"tt0133093\") { title } }");
        assertEquals(200, matrix.status());
        assertEquals("The Matrix", matrix.data().path("movie").path("title").asText(), matrix.raw().body());

        List<String> movies = IntStream.range(0, 100).mapToObj(i -> FUZZ_MOVIE + String.format("%02d", i)).toList();
        List<String> actors = IntStream.range(0, 100).mapToObj(i -> FUZZ_ACTOR + String.format("%02d", i)).toList();
        Response written = server.client().query(
                "query($m: [ID!]!, $a: [ID!]!) { movies(ids: $m) { id } people(ids: $a) { id } }",
                Map.of("m", movies, "a", actors));
        assertTrue(written.errors().isMissingNode(), written.raw().body());
        assertEquals(100, written.data().path("movies").size());
        assertEquals(100, written.data().path("people").size());
        written.data().path("movies").forEach(movie -> assertTrue(movie.isNull(), "a fuzzed mutation wrote " + movie));
        written.data().path("people").forEach(actor -> assertTrue(actor.isNull(), "a fuzzed mutation wrote " + actor));
    }

    // ---- transport: how a generated payload goes over the wire ----------------------------------------------

    private static final String[] ACCEPTS = {null, "application/json", GRAPHQL_RESPONSE, "*/*",
            GRAPHQL_RESPONSE + ", application/json;q=0.9", "text/html", "application/*;q=0", "application/json;q=abc",
            ",,,;;", "application/graphql-response+json;q=0.0001, */*;q=0.00001", "x".repeat(300)};
    private static final String[] ODD_CONTENT_TYPES = {null, "", "text/plain", "application/graphql",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz", "application/json;", ";",
            "APPLICATION/JSON ; charset=UTF-8", "application/jsonp", "application/json; charset=latin1",
            "application/json; charset=utf-16", "application/json; charset=\"utf-8\"; q=0", "json", "*/*",
            "application/json, text/plain", GRAPHQL_RESPONSE, "application/json; boundary=;;;;;;;;"};
    private static final String[] TRACES = {"on", "plan", "off", "PLAN", "", "yes", "plan, on", "\t"};
    private static final String[] METHODS = {"PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"};

    private static <T> T pick(SplittableRandom r, T[] values) {
        return values[r.nextInt(values.length)];
    }

    private static <T> T pick(SplittableRandom r, List<T> values) {
        return values.get(r.nextInt(values.size()));
    }

    private static String accept(SplittableRandom r) {
        return r.nextInt(3) == 0 ? pick(r, ACCEPTS) : pick(r, new String[] {GRAPHQL_RESPONSE, "application/json"});
    }

    private static String jsonContentType(SplittableRandom r) {
        return r.nextInt(5) == 0 ? pick(r, ODD_CONTENT_TYPES) : "application/json";
    }

    private static Map<String, String> headers(SplittableRandom r) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (r.nextInt(8) == 0) {
            headers.put("Moviegraph-Trace", pick(r, TRACES));
        }
        if (r.nextInt(12) == 0) {
            headers.put("Authorization", pick(r, new String[] {"Bearer", "Bearer x", "Basic Zm9vOmJhcg==", "",
                    "Bearer " + "t".repeat(500)}));
        }
        return headers;
    }

    /** Raw bytes POSTed as the body, or now and then sent as the GET query parameter, or with another method. */
    static Sent raw(SplittableRandom r, byte[] body) {
        int way = r.nextInt(10);
        if (way == 0) {
            return new Sent("GET", "/graphql?query=" + percent(body), null, accept(r), headers(r), null, false);
        }
        if (way == 1) {
            return new Sent("GET", "/graphql?query=%7B__typename%7D&variables=" + percent(body), null, accept(r),
                    headers(r), null, false);
        }
        if (way == 2) {
            return new Sent(pick(r, METHODS), "/graphql", jsonContentType(r), accept(r), headers(r), body, false);
        }
        return new Sent("POST", "/graphql", jsonContentType(r), accept(r), headers(r), body, r.nextInt(10) == 0);
    }

    /**
     * A GraphQL request: variables and operationName are raw JSON text (so they can be of any type), or null
     * for none. Mostly POSTed as JSON, sometimes as GET parameters, sometimes with an odd Content-Type.
     */
    static Sent graphql(SplittableRandom r, String query, String variables, String operationName) {
        if (r.nextInt(4) == 0) {
            StringBuilder target = new StringBuilder("/graphql?query=").append(percent(utf8(query)));
            if (variables != null) {
                target.append("&variables=").append(percent(utf8(variables)));
            }
            if (operationName != null) {
                boolean string = operationName.length() > 1 && operationName.startsWith("\"")
                        && operationName.endsWith("\"");
                String name = string ? operationName.substring(1, operationName.length() - 1) : operationName;
                target.append("&operationName=").append(percent(utf8(name)));
            }
            return new Sent("GET", target.toString(), null, accept(r), headers(r), null, false);
        }
        StringBuilder body = new StringBuilder("{\"query\":").append(quote(query));
        if (variables != null) {
            body.append(",\"variables\":").append(variables);
        }
        if (operationName != null) {
            body.append(",\"operationName\":").append(operationName);
        }
        body.append('}');
        return new Sent("POST", "/graphql", jsonContentType(r), accept(r), headers(r), utf8(body.toString()),
                r.nextInt(20) == 0);
    }

    static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Every byte that is not unreserved in a URI, percent-encoded: invalid UTF-8 goes through as such. */
    static String percent(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    // ---- material the generators share -------------------------------------------------------------------

    private static final List<String> GOOD_QUERIES = List.of(
            "{ movie(id: \"tt0111161\") { title year cast(first: 3) { edges { cursor node { person { name } } } } } }",
            "query Q($id: ID!) { movie(id: $id) { title genres releaseDate } }",
            "query($ids: [ID!]!) { movies(ids: $ids) { title runtimeMinutes } }",
            "{ topMovies(month: \"2024-05\", limit: 5) { streams month movie { title } } }",
            "query($m: YearMonth!, $l: Int) { topMovies(month: $m, limit: $l) { streams } }",
            "{ person(id: \"nm0000209\") { name birthYear movies(first: 2) { pageInfo { hasNextPage endCursor } } } }",
            "{ streamTotal(movieId: \"tt0111161\", month: \"2024-05\") { streams } }",
            "{ movie(id: \"tt0068646\") { streamTotals(from: \"2024-01\", to: \"2024-12\") { month streams } } }",
            "{ __schema { queryType { name } types { name kind } } }",
            "{ __typename }");
    private static final String GOOD_VARIABLES =
            "{\"id\":\"tt0068646\",\"ids\":[\"tt0111161\",\"tt0133093\"],\"m\":\"2024-05\",\"l\":3}";
    private static final String[] NAMES = {"a", "movie", "title", "Query", "__typename", "x_1", "mutation", "query"};

    static String randomName(SplittableRandom r) {
        if (r.nextBoolean()) {
            return pick(r, NAMES);
        }
        StringBuilder name = new StringBuilder().append((char) ('a' + r.nextInt(26)));
        for (int i = r.nextInt(12); i > 0; i--) {
            name.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".charAt(r.nextInt(63)));
        }
        return name.toString();
    }

    static String randomText(SplittableRandom r, int length, String alphabet) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    static String repeat(int times, Function<Integer, String> part) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < times; i++) {
            out.append(part.apply(i));
        }
        return out.toString();
    }

    /** One of the sizes, give or take 2: around the limits (depth 15, 50 aliases, 50 fragments...) and far past. */
    static int size(SplittableRandom r, int... around) {
        int base = around[r.nextInt(around.length)];
        return Math.max(0, base + r.nextInt(-2, 3));
    }

    // ---- the generators, one a category ------------------------------------------------------------------

    static Sent randomBytes(SplittableRandom r) {
        byte[] bytes = new byte[r.nextInt(0, 4_096)];
        switch (r.nextInt(3)) {
            case 0 -> r.nextBytes(bytes);
            case 1 -> {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) r.nextInt(0x20, 0x7F);
                }
            }
            default -> {
                byte[] jsonish = utf8("{}[]\":,\\ 0123456789.eE-+truefalsnqy{}\"query\"");
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = jsonish[r.nextInt(jsonish.length)];
                }
            }
        }
        return raw(r, bytes);
    }

    static Sent truncatedJson(SplittableRandom r) {
        String query = pick(r, GOOD_QUERIES);
        String body = "{\"query\":" + quote(query) + ",\"variables\":" + GOOD_VARIABLES + ",\"operationName\":null}";
        return switch (r.nextInt(3)) {
            // the body cut anywhere short of its end
            case 0 -> raw(r, utf8(body.substring(0, r.nextInt(body.length()))));
            // well-formed JSON, the GraphQL inside it cut
            case 1 -> graphql(r, query.substring(0, r.nextInt(query.length())), GOOD_VARIABLES, null);
            // the variables cut
            default -> graphql(r, query, GOOD_VARIABLES.substring(0, r.nextInt(GOOD_VARIABLES.length())), null);
        };
    }

    static Sent nestedJson(SplittableRandom r) {
        int depth = size(r, 10, 999, 1_000, 1_001, 5_000, 30_000);
        String open = r.nextBoolean() ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        String nested = open.repeat(depth) + "1" + (r.nextInt(5) == 0 ? "" : close.repeat(depth));
        return switch (r.nextInt(5)) {
            case 0 -> raw(r, utf8(nested));
            case 1 -> graphql(r, "query($ids: [ID!]!) { movies(ids: $ids) { title } }",
                    "{\"ids\":" + nested + "}", null);
            case 2 -> graphql(r, "mutation($in: MovieInput!) { putMovie(input: $in) { nope } }",
                    "{\"in\":" + nested + "}", null);
            case 3 -> raw(r, utf8("{\"query\":\"{ __typename }\",\"extensions\":" + nested + "}"));
            default -> raw(r, utf8("{\"query\":\"{ __typename }\",\"operationName\":" + nested + "}"));
        };
    }

    private static final String[] WRONG_VALUES = {"{}", "[]", "[[\"tt0111161\"]]", "true", "null", "1.5", "1e308",
            "-0", "2147483648", "-2147483649", "123456789012345678901234567890", "1e400", "\"\"", "\"12\"",
            "\"2024-13\"", "\"tt0111161\"", "[null]", "{\"id\":{}}", "\"\\u0000\"", "[1,2,3]", "{\"__proto__\":1}"};
    private static final List<String> VARIABLE_QUERIES = List.of(
            "query($v: ID!) { movie(id: $v) { title } }",
            "query($v: [ID!]!) { movies(ids: $v) { title } }",
            "query($v: Int) { movie(id: \"tt0111161\") { cast(first: $v) { edges { cursor } } } }",
            "query($v: String) { person(id: \"nm0000209\") { movies(after: $v) { edges { cursor } } } }",
            "query($v: YearMonth!) { topMovies(month: $v) { streams } }",
            "query($v: YearMonth, $w: YearMonth) { movie(id: \"tt0111161\") { streamTotals(from: $v, to: $w) { month } } }",
            "query($v: Int = \"ten\") { topMovies(month: \"2024-05\", limit: $v) { streams } }",
            "query($v: Movie) { __typename }",
            "query($v: Nope!) { __typename }",
            "query($v: ID!, $v: Int) { movie(id: $v) { title } }",
            "query { movie(id: $undeclared) { title } }",
            "query($v: Boolean!) { movie(id: \"tt0111161\") { title @include(if: $v) } }");

    static Sent wrongVariableTypes(SplittableRandom r) {
        String query = pick(r, VARIABLE_QUERIES);
        String variables = switch (r.nextInt(6)) {
            case 0 -> pick(r, new String[] {"[]", "\"v\"", "1", "true", "[{\"v\":1}]"}); // not an object at all
            case 1 -> "{\"v\":" + pick(r, WRONG_VALUES) + ",\"w\":" + pick(r, WRONG_VALUES) + "}";
            case 2 -> "{\"other\":" + pick(r, WRONG_VALUES) + "}";
            default -> "{\"v\":" + pick(r, WRONG_VALUES) + "}";
        };
        return graphql(r, query, variables, null);
    }

    static Sent hugeStrings(SplittableRandom r) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 _-\u00e9\u4e2d\uD83C\uDFAC";
        return switch (r.nextInt(8)) {
            // a huge string argument: within or past the parser's 20,000 characters
            case 0 -> graphql(r, "{ movie(id: \"" + randomText(r, size(r, 19_950, 60_000), "tt0123456789")
                    + "\") { title } }", null, null);
            // a huge variable value: echoed back, shortened
            case 1 -> graphql(r, "query($id: ID!) { movie(id: $id) { title } }",
                    "{\"id\":" + quote(randomText(r, size(r, 1_000, 90_000), alphabet)) + "}", null);
            // bodies past MAX_BODY_BYTES, with a length or chunked
            case 2 -> new Sent("POST", "/graphql", "application/json", accept(r), headers(r),
                    utf8("{\"query\":" + quote("{ __typename }" + " ".repeat(size(r, 102_400, 300_000))) + "}"),
                    r.nextBoolean());
            case 3 -> graphql(r, "query " + randomText(r, size(r, 5_000, 19_000), "abcXYZ_") + " { __typename }",
                    null, null);
            case 4 -> graphql(r, "{ __typename }", null, quote(randomText(r, size(r, 10_000, 80_000), alphabet)));
            // a huge number literal
            case 5 -> graphql(r, "{ topMovies(month: \"2024-05\", limit: " + "9".repeat(size(r, 20, 5_000))
                    + ") { streams } }", null, null);
            // a URL or a header longer than Jetty takes
            case 6 -> new Sent("GET", "/graphql?query=" + percent(utf8("{ movie(id: \""
                    + "9".repeat(size(r, 8_000, 40_000)) + "\") { title } }")), null, accept(r), headers(r), null, false);
            default -> new Sent("POST", "/graphql", "application/json", accept(r),
                    Map.of("Moviegraph-Trace", "on".repeat(size(r, 4_000, 20_000))),
                    utf8("{\"query\":\"{ __typename }\"}"), false);
        };
    }

    /** Not UTF-8: bad continuations, overlong forms, surrogates, past U+10FFFF, stray bytes, NUL. */
    private static final int[][] BAD_UTF8 = {{0xC3, 0x28}, {0xA0, 0xA1}, {0xE2, 0x28, 0xA1}, {0xE2, 0x82, 0x28},
            {0xF0, 0x28, 0x8C, 0xBC}, {0xF8, 0xA1, 0xA1, 0xA1, 0xA1}, {0xFF}, {0xFE, 0xFF}, {0xC0, 0xAF},
            {0xED, 0xA0, 0x80}, {0xE2, 0x82}, {0x00}, {0xF4, 0x90, 0x80, 0x80}};
    /** Valid JSON escapes of what is not valid Unicode text: lone surrogates, NUL, non-characters. */
    private static final String[] BAD_ESCAPES = {"\\ud800", "\\udfff", "\\udc00\\ud800", "\\u0000", "\\uffff",
            "\\ufffe", "\\ud83c", "\\ud800\\u0041"};

    static Sent invalidUtf8(SplittableRandom r) {
        int[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
        String escape = pick(r, BAD_ESCAPES);
        String[] templates = {
                "{\"query\":\"{ movie(id: \\\"tt01%s11161\\\") { title } }\"}",
                "{\"query\":\"query($id: ID!) { movie(id: $id) { title } }\",\"variables\":{\"id\":\"%s\"}}",
                "{\"query\":\"query($m: YearMonth!) { topMovies(month: $m) { streams } }\",\"variables\":{\"m\":\"%s\"}}",
                "{\"query\":\"{ __typename }\",\"operationName\":\"%s\"}",
                "{\"query\":\"{ movie(id: \\\"tt0111161\\\") { t%sitle } }\"}",
                "{\"query\":\"{ __typename }\",\"variables\":{\"%s\":1}}",
                "{\"query\":\"{ person(id: \\\"nm0000209\\\") { movies(after: \\\"%s\\\") { edges { cursor } } } }\"}",
                "{\"query\":\"mutation { putPerson(input: {id: \\\"nm9690001\\\", name: \\\"%s\\\", birthYear: 1700}) { id } }\"}",
                "{\"query\":\"{ __typename %s }\"}"};
        String template = pick(r, templates);
        int how = r.nextInt(5);
        if (how == 0) {
            return raw(r, utf8(template.formatted(escape)));
        }
        if (how == 1) {
            // not UTF-8 at all: UTF-16 or UTF-32, with or without a byte order mark
            String body = template.formatted("x");
            byte[] encoded = body.getBytes(pick(r, new java.nio.charset.Charset[] {StandardCharsets.UTF_16,
                    StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE, java.nio.charset.Charset.forName("UTF-32")}));
            return raw(r, encoded);
        }
        int at = template.indexOf("%s");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (how == 2) {
            body.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        }
        body.writeBytes(utf8(template.substring(0, at)));
        for (int b : bad) {
            body.write(b);
        }
        body.writeBytes(utf8(template.substring(at + 2)));
        return raw(r, body.toByteArray());
    }

    /** Fields that nest without end: movie > cast > edges > node > person > movies > edges > node > movie ... */
    private static final String[] CHAIN = {"cast(first: 1)", "edges", "node", "person", "movies(first: 1)", "edges",
            "node", "movie"};

    static Sent deepQuery(SplittableRandom r) {
        int depth = size(r, 14, 15, 16, 17, 40, 499, 500, 501, 1_200);
        String query = switch (r.nextInt(6)) {
            case 0 -> {
                StringBuilder q = new StringBuilder("{ movie(id: \"tt0111161\") {");
                for (int i = 0; i < depth; i++) {
                    q.append(' ').append(CHAIN[i % CHAIN.length]).append(" {");
                }
                yield q.append(" __typename").append(" }".repeat(depth + 1)).append(" }").toString();
            }
            case 1 -> "{" + " a {".repeat(depth) + " b" + " }".repeat(depth) + " }";
            case 2 -> "{ movies(ids: " + "[".repeat(depth) + "\"tt0111161\"" + "]".repeat(depth) + ") { title } }";
            case 3 -> "mutation { putMovie(input: " + "{id: \"tt9690002\", title: ".repeat(depth) + "\"x\""
                    + "}".repeat(depth) + ") { nope } }";
            case 4 -> "{" + " ... on Query {".repeat(depth) + " __typename" + " }".repeat(depth) + " }";
            default -> "{" + " movie(id: \"tt0111161\") {".repeat(depth) + " title"; // unclosed
        };
        return graphql(r, query, null, null);
    }

    static Sent aliasBomb(SplittableRandom r) {
        int count = size(r, 49, 50, 51, 200, 1_500);
        String query = switch (r.nextInt(5)) {
            case 0 -> "{" + repeat(count, i -> " a" + i + ": __typename") + " }";
            case 1 -> "{" + repeat(count, i -> " a" + i + ": movie(id: \"tt0111161\") { title }") + " }";
            case 2 -> "{ movie(id: \"tt0111161\") {" + repeat(count, i -> " t" + i + ": title") + " } }";
            // the same alias for different fields: not mergeable
            case 3 -> "{" + repeat(count, i -> " same: movie(id: \"tt0" + (111161 + i) + "\") { title }") + " }";
            // aliases hidden in a fragment spread many times
            default -> "query { ...F" + " ...F".repeat(count) + " } fragment F on Query {" + repeat(Math.min(count, 40),
                    i -> " f" + i + ": movie(id: \"tt0111161\") { cast(first: 10) { edges { node { person { name } } } } }")
                    + " }";
        };
        return graphql(r, query, null, null);
    }

    static Sent directiveBomb(SplittableRandom r) {
        int count = size(r, 2, 10, 100, 1_000, 2_500);
        String directive = pick(r, new String[] {" @include(if: true)", " @skip(if: false)", " @nope", " @deprecated",
                " @include(if: \"yes\")", " @include", " @skip(if: $x)", " @include(if: true, if: false)",
                " @specifiedBy(url: \"x\")"});
        String many = directive.repeat(count);
        String query = switch (r.nextInt(5)) {
            case 0 -> "{ movie(id: \"tt0111161\") { title" + many + " } }";
            case 1 -> "query" + many + " { __typename }";
            case 2 -> "{ ...F" + many + " } fragment F on Query { __typename }";
            case 3 -> "{ ... on Query" + many + " { __typename } }";
            default -> "query($x: Boolean = true) { movie(id: \"tt0111161\")" + many + " { title" + many + " } }";
        };
        return graphql(r, query, null, null);
    }

    static Sent fragmentCycle(SplittableRandom r) {
        int n = size(r, 3, 10, 30, 50, 200, 400);
        int levels = Math.min(n, 40);
        String query = switch (r.nextInt(8)) {
            case 0 -> "{ ...A } fragment A on Query { ...A }";
            case 1 -> "{ ...F0 }" + repeat(n, i -> " fragment F" + i + " on Query { __typename ...F" + ((i + 1) % n) + " }");
            // no cycle, but a chain: graphql-java's cycle check grows with its cube
            case 2 -> "{ ...F0 }" + repeat(n, i -> " fragment F" + i + " on Query { __typename ...F" + (i + 1) + " }")
                    + " fragment F" + n + " on Query { movie(id: \"tt0111161\") { title } }";
            case 3 -> "{ movie(id: \"tt0111161\") { ...M } } fragment M on Movie { cast { edges { node { movie { ...M } } } } }";
            case 4 -> "{ ...A } fragment A on Query { ... on Query { ...B } } fragment B on Query { ... { ...A } }";
            // a fragment bomb: each level spreads the next twice, 2^levels fields once expanded
            case 5 -> "{ ...B0 }" + repeat(levels, i -> " fragment B" + i + " on Query { ...B" + (i + 1) + " ...B" + (i + 1) + " }")
                    + " fragment B" + levels + " on Query { movie(id: \"tt0111161\") { title } }";
            case 6 -> "{ ...Missing ...F } fragment F on Query { __typename } fragment F on Movie { title }"
                    + " fragment G on Nope { x }";
            default -> "{ movie(id: \"tt0111161\") { ...T } } fragment T on String { length } fragment U on Movie { ...U }";
        };
        return graphql(r, query, null, null);
    }

    static Sent batchedArray(SplittableRandom r) {
        int n = size(r, 0, 1, 2, 10, 500);
        String query = quote(pick(r, GOOD_QUERIES));
        String element = pick(r, new String[] {"{\"query\":" + query + "}",
                "{\"query\":" + query + ",\"variables\":" + GOOD_VARIABLES + "}", query, "[{\"query\":" + query + "}]",
                "null", "{}"});
        String batch = "[" + String.join(",", Collections.nCopies(n, element)) + "]";
        return switch (r.nextInt(4)) {
            case 0 -> raw(r, utf8(batch));
            case 1 -> raw(r, utf8("{\"query\":" + batch + "}"));
            case 2 -> raw(r, utf8("{\"query\":" + query + ",\"variables\":" + batch + "}"));
            default -> graphql(r, "[" + pick(r, GOOD_QUERIES) + ", " + pick(r, GOOD_QUERIES) + "]", null, null);
        };
    }

    static Sent unknownOperation(SplittableRandom r) {
        String operationName = r.nextInt(3) == 0 ? null : pick(r, new String[] {"\"Missing\"", "\"\"", "\"A\"", "\"B\"",
                "1", "[]", "{}", "true", "\"query\"", "\"" + randomName(r) + "\""});
        String query = pick(r, new String[] {
                "query A { __typename } query B { movie(id: \"tt0111161\") { title } }",
                "{ __typename } { movie(id: \"tt0111161\") { title } }",
                "query A { __typename } query A { __typename }",
                "subscription { movie(id: \"tt0111161\") { title } }",
                "subscription S { __typename }",
                "query A { __typename } mutation B { deleteMovie(id: \"tt9690003\") { nope } }",
                "", "   ", "# only a comment", "fragment F on Query { __typename }",
                "type Foo { a: Int }", "schema { query: Query }", "extend type Query { x: Int }",
                "directive @x on FIELD", randomName(r) + " { __typename }", "Query { __typename }",
                "query query { query }", "query A($v: Int) { __typename }", "query A { ...F }"});
        return graphql(r, query, r.nextBoolean() ? null : "{}", operationName);
    }

    /**
     * Mutations that may not write: invalid documents, wrong variable types, and executable ones whose input
     * breaks a write rule or names a movie that does not exist, all on the fuzz ids, which are checked after.
     */
    static Sent mutation(SplittableRandom r) {
        String movie = FUZZ_MOVIE + String.format("%02d", r.nextInt(100));
        String actor = FUZZ_ACTOR + String.format("%02d", r.nextInt(100));
        String badMovie = pick(r, new String[] {"title: \"\"", "title: \"   \"", "title: \"" + "x".repeat(201) + "\"",
                "title: \"T\", year: 1869", "title: \"T\", year: 99999", "title: \"T\", runtimeMinutes: 0",
                "title: \"T\", runtimeMinutes: 1001", "title: \"T\", genres: [" + "\"g\", ".repeat(21) + "\"g\"]",
                "title: \"T\", genres: [\" \"]", "title: \"T\", releaseDate: \"1800-01-01\""});
        String badActor = pick(r, new String[] {"name: \"\"", "name: \"" + "n".repeat(201) + "\"",
                "name: \"N\", birthYear: 1799", "name: \"N\", birthYear: 2999"});
        String badStream = pick(r, new String[] {"streamId: \"has space\", at: \"2024-05-01T00:00:00Z\"",
                "streamId: \"" + "s".repeat(65) + "\", at: \"2024-05-01T00:00:00Z\"",
                "streamId: \"ok\", at: \"2999-01-01T00:00:00Z\"", "streamId: \"ok\", at: \"1980-01-01T00:00:00Z\"",
                "streamId: \"ok\", at: \"yesterday\""});
        String query = switch (r.nextInt(12)) {
            case 0 -> "mutation { putMovie(input: {id: \"" + movie + "\", " + badMovie + "}) { id } }";
            case 1 -> "mutation { putPerson(input: {id: \"" + actor + "\", " + badActor + "}) { id } }";
            case 2 -> "mutation { castActor(movieId: \"" + movie + "\", actorId: \"" + actor + "\", billing: "
                    + pick(r, new String[] {"0", "9999", "1", "null"}) + ") { billing } }";
            case 3 -> "mutation { recordStream(input: {movieId: \"" + movie + "\", " + badStream + "}) { counted } }";
            case 4 -> "mutation { deleteMovie(id: \"" + movie + "\") uncastActor(movieId: \"" + movie + "\", actorId: \""
                    + actor + "\") }";
            // does not validate: unknown field, sub-selection of a scalar, missing argument, wrong literal type
            case 5 -> "mutation { putMovie(input: {id: \"" + movie + "\", title: \"T\", budget: 1}) { id } }";
            case 6 -> "mutation { deleteMovie(id: \"" + movie + "\") { title } }";
            case 7 -> "mutation { putPerson { id } }";
            case 8 -> "mutation { putMovie(input: {id: \"" + movie + "\", title: 42, year: \"1999\"}) { id } }";
            case 9 -> "mutation M { a: putMovie(input: {id: \"" + movie + "\", " + badMovie + "}) { id }"
                    + " b: putPerson(input: {id: \"" + actor + "\", " + badActor + "}) { id } }";
            case 10 -> "mutation($in: MovieInput!) { putMovie(input: $in) { id } }";
            default -> "mutation { putMovie(input: {id: \"" + movie + "\", title: \"T\"}) { id nope } }";
        };
        String id = "\"id\":\"" + movie + "\"";
        String variables = !query.contains("$in") ? null : "{\"in\":" + pick(r, new String[] {"\"" + movie + "\"", "[]",
                "{" + id + "}", "{" + id + ",\"title\":\"T\",\"extra\":1}", "{" + id + ",\"title\":\"\"}",
                "{" + id + ",\"title\":\"T\",\"year\":\"x\"}"}) + "}";
        return graphql(r, query, variables, null);
    }
}
