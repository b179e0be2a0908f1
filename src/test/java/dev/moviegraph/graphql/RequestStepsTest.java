package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.PlannedCall;
import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.wiring.GatewaySchema;
import dev.moviegraph.graphql.wiring.Loaders;
import dev.moviegraph.metrics.GatewayMetrics;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import graphql.GraphQL;
import graphql.language.OperationDefinition.Operation;
import org.junit.jupiter.api.Test;

/**
 * Each step of {@link GraphQLService}'s chain does its one job: it answers what is its own to answer and
 * hands the rest on, and a step that answers never reaches the steps after it (the budget's refusal sends
 * nothing; a plan executes nothing).
 */
class RequestStepsTest {
    private static final GraphQLRequest QUERY = new GraphQLRequest("{ movie(id: \"tt0111161\") { title } }", null, Map.of());
    private static final GraphQLRequest SUBSCRIPTION = new GraphQLRequest(
            "subscription { topMoviesChanged(month: \"2024-05\") { streams } }", null, Map.of());

    /** Answers what the steps before it handed on, and remembers the batch. */
    private static final class Rest implements RequestStep.Chain {
        final List<RequestStep.Batch> reached = new ArrayList<>();

        @Override
        public CompletableFuture<List<GraphQLAnswer>> answer(RequestStep.Batch batch) {
            reached.add(batch);
            return CompletableFuture.completedFuture(batch.requests().stream()
                    .map(request -> new GraphQLAnswer(Map.of("data", Map.of("from", "rest")), CachePolicy.NO_STORE)).toList());
        }
    }

    /** The stub catalog, whose every fetch a planning run estimates at {@code unitsPerFetch} read units. */
    private static final class Estimated extends StubCatalogWrapper {
        private final double unitsPerFetch;

        Estimated(double unitsPerFetch) {
            this.unitsPerFetch = unitsPerFetch;
        }

        @Override
        public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
            if (context.planning()) {
                context.planner().record(List.of(new PlannedCall(new AccessPattern("STUB", CatalogAccess.ITEMS_BY_KEY,
                        "BatchGetItem", "table", "pk = stub"), 1, unitsPerFetch)), context);
            }
            return stub.fetch(refs, context);
        }
    }

    private static RequestStep.Batch batch(GraphQL engine, TraceMode mode, List<GraphQLRequest> requests, List<Operation> kinds) {
        return new RequestStep.Batch(engine, false, requests, kinds, mode, System.nanoTime(), null,
                Collections.nCopies(requests.size(), false));
    }

    private static GraphQL engine(CatalogReader catalog) {
        return GraphQL.newGraphQL(GatewaySchema.load(catalog, Clock.systemUTC()).schema()).build();
    }

    private static RequestInputs inputs(double maxReadUnits) {
        QueryLimits defaults = QueryLimits.DEFAULTS;
        QueryLimits limits = new QueryLimits(defaults.maxDepth(), defaults.maxAliases(), defaults.maxTokens(), defaults.maxChars(),
                true, defaults.maxResultNodes(), maxReadUnits, Duration.ofSeconds(15));
        GatewayMetrics metrics = new GatewayMetrics();
        return new RequestInputs(new Loaders(true, metrics), limits, metrics);
    }

    @Test
    void aSubscriptionOverHttpIsRefusedOnItsOwnAndTheRestOfTheBatchGoesOn() {
        Rest rest = new Rest();
        List<GraphQLAnswer> answers = new SubscriptionRefusal().answer(batch(null, TraceMode.OFF,
                List.of(SUBSCRIPTION, QUERY), List.of(Operation.SUBSCRIPTION, Operation.QUERY)), rest).join();

        assertEquals(List.of(List.of(QUERY)), rest.reached.stream().map(RequestStep.Batch::requests).toList());
        assertEquals(SubscriptionRefusal.MESSAGE, ((List<Map<String, Object>>) answers.get(0).body().get("errors")).get(0).get("message"));
        assertEquals(Map.of("from", "rest"), answers.get(1).body().get("data"));
    }

    @Test
    void aPlanIsAnsweredWithoutReachingTheStepsAfterIt() {
        Estimated catalog = new Estimated(0.5);
        Rest rest = new Rest();
        List<GraphQLAnswer> answers = new PlanOnly(catalog, inputs(100)).answer(
                batch(engine(catalog), TraceMode.PLAN, List.of(QUERY), List.of(Operation.QUERY)), rest).join();

        assertTrue(rest.reached.isEmpty());
        assertTrue(catalog.stub.fetches.isEmpty(), "a plan fetches nothing");
        assertNull(answers.get(0).body().get("data"));
        assertEquals(0.5, ((Map<String, Object>) ((Map<String, Object>) answers.get(0).body().get("extensions")).get("plan"))
                .get("readUnits"));
    }

    @Test
    void aQueryOverTheReadBudgetIsRefusedBeforeAnyStepAfterTheEstimate() {
        Estimated catalog = new Estimated(150);
        Rest rest = new Rest();
        List<GraphQLAnswer> answers = new ReadBudgetCheck(catalog, inputs(100), new KnownEstimates(), request -> Optional.empty())
                .answer(batch(engine(catalog), TraceMode.OFF, List.of(QUERY), List.of(Operation.QUERY)), rest).join();

        assertTrue(rest.reached.isEmpty());
        assertTrue(catalog.stub.fetches.isEmpty());
        Map<String, Object> error = ((List<Map<String, Object>>) answers.get(0).body().get("errors")).get(0);
        assertEquals("LIMIT_EXCEEDED", ((Map<String, Object>) error.get("extensions")).get("code"));
    }

    @Test
    void aQueryWithinTheBudgetGoesOnMarkedAsEstimated() {
        Estimated catalog = new Estimated(1);
        Rest rest = new Rest();
        new ReadBudgetCheck(catalog, inputs(100), new KnownEstimates(), request -> Optional.empty())
                .answer(batch(engine(catalog), TraceMode.OFF, List.of(QUERY), List.of(Operation.QUERY)), rest).join();

        assertEquals(1, rest.reached.size());
        assertEquals(List.of(true), rest.reached.get(0).estimated());
    }
}
