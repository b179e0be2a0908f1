package dev.moviegraph.http;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.budget.ClientBudgets;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.live.LiveQueries;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import graphql.language.OperationDefinition;
import io.javalin.http.Context;

/**
 * GraphQL over server-sent events on /graphql itself, the {@code graphql-sse} protocol's distinct
 * connections mode (its client's default), chosen by {@code Accept: text/event-stream}: one operation per
 * request, each result an {@code event: next} with the result as its data, then {@code event: complete}.
 * A query is one event, or one per part when it defers fragments; a subscription is an event per change,
 * until the client goes away (which frees it at once: the next write fails, and a comment is written every
 * {@link #KEEP_ALIVE_SECONDS} s to find out and to keep proxies from closing an idle stream). The rules are
 * the WebSocket's: the {@code Authorization} header signs in (and the stream ends when its token expires),
 * operations run in {@link LiveQueries}, subscriptions count against MAX_WS_CONNECTIONS with the sockets'
 * own count kept apart, and errors arrive as a result's {@code errors}, as graphql-sse's server sends them.
 */
public final class EventStreamAnswers {
    static final String CONTENT_TYPE = MediaTypes.EVENT_STREAM + "; charset=utf-8";
    static final long KEEP_ALIVE_SECONDS = 10;
    static final String COMPLETE = "event: complete\ndata: \n\n";
    private static final String KEEP_ALIVE = ":\n\n";

    private final GraphQLService service;
    private final LiveQueries live;
    private final boolean subscriptions;
    private final int maxSubscriptions;
    private final JsonAnswers json;
    private final CacheHeaders caching;
    private final ClientBudgets budgets;
    private final AtomicInteger open = new AtomicInteger();
    /** The subscriptions' streams, to end when the server stops. */
    private final Map<ResponseStream, LiveQueries.Handle> streams = new ConcurrentHashMap<>();
    private volatile boolean closing;
    private final ScheduledExecutorService timers =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("moviegraph-sse-timers-"));

    /**
     * @param live             where operations run; one without a change feed when subscriptions are off
     * @param subscriptions    whether subscriptions are on (SUBSCRIPTIONS)
     * @param maxSubscriptions subscriptions open over event streams at once on this server (MAX_WS_CONNECTIONS)
     */
    EventStreamAnswers(GraphQLService service, LiveQueries live, boolean subscriptions, int maxSubscriptions,
                       JsonAnswers json, CacheHeaders caching, ClientBudgets budgets) {
        this.service = service;
        this.live = live;
        this.subscriptions = subscriptions;
        this.maxSubscriptions = maxSubscriptions;
        this.json = json;
        this.caching = caching;
        this.budgets = budgets;
    }

    /** How many subscriptions are open over event streams. */
    public int subscriptions() {
        return open.get();
    }

    /** Runs {@code request} (its viewer verified) and streams its results; completes when the stream is over. */
    CompletableFuture<Void> run(Context ctx, GraphQLRequest request, String client) {
        boolean subscription = service.operationKind(request).orElse(null) == OperationDefinition.Operation.SUBSCRIPTION;
        ResponseStream stream;
        try {
            stream = ResponseStream.open(ctx.res(), CONTENT_TYPE, caching.vary());
        } catch (IOException e) {
            return CompletableFuture.completedFuture(null);
        }
        if (subscription) {
            // Idle between changes: a closed connection is noticed at once, not at the next write (before any byte).
            ClosedConnections.watch(ctx.req(), ctx.res(), stream::fail);
        }
        if (subscription && closing) {
            refuse(stream, ErrorType.UNAVAILABLE, "The server is shutting down; subscribe again");
            return stream.done();
        }
        if (subscription && !subscriptions) {
            refuse(stream, ErrorType.BAD_REQUEST, "Subscriptions are off on this server (SUBSCRIPTIONS)");
            return stream.done();
        }
        if (subscription && open.incrementAndGet() > maxSubscriptions) {
            open.decrementAndGet();
            refuse(stream, ErrorType.LIMIT_EXCEEDED, "Too many subscriptions on this server (MAX_WS_CONNECTIONS);"
                    + " try again later");
            return stream.done();
        }
        LiveQueries.Handle handle = live.start(request.inParts(), new LiveQueries.Sink() {
            @Override
            public void consumed(double readUnits) {
                budgets.charge(client, readUnits);
            }

            @Override
            public void next(Map<String, Object> result) {
                stream.send(event(result));
            }

            @Override
            public void error(List<Map<String, Object>> errors) {
                stream.end(event(Map.of("errors", errors)) + COMPLETE);
            }

            @Override
            public void complete() {
                stream.end(COMPLETE);
            }
        });
        stream.onGone(handle::cancel);
        if (subscription) {
            ScheduledFuture<?> keepAlive = timers.scheduleAtFixedRate(() -> stream.send(KEEP_ALIVE),
                    KEEP_ALIVE_SECONDS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
            ScheduledFuture<?> expiry = expiry(request.viewer(), stream, handle);
            streams.put(stream, handle);
            stream.done().whenComplete((ignored, failure) -> {
                streams.remove(stream);
                open.decrementAndGet();
                keepAlive.cancel(false);
                if (expiry != null) {
                    expiry.cancel(false);
                }
                handle.cancel();
            });
        }
        return stream.done();
    }

    /**
     * Ends every subscription's stream with {@code complete}, as the WebSocket closes its sockets with 1001
     * when the server stops: clients subscribe again, to another replica or to this one once it is back.
     * New subscriptions are refused from now on.
     */
    public void closeAll() {
        closing = true;
        streams.forEach((stream, handle) -> {
            handle.cancel();
            stream.end(COMPLETE);
        });
    }

    /** Ends a subscription when its viewer's token expires, as the WebSocket closes with 4403 then. */
    private ScheduledFuture<?> expiry(Viewer viewer, ResponseStream stream, LiveQueries.Handle handle) {
        if (viewer.expiresAt() == null) {
            return null;
        }
        long left = Math.max(0, viewer.expiresAt().toEpochMilli() - System.currentTimeMillis());
        return timers.schedule(() -> {
            handle.cancel();
            refuse(stream, ErrorType.UNAUTHENTICATED, "The token has expired; subscribe again with a new one");
        }, left, TimeUnit.MILLISECONDS);
    }

    private void refuse(ResponseStream stream, ErrorType code, String message) {
        stream.end(event(JsonAnswers.errors(message, code)) + COMPLETE);
    }

    private String event(Map<String, Object> result) {
        // Jackson writes no line break: the whole result is one data line.
        return "event: next\ndata: " + json.text(result) + "\n\n";
    }
}
