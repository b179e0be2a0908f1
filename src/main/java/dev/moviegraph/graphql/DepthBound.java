package dev.moviegraph.graphql;

import java.util.HashMap;
import java.util.Map;

import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;

/**
 * The depth of a document's deepest field over all its operations, every field counted whatever its
 * {@code @skip} and {@code @include} turn out to be: a bound that the depth graphql-java's limit computes
 * for one run (root fields at depth 1, fragments adding none) never exceeds. A document within the limit by
 * this bound needs no walk of its own per request; only one past it is checked exactly, with its variables.
 */
final class DepthBound {
    private final Map<String, FragmentDefinition> fragments = new HashMap<>();
    /** Each fragment's depth, once worked out; a validated document has no fragment cycles. */
    private final Map<String, Integer> fragmentDepths = new HashMap<>();

    private DepthBound(Document document) {
        document.getDefinitionsOfType(FragmentDefinition.class).forEach(fragment -> fragments.put(fragment.getName(), fragment));
    }

    static int of(Document document) {
        DepthBound bound = new DepthBound(document);
        int deepest = 0;
        for (OperationDefinition operation : document.getDefinitionsOfType(OperationDefinition.class)) {
            deepest = Math.max(deepest, bound.depth(operation.getSelectionSet()));
        }
        return deepest;
    }

    private int depth(SelectionSet selections) {
        if (selections == null) {
            return 0;
        }
        int deepest = 0;
        for (Selection<?> selection : selections.getSelections()) {
            if (selection instanceof Field field) {
                deepest = Math.max(deepest, 1 + depth(field.getSelectionSet()));
            } else if (selection instanceof InlineFragment inline) {
                deepest = Math.max(deepest, depth(inline.getSelectionSet()));
            } else if (selection instanceof FragmentSpread spread) {
                deepest = Math.max(deepest, fragmentDepth(spread.getName()));
            }
        }
        return deepest;
    }

    private int fragmentDepth(String name) {
        Integer known = fragmentDepths.get(name);
        if (known != null) {
            return known;
        }
        FragmentDefinition fragment = fragments.get(name);
        // Marked before the walk, so that a cycle (which validation refuses first) ends instead of recursing.
        fragmentDepths.put(name, 0);
        int depth = fragment == null ? 0 : depth(fragment.getSelectionSet());
        fragmentDepths.put(name, depth);
        return depth;
    }
}
