package dev.moviegraph.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A /graphql response read piece by piece as it arrives: the parts of a multipart/mixed answer or the
 * events of an event stream, each with the time it was read, and whether the stream ended as its format
 * says it must (the closing boundary; the complete event). Read on a thread of its own, so a test can take
 * the first piece while the server is still working on the rest, or close the connection under it.
 */
public final class StreamedResponse implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** One part or event: its event name ("part" for a multipart part), its JSON (null for none), when it came. */
    public record Piece(String event, JsonNode json, long atNanos) {
    }

    private static final Piece END = new Piece("end", null, 0);

    private final HttpResponse<InputStream> response;
    private final BlockingQueue<Piece> pieces = new LinkedBlockingQueue<>();
    private volatile boolean closedProperly;
    private volatile String rawText = "";

    private StreamedResponse(HttpResponse<InputStream> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "streamed-response-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** POSTs {@code body} to /graphql with this Accept and these headers. */
    public static StreamedResponse post(int port, String body, String accept, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/graphql"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request.build());
    }

    /** GETs {@code pathAndQuery} (query parameters encoded by the caller) with this Accept. */
    public static StreamedResponse get(int port, String pathAndQuery, String accept) {
        return send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Accept", accept).GET().build());
    }

    private static StreamedResponse send(HttpRequest request) {
        try {
            return new StreamedResponse(HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int status() {
        return response.statusCode();
    }

    public HttpHeaders headers() {
        return response.headers();
    }

    public String contentType() {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    /** The next piece, waiting up to {@code timeout}; null when the stream ended (or nothing came in time). */
    public Piece next(Duration timeout) {
        try {
            Piece piece = pieces.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (piece == END) {
                pieces.add(END);
                return null;
            }
            return piece;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Every piece until the stream ends (at most {@code timeout} in all). */
    public List<Piece> rest(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Piece> rest = new ArrayList<>();
        for (Piece piece; (piece = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) != null; ) {
            rest.add(piece);
        }
        return rest;
    }

    /** The JSON of every piece until the end; the events' too (complete has none). */
    public List<JsonNode> jsonUntilEnd(Duration timeout) {
        return rest(timeout).stream().map(Piece::json).filter(json -> json != null).toList();
    }

    /** Whether the response ended as its format must: multipart's closing boundary, an event stream's complete. */
    public boolean closedProperly() {
        return closedProperly;
    }

    /** Everything read so far, as text (for failure messages). */
    public String raw() {
        return rawText;
    }

    /** Drops the connection, as a client that goes away does. */
    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }

    private void read() {
        boolean events = contentType().startsWith("text/event-stream");
        StringBuilder raw = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String event = null;
            JsonNode data = null;
            for (String line; (line = lines.readLine()) != null; ) {
                raw.append(line).append('\n');
                rawText = raw.toString();
                if (events) {
                    if (line.startsWith("event:")) {
                        event = line.substring(6).trim();
                    } else if (line.startsWith("data:")) {
                        String text = line.substring(5).trim();
                        data = text.isEmpty() ? null : JSON.readTree(text);
                    } else if (line.isEmpty() && event != null) {
                        pieces.add(new Piece(event, data, System.nanoTime()));
                        closedProperly = event.equals("complete");
                        event = null;
                        data = null;
                    }
                } else if (line.equals("-----")) {
                    closedProperly = true;
                } else if (line.startsWith("{")) {
                    // Compact JSON has no line break: a part's body is one line after its headers.
                    pieces.add(new Piece(contentType().startsWith("multipart/") ? "part" : "body", JSON.readTree(line),
                            System.nanoTime()));
                }
            }
        } catch (IOException e) {
            // the connection was dropped (by the test, or the server): the end
        } finally {
            pieces.add(END);
        }
    }
}
