package dev.moviegraph.telemetry;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.net.URI;
import java.time.Duration;

/**
 * {@code OTEL_TRACES_EXPORTER=zipkin}: the name and settings OpenTelemetry's own Zipkin exporter had,
 * {@code OTEL_EXPORTER_ZIPKIN_ENDPOINT} (default {@value #DEFAULT_ENDPOINT}) and
 * {@code OTEL_EXPORTER_ZIPKIN_TIMEOUT} (ms, default 10 s). Found by the SDK's autoconfiguration through
 * META-INF/services.
 */
public final class ZipkinExporterProvider implements ConfigurableSpanExporterProvider {
    static final String DEFAULT_ENDPOINT = "http://localhost:9411/api/v2/spans";

    @Override
    public SpanExporter createExporter(ConfigProperties config) {
        URI endpoint = URI.create(config.getString("otel.exporter.zipkin.endpoint", DEFAULT_ENDPOINT));
        Duration timeout = config.getDuration("otel.exporter.zipkin.timeout", Duration.ofSeconds(10));
        return new ZipkinSpanExporter(endpoint, timeout);
    }

    @Override
    public String getName() {
        return "zipkin";
    }
}
