package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import graphql.schema.DataFetchingFieldSelectionSet;
import graphql.schema.SelectedField;

/**
 * Looks at what a query selects under a movie or a person and decides which parts of its collection to
 * read together with the item itself, so the store can answer the whole selection with its cheapest
 * requests (one Query for a movie with its crew and first cast page, say).
 */
final class ReadPlans {
    private ReadPlans() {
    }

    /**
     * The slices of the selected list fields, each selected exactly once with valid arguments (aliases
     * with different arguments are each read on their own later, which stays correct, just not
     * prefetched; a bad argument is reported by the field's own fetcher, at its own path). Only fields
     * selected on one of {@code types} count: under an interface ({@code node}) a field may be selected
     * for one type only ({@code ... on Movie { cast }}), and another type may have a field of that name.
     */
    static Map<Part, Slice> prefetch(DataFetchingFieldSelectionSet selection, Set<String> types,
                                     List<ListField> fields) {
        Map<Part, Slice> parts = new EnumMap<>(Part.class);
        for (ListField field : fields) {
            List<SelectedField> selected = selection.getImmediateFields().stream()
                    .filter(f -> f.getName().equals(field.field()))
                    .filter(f -> f.getObjectTypeNames().stream().anyMatch(types::contains)).toList();
            if (selected.isEmpty()
                    || Set.copyOf(selected.stream().map(SelectedField::getArguments).toList()).size() != 1) {
                continue;
            }
            try {
                parts.put(field.part(), field.slice().apply(
                        ListField.withDefaults(selected.get(0).getFieldDefinitions().get(0), selected.get(0).getArguments())));
            } catch (InvalidInputException e) {
                // the field's own fetcher reports it
            }
        }
        return parts;
    }
}
