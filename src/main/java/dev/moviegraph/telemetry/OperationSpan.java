package dev.moviegraph.telemetry;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.StoreCall;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The span of one GraphQL operation (or Lambda invocation), and the spans of the DynamoDB calls made for
 * it: {@link #observing} puts a store-call observer in front of the request's own, which turns each call's
 * record, once the call has ended, into a client span under this one with the call's real start and
 * duration. Attribute names follow OpenTelemetry's conventions for AWS SDK and DynamoDB spans.
 */
public final class OperationSpan {
    /** Tracing off: observes nothing, ends nothing. */
    public static final OperationSpan NONE = new OperationSpan(null, null, null);

    private static final AttributeKey<List<String>> TABLE_NAMES = AttributeKey.stringArrayKey("aws.dynamodb.table_names");
    private static final AttributeKey<String> INDEX_NAME = AttributeKey.stringKey("aws.dynamodb.index_name");
    private static final AttributeKey<List<String>> CONSUMED = AttributeKey.stringArrayKey("aws.dynamodb.consumed_capacity");

    private final Tracer tracer;
    private final Span span;
    private final String table;

    private OperationSpan(Tracer tracer, Span span, String table) {
        this.tracer = tracer;
        this.span = span;
        this.table = table;
    }

    static OperationSpan start(Tracer tracer, SpanBuilder builder, String table) {
        return new OperationSpan(tracer, builder.startSpan(), table);
    }

    /** The trace this span is in (logs carry it), or null when tracing is off. */
    public String traceId() {
        return span == null ? null : span.getSpanContext().getTraceId();
    }

    /** This span as a parent (the root context when tracing is off). */
    public Context context() {
        return span == null ? Context.root() : Context.root().with(span);
    }

    /** {@code downstream} with a span recorded for every store call it is told of; itself when tracing is off. */
    public CallObserver observing(CallObserver downstream) {
        if (span == null) {
            return downstream;
        }
        return downstream.tellingFirst(this::record);
    }

    private void record(StoreCall call) {
        // nanoTime has no epoch: the call's start is placed by how long ago it was
        long nowEpoch = epochNanos(Instant.now());
        long startEpoch = nowEpoch - (System.nanoTime() - call.startNanos());
        Span child = tracer.spanBuilder("DynamoDB." + call.operation())
                .setParent(context())
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(startEpoch, TimeUnit.NANOSECONDS)
                .setAttribute("rpc.system", "aws-api")
                .setAttribute("rpc.service", "DynamoDB")
                .setAttribute("rpc.method", call.operation())
                .setAttribute("db.system", "dynamodb")
                .setAttribute(TABLE_NAMES, List.of(table))
                .setAttribute("moviegraph.access_pattern", call.pattern())
                .setAttribute("moviegraph.items", call.items())
                .setAttribute("moviegraph.requests", call.requests())
                .setAttribute("moviegraph.read_units", call.readUnits())
                .setAttribute("moviegraph.write_units", call.writeUnits())
                .setAttribute(CONSUMED, List.of(String.format(Locale.ROOT,
                        "{\"TableName\":\"%s\",\"ReadCapacityUnits\":%s,\"WriteCapacityUnits\":%s}",
                        table, call.readUnits(), call.writeUnits())))
                .startSpan();
        if (!"table".equals(call.index())) {
            child.setAttribute(INDEX_NAME, call.index());
        }
        if (call.key() != null) {
            child.setAttribute("moviegraph.key_condition", call.key());
        }
        if (call.failed()) {
            child.setStatus(StatusCode.ERROR);
        }
        child.end(startEpoch + call.durationNanos(), TimeUnit.NANOSECONDS);
    }

    /** Ends the span; {@code error} marks it failed (a GraphQL error, a failed invocation). */
    public void end(String error) {
        if (span == null) {
            return;
        }
        if (error != null) {
            span.setStatus(StatusCode.ERROR, error);
        }
        span.end();
    }

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
