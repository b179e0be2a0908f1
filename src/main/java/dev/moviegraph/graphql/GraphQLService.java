package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CatalogReader;

import graphql.ErrorClassification;
import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.execution.instrumentation.dataloader.DataLoaderDispatchingContextKeys;
import graphql.language.Document;
import graphql.language.OperationDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The schema, built once from schema.graphqls, and the execution of one request: each request gets a
 * fresh DataLoader registry, so batching and caching never leak between requests.
 */
public final class GraphQLService {
    private final GraphQL graphQL;
    private final Loaders loaders;

    public GraphQLService(CatalogReader catalog) {
        GraphQLSchema schema = new SchemaGenerator().makeExecutableSchema(readSchema(), new CatalogWiring(catalog).build());
        this.graphQL = GraphQL.newGraphQL(schema).defaultDataFetcherExceptionHandler(new ErrorHandler()).build();
        this.loaders = new Loaders(catalog);
    }

    public CompletableFuture<Map<String, Object>> execute(GraphQLRequest request) {
        ExecutionInput input = ExecutionInput.newExecutionInput()
                .query(request.query())
                .operationName(request.operationName())
                .variables(request.variables())
                .dataLoaderRegistry(loaders.newRegistry())
                .graphQLContext(context -> context.put(DataLoaderDispatchingContextKeys.ENABLE_DATA_LOADER_CHAINING, true))
                .build();
        return graphQL.executeAsync(input).thenApply(GraphQLService::toSpecification);
    }

    /**
     * The kind of operation a request would run (query, mutation...), or empty when the document does
     * not parse or does not name one operation unambiguously; execution then reports the exact error.
     */
    public Optional<OperationDefinition.Operation> operationKind(GraphQLRequest request) {
        try {
            Document document = Parser.parse(request.query());
            List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
            return operations.stream()
                    .filter(op -> request.operationName() == null ? operations.size() == 1
                            : request.operationName().equals(op.getName()))
                    .findFirst()
                    .map(OperationDefinition::getOperation);
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }

    /** The spec-shaped result, where every error has an {@code extensions.code}. */
    private static Map<String, Object> toSpecification(ExecutionResult result) {
        if (result.getErrors().isEmpty()) {
            return result.toSpecification();
        }
        List<GraphQLError> coded = result.getErrors().stream().map(GraphQLService::withCode).toList();
        return result.transform(builder -> builder.errors(coded)).toSpecification();
    }

    private static GraphQLError withCode(GraphQLError error) {
        if (error.getExtensions() != null && error.getExtensions().containsKey("code")) {
            return error;
        }
        ErrorClassification type = error.getErrorType();
        ErrorType code = type == graphql.ErrorType.InvalidSyntax ? ErrorType.GRAPHQL_PARSE_FAILED
                : type == graphql.ErrorType.ValidationError ? ErrorType.GRAPHQL_VALIDATION_FAILED
                : ErrorType.INTERNAL;
        Map<String, Object> extensions = new HashMap<>();
        if (error.getExtensions() != null) {
            extensions.putAll(error.getExtensions());
        }
        extensions.put("code", code.name());
        return GraphqlErrorBuilder.newError()
                .message(error.getMessage())
                .locations(error.getLocations())
                .path(error.getPath())
                .errorType(code)
                .extensions(extensions)
                .build();
    }

    private static TypeDefinitionRegistry readSchema() {
        try (InputStream in = GraphQLService.class.getResourceAsStream("/schema.graphqls")) {
            if (in == null) {
                throw new IllegalStateException("schema.graphqls is missing from the classpath");
            }
            return new SchemaParser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
