package dev.moviegraph.http;

import dev.moviegraph.catalog.CatalogReader;

import io.javalin.http.Context;

import java.util.concurrent.TimeUnit;

/** GET /health: 200 when DynamoDB answers for the table, 503 when it does not. */
public final class HealthHandler {
    private static final long TIMEOUT_SECONDS = 3;

    private final CatalogReader catalog;

    public HealthHandler(CatalogReader catalog) {
        this.catalog = catalog;
    }

    public void handle(Context ctx) {
        ctx.future(() -> catalog.ping()
                .completeOnTimeout(false, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .thenAccept(up -> ctx.status(up ? 200 : 503).contentType("application/json")
                        .result(up ? "{\"status\":\"UP\",\"dynamodb\":\"UP\"}"
                                : "{\"status\":\"DOWN\",\"dynamodb\":\"DOWN\"}")));
    }
}
