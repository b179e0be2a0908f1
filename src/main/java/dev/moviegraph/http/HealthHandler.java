package dev.moviegraph.http;

import dev.moviegraph.catalog.CatalogReader;

import io.javalin.http.Context;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * GET /health: 200 when DynamoDB answers for the table, 503 when it does not, and 503 while the server
 * warms up (WARMUP_SECONDS), so a load balancer sends it no users before it is warm.
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
                .completeOnTimeout(false, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .thenAccept(up -> ctx.status(up ? 200 : 503).contentType("application/json")
                        .result(up ? "{\"status\":\"UP\",\"dynamodb\":\"UP\"}"
                                : "{\"status\":\"DOWN\",\"dynamodb\":\"DOWN\"}")));
    }
}
