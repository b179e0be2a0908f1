package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

/** A parsed KeyConditionExpression: the partition key's value and, when given, the sort key's condition. */
public record KeyCondition(Value partition, SortCondition sort /* null when no sort key condition */) {
}
