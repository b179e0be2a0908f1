package dev.moviegraph.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spans as Zipkin's v2 JSON, POSTed to a Zipkin collector ({@code /api/v2/spans}): OpenTelemetry stopped
 * publishing its Zipkin exporter, and the format is a page of Zipkin's API. The SDK's batch processor
 * calls it, so a slow or absent Zipkin costs the requests nothing (spans past the queue are dropped).
 */
final class ZipkinSpanExporter implements SpanExporter {
    private static final Logger LOG = LoggerFactory.getLogger(ZipkinSpanExporter.class);
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

    private final URI endpoint;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();

    ZipkinSpanExporter(URI endpoint, Duration timeout) {
        this.endpoint = endpoint;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        CompletableResultCode result = new CompletableResultCode();
        byte[] body;
        try {
            body = json.writeValueAsBytes(encode(spans));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return CompletableResultCode.ofFailure();
        }
        http.sendAsync(HttpRequest.newBuilder(endpoint).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, failure) -> {
                    if (failure == null && response.statusCode() / 100 == 2) {
                        result.succeed();
                    } else {
                        LOG.debug("Zipkin at {} did not take {} spans: {}", endpoint, spans.size(),
                                failure != null ? failure.toString() : "HTTP " + response.statusCode());
                        result.fail();
                    }
                });
        return result;
    }

    ArrayNode encode(Collection<SpanData> spans) {
        ArrayNode encoded = json.createArrayNode();
        for (SpanData span : spans) {
            ObjectNode zipkin = encoded.addObject()
                    .put("traceId", span.getTraceId())
                    .put("id", span.getSpanId())
                    .put("name", span.getName())
                    .put("timestamp", span.getStartEpochNanos() / 1_000)
                    .put("duration", Math.max(1, (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1_000));
            if (span.getParentSpanContext().isValid()) {
                zipkin.put("parentId", span.getParentSpanId());
            }
            if (span.getKind() != SpanKind.INTERNAL) {
                zipkin.put("kind", span.getKind().name());
            }
            String service = span.getResource().getAttribute(SERVICE_NAME);
            zipkin.putObject("localEndpoint").put("serviceName", service == null ? "moviegraph" : service);
            ObjectNode tags = zipkin.putObject("tags");
            span.getAttributes().forEach((key, value) -> tags.put(key.getKey(), value instanceof List<?> list
                    ? list.stream().map(String::valueOf).collect(Collectors.joining(",")) : String.valueOf(value)));
            if (span.getStatus().getStatusCode() == StatusCode.ERROR) {
                tags.put("error", span.getStatus().getDescription().isEmpty() ? "true" : span.getStatus().getDescription());
            }
        }
        return encoded;
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
