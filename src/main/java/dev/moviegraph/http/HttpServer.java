package dev.moviegraph.http;

import dev.moviegraph.metrics.GatewayMetrics;

import io.javalin.Javalin;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Javalin app: routes only. Built in one place from the handlers it serves. */
public final class HttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
    /** GraphiQL may load only what this server serves; no CDN, no inline script. */
    static final String GRAPHIQL_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            + "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
    private static final Map<String, String> GRAPHIQL_FILES = Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "examples.js", "text/javascript; charset=utf-8",
            "incremental.js", "text/javascript; charset=utf-8",
            "panel.js", "text/javascript; charset=utf-8",
            "page.css", "text/css; charset=utf-8");
    /**
     * GraphiQL's own bundle, from mvnpm's jar of it (META-INF/resources/_static/graphiql/VERSION/). Its jar has no
     * folder entries, which Javalin's static files need, hence a route; the version in the path makes it cacheable
     * as long as the webjars.
     */
    private static final Map<String, String> GRAPHIQL_BUNDLE = Map.of(
            "graphiql.min.js", "text/javascript; charset=utf-8",
            "graphiql.min.css", "text/css; charset=utf-8");
    private static final String BUNDLE_CACHE = "public, max-age=31536000, immutable";

    /** The icon changes with a release at most: a day in any cache. */
    static final String FAVICON_CACHE = "public, max-age=86400";

    private final Javalin app;
    private final GraphQLHandler graphql;
    /** Counts the requests in flight; once stopping, answers 503 to any new one on a connection still open. */
    private final GracefulHandler inFlight = new GracefulHandler();
    private final Duration grace;

    /** @param webSocket GraphQL over WebSocket on the same path, or null when subscriptions are off */
    public HttpServer(GraphQLHandler graphql, GraphQLWebSocket webSocket, HealthHandler health, GatewayMetrics metrics,
                      int maxBodyBytes, List<String> corsOrigins, Duration grace) {
        this.grace = grace;
        this.graphql = graphql;
        byte[] graphiqlPage = resource("/graphiql/index.html");
        byte[] favicon = resource("/graphiql/favicon.ico");
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            // Jetty's graceful stop: close the listener, then wait up to the stop timeout for the requests in
            // flight (async ones too: a request counts until its response is complete) before closing connections.
            // Stateless: no HTTP session, so no JSESSIONID cookie (Javalin's WebSocket upgrade asks for one).
            config.jetty.modifyServletContextHandler(handler -> {
                if (handler.getSessionHandler() != null) {
                    handler.getSessionHandler().setUsingCookies(false);
                }
            });
            config.jetty.modifyServer(server -> {
                server.insertHandler(inFlight);
                server.setStopTimeout(grace.toMillis());
            });
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
            if (webSocket != null) {
                config.routes.ws("/graphql", webSocket::configure);
            }
            config.routes.get("/health", health::handle);
            config.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                    .result(metrics.scrape()));
            config.routes.get("/", ctx -> ctx.redirect("/graphiql"));
            config.routes.get("/graphiql", ctx -> ctx.header("Content-Security-Policy", GRAPHIQL_CSP)
                    .contentType("text/html; charset=utf-8").result(graphiqlPage));
            config.routes.get("/graphiql/{file}", HttpServer::graphiqlFile);
            config.routes.get("/_static/graphiql/{version}/{file}", HttpServer::graphiqlBundle);
            // Browsers ask for it on any page (GraphiQL's too); a 404 is a console error in Chromium.
            config.routes.get("/favicon.ico", ctx -> ctx.header("Cache-Control", FAVICON_CACHE)
                    .contentType("image/x-icon").result(favicon));
            UnreadBodies unread = new UnreadBodies(maxBodyBytes);
            config.routes.after(unread::discard);
        });
    }

    public HttpServer start(int port) {
        app.start(port);
        return this;
    }

    public int port() {
        return app.port();
    }

    /** Ends the subscriptions served as server-sent events, which would otherwise hold the stop for its whole grace. */
    public void endStreams() {
        graphql.events().closeAll();
    }

    /**
     * Stops accepting connections and lets the requests in flight finish within the grace; requests still
     * running after it are cut. Returns once no connection is left.
     */
    public void stop() {
        // Refusing first: Jetty shuts the connector down before the handlers, and a request that came in
        // on an open connection in between would still be served.
        inFlight.shutdown();
        LOG.info("HTTP: closing the listener; {} request(s) in flight get up to {} s to finish",
                inFlight.getCurrentRequestCount(), grace.toSeconds());
        try {
            app.stop();
        } catch (RuntimeException e) {
            // Jetty reports a grace that ran out as a failed stop; the server is stopped all the same.
            if (!causedBy(e, TimeoutException.class)) {
                throw e;
            }
            LOG.warn("HTTP: the {} s grace ran out; the requests still running were cut", grace.toSeconds());
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
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

    private static void graphiqlBundle(Context ctx) {
        String version = ctx.pathParam("version");
        String type = GRAPHIQL_BUNDLE.get(ctx.pathParam("file"));
        InputStream in = type == null || !version.matches("[0-9]+(\\.[0-9]+)*") ? null
                : HttpServer.class.getResourceAsStream("/META-INF/resources/_static/graphiql/" + version + "/"
                        + ctx.pathParam("file"));
        if (in == null) {
            ctx.status(404).result("Not found");
            return;
        }
        ctx.header("Cache-Control", BUNDLE_CACHE).contentType(type).result(in);
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
