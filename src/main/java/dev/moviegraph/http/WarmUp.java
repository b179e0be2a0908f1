package dev.moviegraph.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms a fresh server before it reports ready: for a bounded time, clients on loopback send the server
 * real GraphQL requests of every read path (a movie with its lists, a filmography with casts, a month's
 * top list, search, browse, top rated, award winners, ids in batches, Relay's node) through HTTP, the
 * document cache, planning, execution, the DynamoDB client and JSON, so the JIT has compiled the whole
 * request path before a load balancer sends users to it (a cold JVM serves a fraction of its warm rate
 * for its first minutes). Ids come from what the table answers (top rated, browse, search), so a warm-up
 * reads real items of any catalog; with none found it uses the sample's. Requests are named
 * {@code Warmup*} in /metrics. They only read: on DynamoDB they cost read units (about 2 a request).
 */
public final class WarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
    private static final List<String> SAMPLE_MOVIES = List.of("tt0111161", "tt0068646", "tt0468569");
    private static final List<String> SAMPLE_PEOPLE = List.of("nm0000151", "nm0000209");
    private static final List<String> SEARCHES = List.of("the", "godfather", "ma", "john", "star wars", "lo");

    private static final String MOVIE = "query WarmupMovie($id: ID!) { movie(id: $id) { id title year genres"
            + " averageRating numVotes directors { person { name } } writers { person { name } } cast(first: 10) {"
            + " totalCount edges { cursor node { characters billing person { id name birthYear } } }"
            + " pageInfo { hasNextPage endCursor } } streamTotals { month streams } awards { award category year won } } }";
    private static final String PERSON = "query WarmupPerson($id: ID!) { person(id: $id) { id name birthYear"
            + " movies(first: 10) { totalCount edges { node { movie { id title cast(first: 3) { edges { node {"
            + " person { name birthYear } } } } } } } pageInfo { hasNextPage endCursor } }"
            + " directed(first: 5) { edges { node { movie { title } } } } awards { award year } } }";
    private static final String LISTS = "query WarmupLists($month: YearMonth!, $q: String!) {"
            + " topMovies(month: $month, limit: 10) { streams movie { title genres } }"
            + " search(query: $q, first: 10) { edges { cursor node { ... on Movie { id title year } ... on Person { id name } }"
            + " knownFor { title } } pageInfo { hasNextPage endCursor } }"
            + " browseMovies(genre: \"Drama\", first: 20) { edges { node { id title year } } }"
            + " topRated(first: 20) { edges { cursor node { id title averageRating } } pageInfo { hasNextPage } }"
            + " awardWinners(award: \"Academy Award\", first: 5) { edges { node { category year person { name } movie { title } } } } }";
    private static final String BATCH = "query WarmupBatch($ids: [ID!]!, $node: ID!) { movies(ids: $ids) { title"
            + " cast(first: 5) { edges { node { person { name } } } } } node(id: $node) { id ... on Movie { title } } }";

    private final URI graphql;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public WarmUp(int port, ObjectMapper json) {
        this.graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
        this.json = json;
    }

    /**
     * Sends warm-up requests from {@code clients} clients for {@code time} (each client one at least);
     * returns how many were answered.
     */
    public long run(Duration time, int clients) {
        long deadline = System.nanoTime() + time.toNanos();
        List<String> movies = new ArrayList<>();
        List<String> people = new ArrayList<>();
        discover(movies, people);
        String month = YearMonth.now(ZoneOffset.UTC).minusMonths(1).toString();
        AtomicLong answered = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients, runnable -> {
            Thread thread = new Thread(runnable, "moviegraph-warmup");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(pool.submit(() -> {
                    // Each client sends one request at least: finding what to ask for may take the whole time
                    // on a busy machine, and a warm-up that sent nothing warmed nothing.
                    for (int i = client; i == client || System.nanoTime() < deadline; i += clients) {
                        String movie = movies.get(i % movies.size());
                        Map<String, Object> variables = switch (i % 4) {
                            case 0 -> Map.of("id", movie);
                            case 1 -> Map.of("id", people.get(i % people.size()));
                            case 2 -> Map.of("month", month, "q", SEARCHES.get(i % SEARCHES.size()));
                            default -> Map.of("ids", movies.subList(0, Math.min(movies.size(), 1 + i % 8)), "node", movie);
                        };
                        String query = switch (i % 4) {
                            case 0 -> MOVIE;
                            case 1 -> PERSON;
                            case 2 -> LISTS;
                            default -> BATCH;
                        };
                        if (send(query, variables) != null) {
                            answered.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> client : running) {
                client.get(time.toMillis() + 30_000, TimeUnit.MILLISECONDS);
            }
        } catch (Exception e) {
            LOG.warn("Warm-up stopped early: {}", e.toString());
        } finally {
            pool.shutdownNow();
        }
        if (failed.get() > 0) {
            LOG.warn("Warm-up: {} requests were not answered with data", failed.get());
        }
        return answered.get();
    }

    /** Ids of movies and people the table has, from its top rated list and a search; the sample's if none. */
    private void discover(List<String> movies, List<String> people) {
        Set<String> movieIds = new LinkedHashSet<>();
        Set<String> personIds = new LinkedHashSet<>();
        JsonNode found = send("query WarmupDiscover { topRated(first: 20) { edges { node { id cast(first: 3) {"
                + " edges { node { person { id } } } } } } } }", Map.of());
        if (found != null) {
            for (JsonNode edge : found.path("topRated").path("edges")) {
                movieIds.add(edge.path("node").path("id").asText());
                edge.path("node").path("cast").path("edges")
                        .forEach(cast -> personIds.add(cast.path("node").path("person").path("id").asText()));
            }
        }
        movieIds.remove("");
        personIds.remove("");
        movies.addAll(movieIds.isEmpty() ? SAMPLE_MOVIES : movieIds);
        people.addAll(personIds.isEmpty() ? SAMPLE_PEOPLE : personIds);
    }

    /** The data of one request, or null when it failed or answered errors. */
    private JsonNode send(String query, Map<String, Object> variables) {
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("query", query);
            body.put("variables", variables);
            HttpRequest request = HttpRequest.newBuilder(graphql).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body))).build();
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            JsonNode answer = json.readTree(response.body());
            return response.statusCode() == 200 && answer.path("errors").isMissingNode() ? answer.path("data") : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return null;
        }
    }
}
