package dev.moviegraph.graphql;

import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.wiring.EngineTurns;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionResult;
import graphql.analysis.MaxQueryDepthInstrumentation;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;
import graphql.execution.instrumentation.parameters.InstrumentationFieldFetchParameters;
import graphql.execution.instrumentation.parameters.InstrumentationFieldParameters;
import graphql.language.Document;
import graphql.schema.DataFetcher;
import graphql.schema.LightDataFetcher;

/**
 * The gateway's instrumentations as one: the depth and deferred-fragment limits and the operation's name when an operation
 * starts, the cache hints as each field starts, and each fetcher's future answered in the request's
 * {@link EngineTurns}. graphql-java's {@code ChainedInstrumentation} calls every
 * member on every hook of every field and allocates a list of their contexts each time
 * (graphql-java#3090, #3436); only one of ours looks at fields at all.
 */
final class GatewayInstrumentation extends SimplePerformantInstrumentation {
    private final MaxQueryDepthInstrumentation depth;
    private final OperationNames names = new OperationNames();
    private final CacheControl cacheControl = new CacheControl();
    private final DeferLimit defers;
    private final int maxDepth;
    /**
     * Each document's {@link DepthBound}, by identity: the document cache hands every request of a document
     * the same instance, so graphql-java's walk of the whole document per request (about 1% of a warm
     * {@code movie(id)}'s CPU) runs only for documents that could be too deep.
     */
    private final Cache<Document, Integer> depthBounds = Caffeine.newBuilder().weakKeys().maximumSize(10_000).build();

    GatewayInstrumentation(int maxDepth, int maxDeferred) {
        this.maxDepth = maxDepth;
        this.depth = new MaxQueryDepthInstrumentation(maxDepth);
        this.defers = new DeferLimit(maxDeferred);
    }

    @Override
    public InstrumentationContext<ExecutionResult> beginExecuteOperation(
            InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
        if (depthBounds.get(parameters.getExecutionContext().getDocument(), DepthBound::of) > maxDepth) {
            depth.beginExecuteOperation(parameters, state);
        }
        defers.check(parameters.getExecutionContext());
        return names.beginExecuteOperation(parameters, state);
    }

    @Override
    public InstrumentationContext<Object> beginFieldExecution(InstrumentationFieldParameters parameters,
                                                              InstrumentationState state) {
        return cacheControl.beginFieldExecution(parameters, state);
    }

    @Override
    public DataFetcher<?> instrumentDataFetcher(DataFetcher<?> fetcher, InstrumentationFieldFetchParameters parameters,
                                                InstrumentationState state) {
        // A property's fetcher answers at once; only a fetcher that can return a future needs its turn.
        if (parameters.isTrivialDataFetcher() || fetcher instanceof LightDataFetcher<?>) {
            return fetcher;
        }
        EngineTurns turns = parameters.getExecutionContext().getGraphQLContext().get(EngineTurns.class);
        return turns == null ? fetcher : env -> turns.inTurn(fetcher.get(env));
    }
}
