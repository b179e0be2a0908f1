package dev.moviegraph.telemetry;

import dev.moviegraph.config.ConfigException;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Traces, when the standard OpenTelemetry variables ask for them: {@code OTEL_TRACES_EXPORTER} set to
 * {@code otlp} (OTLP over HTTP, {@code OTEL_EXPORTER_OTLP_ENDPOINT}), {@code zipkin} (Zipkin's JSON,
 * {@code OTEL_EXPORTER_ZIPKIN_ENDPOINT}) or {@code console}, with the SDK's own reading of every other
 * {@code OTEL_*} variable (service name, sampler, batch sizes, propagators: W3C trace context by default).
 * Unset or {@code none}: {@link #OFF}, which starts no span, reads no header and costs a field read a request.
 *
 * <p>A traced request has a span per GraphQL operation ({@link OperationSpan}), the child of the
 * {@code traceparent} it came with, and under it a span per DynamoDB call, made from the call's own
 * record once it ends (start, duration, table, index, consumed capacity), so no context has to follow the
 * call across the threads its pages and batches run on.
 */
public final class Telemetry implements AutoCloseable {
    /** No traces: nothing is created, read or exported. */
    public static final Telemetry OFF = new Telemetry(null, null);

    private static final TextMapGetter<Function<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> carrier) {
            return List.of("traceparent", "tracestate", "baggage");
        }

        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;
    private final String table;

    private Telemetry(OpenTelemetrySdk sdk, String table) {
        this.sdk = sdk;
        this.tracer = sdk == null ? null : sdk.getTracer("dev.moviegraph");
        this.table = table;
    }

    /**
     * Traces as {@code env}'s {@code OTEL_*} variables say, for {@code serviceName} (unless
     * {@code OTEL_SERVICE_NAME} names it) calling {@code table}.
     *
     * @throws ConfigException when the SDK refuses a variable (one line naming it)
     */
    public static Telemetry fromEnvironment(Map<String, String> env, String serviceName, String table) {
        String exporter = env.get("OTEL_TRACES_EXPORTER");
        if (exporter == null || exporter.isBlank() || exporter.strip().equalsIgnoreCase("none")
                || "true".equalsIgnoreCase(env.get("OTEL_SDK_DISABLED"))) {
            return OFF;
        }
        Map<String, String> properties = new HashMap<>();
        // Traces only: the gateway's metrics are Prometheus's (/metrics), its logs its own.
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        properties.put("otel.service.name", serviceName);
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        try {
            return new Telemetry(AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> properties)
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk(), table);
        } catch (ConfigurationException | IllegalArgumentException e) {
            throw new ConfigException("OpenTelemetry (OTEL_* variables): " + e.getMessage());
        }
    }

    public boolean isOn() {
        return sdk != null;
    }

    /** The trace a request belongs to, from its {@code traceparent} (and {@code tracestate}) header. */
    public Context parentOf(Function<String, String> headers) {
        if (sdk == null) {
            return Context.root();
        }
        return sdk.getPropagators().getTextMapPropagator().extract(Context.root(), headers, HEADERS);
    }

    /**
     * Starts the span of one GraphQL operation ({@code type} query, mutation or subscription; {@code name}
     * its operation name, or null) under {@code parent}.
     */
    public OperationSpan operation(Context parent, String type, String name) {
        if (sdk == null) {
            return OperationSpan.NONE;
        }
        String spanName = name == null || name.isBlank() ? type : type + " " + name;
        return OperationSpan.start(tracer, tracer.spanBuilder(spanName).setParent(parent == null ? Context.root() : parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute("graphql.operation.type", type)
                .setAttribute("graphql.operation.name", name == null ? "" : name), table);
    }

    /** A span of some other unit of work (a Lambda invocation), a root unless {@code parent} says otherwise. */
    public OperationSpan invocation(String name, SpanKind kind, Map<String, String> attributes) {
        if (sdk == null) {
            return OperationSpan.NONE;
        }
        var builder = tracer.spanBuilder(name).setSpanKind(kind).setNoParent();
        attributes.forEach(builder::setAttribute);
        return OperationSpan.start(tracer, builder, table);
    }

    /** Sends what is buffered now (a Lambda function's environment may freeze once it returns). */
    public void flush() {
        if (sdk != null) {
            sdk.getSdkTracerProvider().forceFlush().join(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(5, TimeUnit.SECONDS);
        }
    }
}
