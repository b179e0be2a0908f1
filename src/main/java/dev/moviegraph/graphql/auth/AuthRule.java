package dev.moviegraph.graphql.auth;

import java.util.Locale;

import graphql.schema.GraphQLAppliedDirective;
import graphql.schema.GraphQLAppliedDirectiveArgument;
import graphql.schema.GraphQLDirectiveContainer;

/**
 * One {@code @auth} rule of schema.graphqls, as written on a type or a field: who may ask for it. A field's
 * own rule replaces its type's.
 *
 * @param requires the role the viewer needs: {@code VIEWER} (signed in) or {@code EDITOR}
 * @param owner    only the viewer the object belongs to ({@link dev.moviegraph.catalog.Owned}) may read it
 */
public record AuthRule(Requirement requires, boolean owner) {
    static final String DIRECTIVE = "auth";

    /** What {@code requires:} names. */
    public enum Requirement {
        /** A signed-in viewer: a verified token with a subject. */
        VIEWER,
        /** The editor role (the roles claim), or the WRITE_TOKEN. */
        EDITOR
    }

    /** The rule on a type or field, or null when it carries none. */
    static AuthRule of(GraphQLDirectiveContainer container) {
        GraphQLAppliedDirective directive = container.getAppliedDirective(DIRECTIVE);
        if (directive == null) {
            return null;
        }
        GraphQLAppliedDirectiveArgument requires = directive.getArgument("requires");
        GraphQLAppliedDirectiveArgument owner = directive.getArgument("owner");
        Object required = requires == null ? null : requires.getValue();
        Object owned = owner == null ? null : owner.getValue();
        return new AuthRule(required == null ? Requirement.VIEWER
                : Requirement.valueOf(required.toString().toUpperCase(Locale.ROOT)), Boolean.TRUE.equals(owned));
    }
}
