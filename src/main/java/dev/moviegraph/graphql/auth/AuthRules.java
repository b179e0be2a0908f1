package dev.moviegraph.graphql.auth;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.Owned;
import dev.moviegraph.graphql.errors.ErrorType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import graphql.GraphqlErrorBuilder;
import graphql.analysis.QueryTraverser;
import graphql.analysis.QueryVisitorFieldEnvironment;
import graphql.analysis.QueryVisitorStub;
import graphql.execution.DataFetcherResult;
import graphql.language.Document;
import graphql.schema.DataFetcher;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLDirectiveContainer;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;

/**
 * The {@code @auth} rules of schema.graphqls and where they are enforced:
 * <ul>
 * <li>at start-up, {@link #problems}: every mutation, and every field returning a type that carries a rule
 * (what belongs to a viewer), must carry a rule itself or stand on a type with one; the server does not
 * start otherwise, naming the field;</li>
 * <li>before execution, {@link #refusals}: every field an operation selects (through fragments, as
 * {@code @skip}/{@code @include} leave it) is checked against the viewer's sign-in and roles, so a refused
 * operation makes no DynamoDB call;</li>
 * <li>while executing, {@link #enforceOwners}: the fields of an owned type answer only the viewer the
 * object belongs to ({@link Owned}), checked before the field's fetcher runs; an object that does not say
 * whose it is is refused too (closed by default).</li>
 * </ul>
 * A field's own rule replaces its type's; a field without either is public.
 */
public final class AuthRules {
    /** What the refusals tell a client to do: it depends on how this deployment lets people in. */
    private final AccessPolicy policy;

    public AuthRules(AccessPolicy policy) {
        this.policy = policy;
    }

    /** How this deployment lets people in: whether anyone can become an editor, and sign-in is on. */
    public record AccessPolicy(boolean writeTokenSet, boolean signInOn) {
        public static final AccessPolicy SANDBOX = new AccessPolicy(false, false);
    }

    /** The rule that applies to a field of {@code parent}: its own, else its type's; null for a public field. */
    public static AuthRule ruleOf(GraphQLFieldsContainer parent, GraphQLFieldDefinition field) {
        AuthRule own = AuthRule.of(field);
        return own != null ? own : parent instanceof GraphQLDirectiveContainer container ? AuthRule.of(container) : null;
    }

    /** Every field that should carry a rule and does not, named with what to do. */
    public static List<String> problems(GraphQLSchema schema) {
        List<String> problems = new ArrayList<>();
        GraphQLObjectType mutation = schema.getMutationType();
        for (GraphQLNamedType named : schema.getAllTypesAsList()) {
            if (!(named instanceof GraphQLFieldsContainer type) || named.getName().startsWith("__")) {
                continue;
            }
            for (GraphQLFieldDefinition field : type.getFieldDefinitions()) {
                if (ruleOf(type, field) != null) {
                    continue;
                }
                GraphQLNamedType returned = (GraphQLNamedType) GraphQLTypeUtil.unwrapAll(field.getType());
                if (mutation != null && mutation.getName().equals(type.getName())) {
                    problems.add(type.getName() + "." + field.getName() + " has no @auth rule: every mutation needs"
                            + " one (on the field or on " + type.getName() + ")");
                } else if (returned instanceof GraphQLDirectiveContainer container && AuthRule.of(container) != null) {
                    problems.add(type.getName() + "." + field.getName() + " returns " + returned.getName()
                            + ", which carries an @auth rule, and has none itself: put one on the field");
                }
            }
        }
        return problems;
    }

    /**
     * The schema with the owner checks in front of the fetchers of every field an owner rule applies to
     * (the rule of the field, or of its type).
     */
    public static GraphQLSchema enforceOwners(GraphQLSchema schema) {
        GraphQLCodeRegistry registry = schema.getCodeRegistry();
        GraphQLCodeRegistry.Builder wrapped = GraphQLCodeRegistry.newCodeRegistry(registry);
        boolean any = false;
        for (GraphQLNamedType named : schema.getAllTypesAsList()) {
            if (!(named instanceof GraphQLObjectType type) || named.getName().startsWith("__")) {
                continue;
            }
            for (GraphQLFieldDefinition field : type.getFieldDefinitions()) {
                AuthRule rule = ruleOf(type, field);
                if (rule != null && rule.owner()) {
                    FieldCoordinates coordinates = FieldCoordinates.coordinates(type, field);
                    wrapped.dataFetcher(coordinates, ownerOnly(type.getName() + "." + field.getName(),
                            registry.getDataFetcher(coordinates, field)));
                    any = true;
                }
            }
        }
        return any ? schema.transform(builder -> builder.codeRegistry(wrapped.build())) : schema;
    }

    private static DataFetcher<?> ownerOnly(String field, DataFetcher<?> fetcher) {
        return env -> {
            Viewer viewer = env.getGraphQlContext().get(Viewer.class);
            Object source = env.getSource();
            String owner = source instanceof Owned owned ? owned.ownerId() : null;
            if (viewer != null && viewer.signedIn() && owner != null && owner.equals(viewer.subject())) {
                return fetcher.get(env);
            }
            boolean anonymous = viewer == null || !viewer.signedIn();
            return DataFetcherResult.newResult().error(GraphqlErrorBuilder.newError(env)
                    .message(anonymous ? field + " belongs to a signed-in viewer: send Authorization: Bearer <token>"
                            : field + " belongs to another viewer; only its owner may read it")
                    .errorType(anonymous ? ErrorType.UNAUTHENTICATED : ErrorType.FORBIDDEN).build()).build();
        };
    }

    /**
     * What {@code viewer} may not ask for in this operation, in document order: nothing when it may run.
     * A document that does not validate (or variables that do not coerce) has no refusals here: execution
     * refuses it before running any field.
     */
    public List<Refusal> refusals(GraphQLSchema schema, Document document, String operationName,
                                  Map<String, Object> variables, Viewer viewer) {
        List<Refusal> refusals = new ArrayList<>();
        Map<String, Refusal> seen = new LinkedHashMap<>();
        try {
            QueryTraverser.newQueryTraverser().schema(schema).document(document).operationName(operationName)
                    .variables(variables).build().visitPreOrder(new QueryVisitorStub() {
                        @Override
                        public void visitField(QueryVisitorFieldEnvironment env) {
                            if (env.isTypeNameIntrospectionField() || env.getFieldDefinition() == null) {
                                return;
                            }
                            AuthRule rule = ruleOf(env.getFieldsContainer(), env.getFieldDefinition());
                            Refusal refusal = rule == null ? null : check(rule, path(env), env.getFieldsContainer()
                                    .getName() + "." + env.getFieldDefinition().getName(), viewer);
                            if (refusal != null) {
                                seen.putIfAbsent(refusal.path(), refusal);
                            }
                        }
                    });
        } catch (RuntimeException e) {
            // Not valid, or its variables do not coerce: execution answers with exactly that, running nothing.
            return List.of();
        }
        refusals.addAll(seen.values());
        return refusals;
    }

    private Refusal check(AuthRule rule, String path, String field, Viewer viewer) {
        String written = rule.owner() ? "@auth(owner: true)" : "@auth(requires: " + rule.requires() + ")";
        if (rule.owner() || rule.requires() == AuthRule.Requirement.VIEWER) {
            if (viewer.signedIn()) {
                return null;
            }
            if (!policy.signInOn()) {
                return new Refusal(path, written, ErrorType.FORBIDDEN, field + " needs a signed-in viewer, and"
                        + " sign-in is off on this server (set OIDC_ISSUER and OIDC_AUDIENCE to turn it on)");
            }
            return new Refusal(path, written, ErrorType.UNAUTHENTICATED, field + " needs a signed-in viewer: send"
                    + " Authorization: Bearer <access token from the sign-in provider>");
        }
        if (viewer.hasRole(Viewer.EDITOR)) {
            return null;
        }
        if (viewer.authenticated()) {
            return new Refusal(path, written, ErrorType.FORBIDDEN, field + " needs the role '" + Viewer.EDITOR
                    + "', which this viewer's token does not list");
        }
        if (!policy.writeTokenSet() && !policy.signInOn()) {
            return new Refusal(path, written, ErrorType.FORBIDDEN, "Writes are disabled: set WRITE_TOKEN (or"
                    + " OIDC_ISSUER, for editors who sign in) on the server to allow mutations against this DynamoDB");
        }
        return new Refusal(path, written, ErrorType.UNAUTHENTICATED, field + " needs an editor: send Authorization:"
                + " Bearer <token>, a signed-in editor's token" + (policy.writeTokenSet() ? " or the server's WRITE_TOKEN" : ""));
    }

    /** The field's place in the operation, by response keys (aliases where given). */
    private static String path(QueryVisitorFieldEnvironment env) {
        List<String> keys = new ArrayList<>();
        for (QueryVisitorFieldEnvironment at = env; at != null; at = at.getParentEnvironment()) {
            keys.add(0, at.getField().getResultKey());
        }
        return String.join(".", keys);
    }
}
