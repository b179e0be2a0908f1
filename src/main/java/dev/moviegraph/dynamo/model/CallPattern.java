package dev.moviegraph.dynamo.model;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a DynamoDB call is, as receipts, traces and metrics name it: one of the declared {@link Access}
 * patterns, or a Query an {@link ItemCollection} derives for a read.
 */
public interface CallPattern {
    String name();

    String operation();

    /** The index name, or "table" for the base table. */
    String indexLabel();

    /** Whether the operation writes (its capacity is write units). */
    boolean writes();

    /** The key condition with its values in place, as a trace shows it. */
    String render(Map<String, AttributeValue> values);
}
