package dev.moviegraph.graphql;

import dev.moviegraph.graphql.auth.AuthRules;
import dev.moviegraph.graphql.auth.Refusal;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.errors.ErrorType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import graphql.language.Document;

/**
 * The schema's {@code @auth} rules, before anything is planned or read: an operation that asks for a field
 * its viewer may not have is answered with one error per refused field (UNAUTHENTICATED or FORBIDDEN) and
 * never runs, so it makes no DynamoDB call; under {@code Moviegraph-Trace: plan} the answer's
 * {@code extensions.plan.refused} lists them with their rules. The other operations of a batch run as they
 * would alone. Persisted and trusted documents arrive here as their text, so the rules hold for them too.
 */
final class AuthorizationCheck implements RequestStep {
    private final AuthRules rules;
    private final Function<GraphQLRequest, Optional<Document>> documents;

    AuthorizationCheck(AuthRules rules, Function<GraphQLRequest, Optional<Document>> documents) {
        this.rules = rules;
        this.documents = documents;
    }

    @Override
    public CompletableFuture<List<GraphQLAnswer>> answer(Batch batch, Chain next) {
        List<List<Refusal>> refused = new ArrayList<>();
        List<Integer> allowed = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            GraphQLRequest request = batch.requests().get(i);
            List<Refusal> refusals = documents.apply(request).map(document -> rules.refusals(
                    batch.engine().getGraphQLSchema(), document, request.operationName(), request.variables(),
                    request.viewer())).orElse(List.of());
            refused.add(refusals);
            if (refusals.isEmpty()) {
                allowed.add(i);
            }
        }
        if (allowed.size() == batch.size()) {
            return next.answer(batch);
        }
        CompletableFuture<List<GraphQLAnswer>> ran = allowed.isEmpty() ? CompletableFuture.completedFuture(List.of())
                : next.answer(batch.only(allowed));
        return ran.thenApply(answered -> {
            List<GraphQLAnswer> answers = new ArrayList<>();
            int at = 0;
            for (int i = 0; i < batch.size(); i++) {
                answers.add(refused.get(i).isEmpty() ? answered.get(at++) : refusal(refused.get(i), batch.mode()));
            }
            return answers;
        });
    }

    /** The answer of a refused operation: an error per field, no data; with a plan, what was refused and why. */
    static GraphQLAnswer refusal(List<Refusal> refusals, TraceMode mode) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("errors", refusals.stream().map(refusal -> Map.of("message", refusal.message(),
                "path", List.of(refusal.path().split("\\.")),
                "extensions", Map.of("code", refusal.code().name()))).toList());
        if (mode == TraceMode.PLAN) {
            Map<String, Object> plan = new LinkedHashMap<>();
            plan.put("calls", 0);
            plan.put("readUnits", 0);
            plan.put("fields", List.of());
            plan.put("refused", refusals.stream().map(refusal -> Map.of("path", refusal.path(), "rule", refusal.rule(),
                    "code", refusal.code().name(), "reason", refusal.message())).toList());
            body.put("extensions", Map.of("plan", plan));
        }
        ErrorType strongest = refusals.stream().anyMatch(r -> r.code() == ErrorType.UNAUTHENTICATED)
                ? ErrorType.UNAUTHENTICATED : ErrorType.FORBIDDEN;
        return new GraphQLAnswer(body, CachePolicy.NO_STORE, strongest);
    }
}
