package dev.moviegraph.graphql.caching;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import graphql.execution.ExecutionStepInfo;
import graphql.schema.GraphQLAppliedDirective;
import graphql.schema.GraphQLAppliedDirectiveArgument;
import graphql.schema.GraphQLCompositeType;
import graphql.schema.GraphQLDirectiveContainer;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;

/**
 * The {@code @cacheControl} hints of schema.graphqls (Apollo Server's directive), and the start-up check
 * that every field needing one has one: every Query field and every field returning an object (or a
 * list of them) must be hinted on itself or on its type, so a new field cannot go out without a thought
 * about how long its answers may be kept. The Subscription root is not checked: its answers go over a
 * WebSocket, never through an HTTP cache.
 */
public final class CacheHints {
    static final String DIRECTIVE = "cacheControl";
    /**
     * Federation's root fields, which schema.graphqls cannot hint: {@code _entities} takes the hints of the
     * entity types it resolves, from its fetcher ({@link CacheControl#atMost}); {@code _service} (the SDL a
     * router reads when it composes) is never kept.
     */
    private static final Set<String> FEDERATION_FIELDS = Set.of("_entities", "_service");

    /** One hint as written; null where an argument was not given. */
    record Hint(Integer maxAge, Boolean priv, boolean inheritMaxAge) {
        static final Hint NONE = new Hint(null, null, false);

        boolean present() {
            return this != NONE;
        }
    }

    /**
     * The static part of one resolved field's policy (Apollo's {@code willResolveField}), before its
     * fetcher may replace the age.
     *
     * @param maxAge         the hinted age, null when none applies
     * @param priv           PRIVATE was hinted
     * @param defaultsToZero without an age by the end, the field counts as 0: it returns an object and
     *                       does not inherit, or it is a root field
     */
    record Start(Integer maxAge, boolean priv, boolean defaultsToZero) {
    }

    private CacheHints() {
    }

    /** Every field that needs a hint and has none, named with what to do. */
    public static List<String> problems(GraphQLSchema schema) {
        List<String> problems = new ArrayList<>();
        GraphQLObjectType subscription = schema.getSubscriptionType();
        for (GraphQLNamedType named : schema.getAllTypesAsList()) {
            if (!(named instanceof GraphQLFieldsContainer type) || named.getName().startsWith("__")
                    || (subscription != null && subscription.getName().equals(named.getName()))) {
                continue;
            }
            boolean root = type == schema.getQueryType();
            for (GraphQLFieldDefinition field : type.getFieldDefinitions()) {
                if (root && FEDERATION_FIELDS.contains(field.getName())) {
                    continue;
                }
                GraphQLNamedType returned = (GraphQLNamedType) GraphQLTypeUtil.unwrapAll(field.getType());
                boolean composite = returned instanceof GraphQLCompositeType;
                if ((root || composite) && !hint(field).present()
                        && !(composite && hint((GraphQLDirectiveContainer) returned).present())) {
                    problems.add(type.getName() + "." + field.getName() + " has no @" + DIRECTIVE + " hint"
                            + (composite ? " (put one on the field or on its type " + returned.getName() + ")"
                            : " (put one on the field)"));
                }
            }
        }
        return problems;
    }

    /**
     * The policy of an object type's own hint, for a field that resolves to it without saying so
     * statically (a router's {@code _entities}): its maxAge (0 without one) and its scope.
     */
    public static CachePolicy ofType(GraphQLDirectiveContainer type) {
        Hint hint = hint(type);
        return new CachePolicy(hint.maxAge() == null ? 0 : hint.maxAge(), Boolean.TRUE.equals(hint.priv()));
    }

    /** Apollo's rules for one field: the type's hint, then the field's own, which takes precedence. */
    static Start start(ExecutionStepInfo step) {
        GraphQLNamedType returned = (GraphQLNamedType) GraphQLTypeUtil.unwrapAll(step.getType());
        Integer maxAge = null;
        boolean priv = false;
        boolean inherit = false;
        boolean composite = returned instanceof GraphQLCompositeType;
        if (composite) {
            Hint type = hint((GraphQLDirectiveContainer) returned);
            maxAge = type.maxAge();
            priv = Boolean.TRUE.equals(type.priv());
            inherit = type.inheritMaxAge();
        }
        Hint field = hint(step.getFieldDefinition());
        if (field.inheritMaxAge() && maxAge == null) {
            // the field's own maxAge is ignored, as Apollo does; its scope still counts
            inherit = true;
        } else if (field.maxAge() != null) {
            maxAge = field.maxAge();
        }
        if (field.priv() != null) {
            priv = field.priv();
        }
        boolean rootField = step.getPath().getParent() == null || step.getPath().getParent().isRootPath();
        return new Start(maxAge, priv, (composite && !inherit) || rootField);
    }

    private static Hint hint(GraphQLDirectiveContainer element) {
        GraphQLAppliedDirective directive = element.getAppliedDirective(DIRECTIVE);
        if (directive == null) {
            return Hint.NONE;
        }
        GraphQLAppliedDirectiveArgument scope = directive.getArgument("scope");
        GraphQLAppliedDirectiveArgument inherit = directive.getArgument("inheritMaxAge");
        GraphQLAppliedDirectiveArgument maxAge = directive.getArgument("maxAge");
        String scopeName = scope != null && scope.hasSetValue() ? scope.getValue() : null;
        boolean inherits = inherit != null && inherit.hasSetValue() && Boolean.TRUE.equals(inherit.getValue());
        // with inheritMaxAge a maxAge written beside it is ignored, as Apollo ignores it
        return new Hint(!inherits && maxAge != null && maxAge.hasSetValue() ? maxAge.<Integer>getValue() : null,
                scopeName == null ? null : scopeName.equals("PRIVATE"), inherits);
    }
}
