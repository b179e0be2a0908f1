package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a parsed KeyConditionExpression into the key lookup it describes. DynamoDB parses key conditions with
 * the condition grammar, then accepts only {@code key = :v} (either side), the other comparators except
 * {@code <>}, BETWEEN and begins_with, each on a top-level key attribute, joined by AND: one condition that names
 * the partition key with {@code =}, and at most one more on the sort key. The checks run in DynamoDB's order,
 * over the tree depth first, with its messages.
 */
final class KeyConditions {
    /** One accepted condition on one attribute. */
    private record Leaf(SortCondition.Op op, Value low, Value high) {
    }

    private final Map<String, Leaf> leaves = new LinkedHashMap<>();

    private KeyConditions() {
    }

    static KeyCondition of(Check root, String partitionKey, String sortKey) {
        KeyConditions conditions = new KeyConditions();
        conditions.walk(root);
        return conditions.toKeyCondition(partitionKey, sortKey);
    }

    private void walk(Check check) {
        if (check instanceof Check.And and) {
            for (Check part : and.parts()) {
                walk(part);
            }
        } else if (check instanceof Check.Or) {
            throw invalidOperator("OR");
        } else if (check instanceof Check.Not) {
            throw invalidOperator("NOT");
        } else if (check instanceof Check.In) {
            throw invalidOperator("IN");
        } else if (check instanceof Check.Exists) {
            throw invalidOperator("attribute_exists");
        } else if (check instanceof Check.NotExists) {
            throw invalidOperator("attribute_not_exists");
        } else if (check instanceof Check.TypeIs) {
            throw invalidOperator("attribute_type");
        } else if (check instanceof Check.Contains) {
            throw invalidOperator("contains");
        } else if (check instanceof Check.Compare compare) {
            if (compare.relation() == Relation.NE) {
                throw invalidOperator("<>");
            }
            List<Operand> operands = List.of(compare.left(), compare.right());
            String name = keyName(operands);
            boolean keyFirst = compare.left() instanceof Operand.PathRef;
            Relation relation = keyFirst ? compare.relation() : compare.relation().flipped();
            Value value = literal(keyFirst ? compare.right() : compare.left());
            add(name, new Leaf(SortCondition.of(relation), value, null));
        } else if (check instanceof Check.Between between) {
            requireKeyFirst("BETWEEN", between.subject());
            String name = keyName(List.of(between.subject(), between.low(), between.high()));
            add(name, new Leaf(SortCondition.Op.BETWEEN, literal(between.low()), literal(between.high())));
        } else if (check instanceof Check.BeginsWith beginsWith) {
            requireKeyFirst("begins_with", beginsWith.subject());
            String name = keyName(List.of(beginsWith.subject(), beginsWith.prefix()));
            add(name, new Leaf(SortCondition.Op.BEGINS_WITH, literal(beginsWith.prefix()), null));
        } else {
            throw new IllegalStateException("unexpected key condition node " + check);
        }
    }

    /** The one top-level attribute a condition's operands name; the others must be :values. */
    private static String keyName(List<Operand> operands) {
        String name = null;
        for (Operand operand : operands) {
            if (operand instanceof Operand.PathRef ref) {
                if (name != null) {
                    throw ApiException.validation(
                            "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
                }
                if (ref.path().nested()) {
                    throw ApiException.validation("KeyConditionExpressions cannot have conditions on nested attributes");
                }
                name = ref.path().top();
            } else if (operand instanceof Operand.Size) {
                throw ApiException.validation("KeyConditionExpressions cannot contain nested operations");
            }
        }
        if (name == null) {
            throw ApiException.validation("Invalid condition in KeyConditionExpression: No key attribute specified");
        }
        return name;
    }

    private static void requireKeyFirst(String operator, Operand first) {
        if (!(first instanceof Operand.PathRef)) {
            throw ApiException.validation("Invalid condition in KeyConditionExpression: " + operator
                    + " operator must have the key attribute as its first operand");
        }
    }

    private static Value literal(Operand operand) {
        // keyName() let through one path and no functions, so the other operands are :values.
        return ((Operand.Literal) operand).value();
    }

    private void add(String name, Leaf leaf) {
        if (leaves.putIfAbsent(name, leaf) != null) {
            throw ApiException.validation("KeyConditionExpressions must only contain one condition per key");
        }
    }

    private KeyCondition toKeyCondition(String partitionKey, String sortKey) {
        if (leaves.size() > 2) {
            throw ApiException.validation("Conditions can be of length 1 or 2 only");
        }
        if (sortKey == null && leaves.size() > 1) {
            throw ApiException.validation("Query key condition not supported");
        }
        Leaf partition = leaves.get(partitionKey);
        if (partition == null) {
            throw ApiException.validation("Query condition missed key schema element: " + partitionKey);
        }
        if (partition.op() != SortCondition.Op.EQ) {
            throw ApiException.validation("Query key condition not supported");
        }
        if (leaves.size() == 1) {
            return new KeyCondition(partition.low(), null);
        }
        Leaf sort = leaves.get(sortKey);
        if (sort == null) {
            throw ApiException.validation("Query condition missed key schema element: " + sortKey);
        }
        return new KeyCondition(partition.low(), new SortCondition(sort.op(), sort.low(), sort.high()));
    }

    private static ApiException invalidOperator(String operator) {
        return ApiException.validation("Invalid operator used in KeyConditionExpression: " + operator);
    }
}
