package dev.moviegraph.http;

import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.StoreStatus;

import io.javalin.http.Context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * GET /health: 200 when DynamoDB answers for the table and the gateway sends it queries, 503 with the
 * reason when not (no answer, or the outage breaker still refusing calls: /health and queries agree), and
 * 503 while the server warms up (WARMUP_SECONDS), so a load balancer sends it no users before it is warm.
 * Its DescribeTable is a probe: when DynamoDB is back, a health check closes the breaker.
 */
public final class HealthHandler {
    private static final long TIMEOUT_SECONDS = 3;

    private final CatalogReader catalog;
    private final BooleanSupplier warmingUp;

    public HealthHandler(CatalogReader catalog, BooleanSupplier warmingUp) {
        this.catalog = catalog;
        this.warmingUp = warmingUp;
    }

    public void handle(Context ctx) {
        if (warmingUp.getAsBoolean()) {
            ctx.status(503).contentType("application/json").result("{\"status\":\"WARMING_UP\"}");
            return;
        }
        ctx.future(() -> catalog.ping()
                .completeOnTimeout(StoreStatus.down("DynamoDB did not answer DescribeTable within " + TIMEOUT_SECONDS
                        + " s"), TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .thenAccept(status -> ctx.status(status.serving() ? 200 : 503).json(body(status))));
    }

    private static Map<String, String> body(StoreStatus status) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("status", status.serving() ? "UP" : "DOWN");
        body.put("dynamodb", status.serving() ? "UP" : "DOWN");
        if (!status.serving()) {
            body.put("reason", status.reason());
        }
        return body;
    }
}
