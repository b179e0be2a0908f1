package dev.moviegraph.graphql;

import dev.moviegraph.graphql.wiring.EngineTurns;
import dev.moviegraph.graphql.wiring.LiveInterest;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.language.OperationDefinition;

/**
 * One single-purpose step of answering a request, as spring-graphql's interceptors are: it answers the
 * batch itself (a refusal, a plan) or hands it, maybe changed, to the rest of the chain. {@link GraphQLService}
 * runs them in order: {@link SubscriptionRefusal}, {@link PlanOnly}, {@link ReadBudgetCheck}, then
 * {@link Execution}, which ends every chain.
 */
interface RequestStep {

    CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next);

    /** The steps after this one. */
    @FunctionalInterface
    interface Chain {
        CompletableFuture<List<GraphQLAnswer>> answer(Batch batch);
    }

    /**
     * Operations sent together (one alone is a batch of one), answered in their order.
     *
     * @param engine    the schema they run on: HTTP's, or the live one a subscription's readings run on
     * @param kinds     each one's operation, null when its document does not name one (execution says why)
     * @param start     when the request arrived ({@link System#nanoTime})
     * @param interest  what a subscription's reading depends on; null for a request
     * @param estimated which were estimated first, so their documents were looked up already
     */
    record Batch(GraphQL engine, boolean live, List<GraphQLRequest> requests, List<OperationDefinition.Operation> kinds,
                 TraceMode mode, long start, LiveInterest interest, List<Boolean> estimated) {
        public Batch {
            requests = List.copyOf(requests);
            kinds = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(kinds));
            estimated = List.copyOf(estimated);
        }

        int size() {
            return requests.size();
        }

        boolean isQuery(int i) {
            return kinds.get(i) == OperationDefinition.Operation.QUERY;
        }

        /**
         * Runs {@code input} on the engine, starting in its request's turn ({@link EngineTurns}): answers that
         * arrive meanwhile, or are there at once (a planning run's), wait until the start is done.
         */
        CompletableFuture<ExecutionResult> execute(ExecutionInput input) {
            EngineTurns turns = input.getGraphQLContext().get(EngineTurns.class);
            return turns.start(() -> engine.executeAsync(input));
        }

        /** The same operations, the estimated ones marked. */
        Batch estimated(List<Boolean> estimated) {
            return new Batch(engine, live, requests, kinds, mode, start, interest, estimated);
        }

        /** Only the operations at {@code kept} (in order): the rest are answered by the step that leaves them out. */
        Batch only(List<Integer> kept) {
            return new Batch(engine, live, kept.stream().map(requests::get).toList(),
                    kept.stream().map(kinds::get).toList(), mode, start, interest,
                    kept.stream().map(estimated::get).toList());
        }
    }
}
