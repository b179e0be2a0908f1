package dev.moviegraph.graphql.live;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.ChangeFeed;
import dev.moviegraph.graphql.GraphQLAnswer;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.LaterParts;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.TraceMode;
import dev.moviegraph.graphql.budget.ClientBudgets;
import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.wiring.LiveInterest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import graphql.ExecutionResult;
import graphql.language.AstPrinter;
import graphql.language.Definition;
import graphql.language.Document;
import graphql.language.OperationDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operations that stay open, whatever carries them (the WebSocket, an event stream): a query or mutation
 * runs once, its deferred parts ({@code @defer}) each a message after its first; a subscription is read as a query of the live schema at once and again whenever the change
 * feed reports a change to what its last reading depended on ({@link LiveInterest}), and the client gets
 * a new message only when the answer differs. Each reading is a whole request: fresh DataLoaders, the
 * read budget, the time limit, and its own extensions.cost. A subscription never has more than one
 * reading running; changes arriving meanwhile ask for one more reading after it, never a queue.
 */
public final class LiveQueries implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveQueries.class);

    /** Where an operation's messages go. */
    public interface Sink {
        /** A result; for a subscription, a reading that differs from the one before. */
        void next(Map<String, Object> result);

        /** The operation was refused before any result (the GraphQL errors); nothing follows. */
        void error(List<Map<String, Object>> errors);

        /** A single-result operation is done. */
        void complete();

        /** What one reading consumed (every reading, sent or not): its client pays for it. */
        default void consumed(double readUnits) {
        }
    }

    /** A running operation; cancel stops it (the client completed it or went away). */
    public interface Handle {
        void cancel();
    }

    private final GraphQLService service;
    private final ChangeFeed feed;
    private final Set<Subscription> active = ConcurrentHashMap.newKeySet();
    private final Object registration = new Object();
    private ChangeFeed.Registration listening;

    public LiveQueries(GraphQLService service, ChangeFeed feed) {
        this.service = service;
        this.feed = feed;
    }

    /** How many subscriptions are open on this server. */
    public int activeSubscriptions() {
        return active.size();
    }

    /**
     * Starts an operation. A mutation must have been authorised by the caller. The sink is called from
     * other threads, for one subscription never from two at once.
     */
    public Handle start(GraphQLRequest request, Sink sink) {
        OperationDefinition.Operation kind = service.operationKind(request).orElse(null);
        if (kind != OperationDefinition.Operation.SUBSCRIPTION) {
            return once(request, sink);
        }
        GraphQLService.Validated validated = service.validate(request);
        if (!validated.errors().isEmpty()) {
            sink.error(errorsOf(ErrorCodes.toSpecification(ExecutionResult.newExecutionResult()
                    .errors(validated.errors()).build(), false)));
            return () -> { };
        }
        Subscription subscription = new Subscription(asQuery(validated.document(), request), sink);
        subscription.firstReading();
        return subscription::cancel;
    }

    /**
     * A query or mutation: its answer, then (when it defers fragments) each later part as a message of its
     * own, then complete. Parse and validation errors too: the request fails as it would over HTTP, then is
     * reported as refused.
     */
    private Handle once(GraphQLRequest request, Sink sink) {
        CompletableFuture<GraphQLAnswer> answered = service.answer(request.inParts(), TraceMode.OFF);
        AtomicReference<LaterParts> later = new AtomicReference<>();
        AtomicBoolean cancelled = new AtomicBoolean();
        answered.whenComplete((answer, failure) -> {
            if (failure != null) {
                sink.error(List.of(internalError()));
                return;
            }
            Map<String, Object> response = answer.body();
            double first = ClientBudgets.consumed(response);
            sink.consumed(first);
            if (!response.containsKey("data") && response.containsKey("errors")) {
                sink.error(errorsOf(response));
                return;
            }
            sink.next(response);
            if (!answer.inParts()) {
                sink.complete();
                return;
            }
            later.set(answer.later());
            if (cancelled.get()) {
                answer.later().cancel();
                return;
            }
            answer.later().start((part, last) -> {
                sink.next(part);
                if (last) {
                    sink.consumed(Math.max(0, ClientBudgets.consumed(part) - first));
                    sink.complete();
                }
            });
        });
        return () -> {
            cancelled.set(true);
            answered.cancel(false);
            LaterParts parts = later.get();
            if (parts != null) {
                parts.cancel();
            }
        };
    }

    /** The subscription's document with its operation turned into a query of the live schema. */
    private static GraphQLRequest asQuery(Document document, GraphQLRequest request) {
        List<Definition> definitions = new ArrayList<>();
        for (Definition<?> definition : document.getDefinitions()) {
            if (definition instanceof OperationDefinition operation
                    && operation.getOperation() == OperationDefinition.Operation.SUBSCRIPTION) {
                definitions.add(operation.transform(op -> op.operation(OperationDefinition.Operation.QUERY)));
            } else {
                definitions.add(definition);
            }
        }
        String query = AstPrinter.printAstCompact(document.transform(doc -> doc.definitions(definitions)));
        // Each reading is the subscriber's own: the same viewer (their rules, their lists) and trace.
        return new GraphQLRequest(query, request.operationName(), request.variables(), request.traceParent(),
                request.viewer());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> errorsOf(Map<String, Object> response) {
        return (List<Map<String, Object>>) response.get("errors");
    }

    private static Map<String, Object> internalError() {
        return Map.of("message", "The operation failed inside the gateway", "extensions",
                Map.of("code", ErrorType.INTERNAL.name()));
    }

    private void opened(Subscription subscription) {
        active.add(subscription);
        synchronized (registration) {
            if (listening == null) {
                listening = feed.listen(this::changed);
            }
        }
    }

    private void closed(Subscription subscription) {
        active.remove(subscription);
        synchronized (registration) {
            if (active.isEmpty() && listening != null) {
                // Nobody left to tell: the feed stops polling (and gives the stream up) until someone subscribes.
                listening.close();
                listening = null;
            }
        }
    }

    private void changed(CatalogChanges changes) {
        for (Subscription subscription : active) {
            if (subscription.touchedBy(changes)) {
                subscription.readAgain();
            }
        }
    }

    /** Cancels every subscription; their sinks hear nothing more. */
    @Override
    public void close() {
        for (Subscription subscription : List.copyOf(active)) {
            subscription.cancel();
        }
    }

    /** One open subscription: its query form, the interest of its last reading, and the last answer sent. */
    private final class Subscription {
        private final GraphQLRequest query;
        private final Sink sink;
        private LiveInterest interest;
        private Map<String, Object> lastSent;
        private boolean reading;
        private boolean again;
        private boolean cancelled;

        Subscription(GraphQLRequest query, Sink sink) {
            this.query = query;
            this.sink = sink;
        }

        void firstReading() {
            synchronized (this) {
                reading = true;
            }
            // Listening before the first reading: a change during it is read again after it, not missed.
            opened(this);
            read(true);
        }

        synchronized boolean touchedBy(CatalogChanges changes) {
            // Until its first reading is done, any change counts.
            return !cancelled && (interest == null || interest.touchedBy(changes));
        }

        void readAgain() {
            synchronized (this) {
                if (cancelled) {
                    return;
                }
                if (reading) {
                    again = true;
                    return;
                }
                reading = true;
            }
            read(false);
        }

        private void read(boolean first) {
            LiveInterest noted = new LiveInterest();
            service.executeLive(query, noted).whenComplete((response, failure) -> {
                Map<String, Object> answer = failure != null ? Map.of("errors", List.of(internalError())) : response;
                if (failure != null) {
                    LOG.warn("A subscription's reading failed", failure);
                }
                sink.consumed(ClientBudgets.consumed(answer));
                boolean refused = !answer.containsKey("data");
                boolean send;
                synchronized (this) {
                    if (cancelled) {
                        return;
                    }
                    interest = noted;
                    send = lastSent == null || !Objects.equals(lastSent.get("data"), answer.get("data"))
                            || !Objects.equals(lastSent.get("errors"), answer.get("errors"));
                    if (send) {
                        lastSent = answer;
                    }
                }
                if (first && refused) {
                    // Refused as a whole (over the read budget, say): as a query would be, and it ends.
                    cancel();
                    sink.error(errorsOf(answer));
                    return;
                }
                if (send) {
                    sink.next(answer);
                }
                boolean more;
                synchronized (this) {
                    more = again && !cancelled;
                    again = false;
                    reading = more;
                }
                if (more) {
                    read(false);
                }
            });
        }

        void cancel() {
            synchronized (this) {
                cancelled = true;
            }
            closed(this);
        }
    }

    /** For the transport: the errors of a refusal it makes itself, in the shape of the others. */
    public static Map<String, Object> error(ErrorType type, String message) {
        return Map.of("message", message, "extensions", Map.of("code", type.name()));
    }
}
