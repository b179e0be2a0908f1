package dev.moviegraph.http;

import dev.moviegraph.metrics.GatewayMetrics;

import io.javalin.Javalin;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** The Javalin app: routes only. Built in one place from the handlers it serves. */
public final class HttpServer {
    /** GraphiQL may load only what this server serves; no CDN, no inline script. */
    static final String GRAPHIQL_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            + "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
    private static final Map<String, String> GRAPHIQL_FILES = Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "page.css", "text/css; charset=utf-8");

    private final Javalin app;

    public HttpServer(GraphQLHandler graphql, HealthHandler health, GatewayMetrics metrics, int maxBodyBytes,
                      List<String> corsOrigins) {
        byte[] graphiqlPage = resource("/graphiql/index.html");
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            // Jetty refuses larger bodies before they are read; GraphQLHandler answers 413 with a JSON error.
            config.http.maxRequestSize = maxBodyBytes;
            if (!corsOrigins.isEmpty()) {
                // Only the listed origins; none by default, so a browser page elsewhere cannot call the API.
                config.bundledPlugins.enableCors(cors -> cors.addRule(rule -> {
                    rule.path = "/graphql";
                    rule.allowHost(corsOrigins.get(0), corsOrigins.subList(1, corsOrigins.size()).toArray(String[]::new));
                    rule.maxAge = 600;
                }));
            }
            config.staticFiles.enableWebjars();
            config.routes.post("/graphql", graphql::post);
            config.routes.get("/graphql", graphql::get);
            config.routes.get("/health", health::handle);
            config.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                    .result(metrics.scrape()));
            config.routes.get("/", ctx -> ctx.redirect("/graphiql"));
            config.routes.get("/graphiql", ctx -> ctx.header("Content-Security-Policy", GRAPHIQL_CSP)
                    .contentType("text/html; charset=utf-8").result(graphiqlPage));
            config.routes.get("/graphiql/{file}", HttpServer::graphiqlFile);
        });
    }

    public HttpServer start(int port) {
        app.start(port);
        return this;
    }

    public int port() {
        return app.port();
    }

    public void stop() {
        app.stop();
    }

    private static void graphiqlFile(Context ctx) {
        String file = ctx.pathParam("file");
        String type = GRAPHIQL_FILES.get(file);
        if (type == null) {
            ctx.status(404).result("Not found");
            return;
        }
        ctx.contentType(type).result(resource("/graphiql/" + file));
    }

    private static byte[] resource(String path) {
        try (InputStream in = HttpServer.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
