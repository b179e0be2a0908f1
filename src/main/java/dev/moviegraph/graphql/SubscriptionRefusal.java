package dev.moviegraph.graphql;

import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.errors.ErrorType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import graphql.language.OperationDefinition;

/** A subscription over HTTP is refused on its own; the other operations of a batch run as they would. */
final class SubscriptionRefusal implements RequestStep {
    static final String MESSAGE = "Subscriptions are served over WebSocket at this same path, with the"
            + " graphql-transport-ws protocol (graphql-ws, Apollo Client's GraphQLWsLink), or as server-sent events"
            + " (Accept: text/event-stream, graphql-sse), not as one JSON answer";

    @Override
    public CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next) {
        List<Integer> runnable = IntStream.range(0, batch.size())
                .filter(i -> batch.kinds().get(i) != OperationDefinition.Operation.SUBSCRIPTION).boxed().toList();
        if (runnable.size() == batch.size()) {
            return next.answer(batch);
        }
        return next.answer(batch.only(runnable)).thenApply(answered -> {
            List<GraphQLAnswer> answers = new ArrayList<>();
            int answeredAt = 0;
            for (int i = 0; i < batch.size(); i++) {
                answers.add(runnable.contains(i) ? answered.get(answeredAt++) : new GraphQLAnswer(Map.of("errors", List.of(Map.of(
                        "message", MESSAGE, "extensions", Map.of("code", ErrorType.BAD_REQUEST.name())))),
                        CachePolicy.NO_STORE));
            }
            return answers;
        });
    }
}
