package dev.moviegraph.graphql;

import graphql.ExecutionResult;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;

/**
 * Notes the name of the operation that really ran in the request's GraphQL context: clients often name
 * their one operation in the document without sending operationName, and metrics want that name.
 */
final class OperationNames extends SimplePerformantInstrumentation {
    static final String KEY = OperationNames.class.getName();

    @Override
    public InstrumentationContext<ExecutionResult> beginExecuteOperation(
            InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
        String name = parameters.getExecutionContext().getOperationDefinition().getName();
        if (name != null) {
            parameters.getExecutionContext().getGraphQLContext().put(KEY, name);
        }
        return super.beginExecuteOperation(parameters, state);
    }
}
