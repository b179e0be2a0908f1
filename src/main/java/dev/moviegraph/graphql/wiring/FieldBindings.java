package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogAccess;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;

/**
 * Which kind of catalog read each field of the schema may make, declared where its fetcher is wired.
 * An empty set means the field is answered from its parent's item (a cast item's characters). At start
 * the schema is checked against these bindings and the store's access patterns: a field that is bound
 * to nothing, or to a read the store has no access pattern for, stops the server, naming the field.
 */
final class FieldBindings {
    private final Map<FieldCoordinates, Set<CatalogAccess>> reads = new LinkedHashMap<>();

    void bind(String type, String field, Set<CatalogAccess> kinds) {
        reads.put(FieldCoordinates.coordinates(type, field), kinds.isEmpty() ? Set.of() : EnumSet.copyOf(kinds));
    }


    /** Throws, naming every offending field, unless every field of the schema is served by the store. */
    void verify(GraphQLSchema schema, List<AccessPattern> patterns) {
        Set<CatalogAccess> served = patterns.stream().map(AccessPattern::serves)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(CatalogAccess.class)));
        List<String> problems = new ArrayList<>();
        for (GraphQLObjectType type : schema.getAllTypesAsList().stream()
                .filter(GraphQLObjectType.class::isInstance).map(GraphQLObjectType.class::cast)
                .filter(type -> !type.getName().startsWith("__")).toList()) {
            for (GraphQLFieldDefinition field : type.getFieldDefinitions()) {
                FieldCoordinates coordinates = FieldCoordinates.coordinates(type, field);
                Set<CatalogAccess> kinds = reads.get(coordinates);
                if (kinds == null) {
                    problems.add(type.getName() + "." + field.getName()
                            + " is bound to no access pattern (bind it in CatalogWiring, or to its parent's item)");
                    continue;
                }
                for (CatalogAccess kind : kinds) {
                    if (!served.contains(kind)) {
                        problems.add(type.getName() + "." + field.getName() + " needs a " + kind
                                + " access pattern, which the store does not have");
                    }
                }
            }
        }
        for (FieldCoordinates coordinates : reads.keySet()) {
            if (schema.getObjectType(coordinates.getTypeName()) == null
                    || schema.getObjectType(coordinates.getTypeName()).getFieldDefinition(coordinates.getFieldName()) == null) {
                problems.add(coordinates + " is bound but is not in schema.graphqls");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("schema.graphqls does not match the access patterns: "
                    + String.join("; ", problems));
        }
    }
}
