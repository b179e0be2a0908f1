package dev.moviegraph.dynamo.model;


import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The table and its indexes, each by its key attributes. Every index but GSI8 projects every attribute.
 * An entity is in an index when it carries the index's key attributes (GSI8 is sparse: only totals have
 * {@code gsi8pk}).
 */
public enum Index {
    /** The table itself: items by key, a movie's whole item collection, totals by a range of months. */
    TABLE(null, TableModel.PK, TableModel.SK, ScalarAttributeType.S, false),
    /** A movie's collection in credit order: directors, writers, the movie, then the cast top-billed first. */
    LSI1("lsi1", TableModel.PK, TableModel.LSI1_SK, ScalarAttributeType.S, true),
    /**
     * Overloaded: a person, then their credits by role, each role newest first. Not "gsi1": layout 1's
     * gsi1 was the inversion of the table's keys, an index's keys cannot change, and DynamoDB Local
     * cannot delete an index, so a migrated table may still hold it.
     */
    GSI3("gsi3", TableModel.GSI3_PK, TableModel.GSI3_SK, ScalarAttributeType.S, false),
    /** Sparse: search entries of movies and people together, by word prefix, best ranked first. */
    GSI4("gsi4", TableModel.GSI4_PK, TableModel.RANK, ScalarAttributeType.S, false),
    /** Sparse: search entries of one kind, by kind and word prefix, best ranked first. */
    GSI5("gsi5", TableModel.GSI5_PK, TableModel.RANK, ScalarAttributeType.S, false),
    /** Sparse: movie lists (a genre, a year, both; the top rated), each in its order. */
    GSI6("gsi6", TableModel.GSI6_PK, TableModel.LIST_RANK, ScalarAttributeType.S, false),
    /**
     * Layout 4's top index (a month's totals by rank in 16 partitions), retired by layout 5's top-list item:
     * a new table does not have it; only the migration from layout 4 reads it, and deletes it on AWS.
     */
    GSI7("gsi7", "gsi7pk", "trank", ScalarAttributeType.N, false),
    /**
     * Sparse, keys only: a month's totals in {@link TopShards#COUNT} partitions, each key written once
     * when the total is created and never again (an increment changes neither the key nor anything
     * projected, so it writes nothing here). Only a refill of a month's top list after deletions reads it.
     */
    GSI8("gsi8", TableModel.GSI8_PK, null, null, false);

    private final String indexName;
    private final String partitionKey;
    private final String sortKey;
    private final ScalarAttributeType sortType;
    private final boolean local;

    /** Indexes a table of this layout has: every one but the retired GSI7. */
    static final List<Index> CURRENT = java.util.Arrays.stream(values()).filter(index -> index != GSI7).toList();

    Index(String indexName, String partitionKey, String sortKey, ScalarAttributeType sortType, boolean local) {
        this.indexName = indexName;
        this.partitionKey = partitionKey;
        this.sortKey = sortKey;
        this.sortType = sortType;
        this.local = local;
    }

    /** The name to query, or null for the table. */
    public String indexName() {
        return indexName;
    }

    /** The index name, or "table". */
    String label() {
        return indexName == null ? "table" : indexName;
    }

    public String partitionKey() {
        return partitionKey;
    }

    public String sortKey() {
        return sortKey;
    }

    public ScalarAttributeType sortType() {
        return sortType;
    }

    boolean isLocal() {
        return local;
    }

    /** Every attribute (ALL), or only the keys (GSI8: an index that only finds items). */
    software.amazon.awssdk.services.dynamodb.model.ProjectionType projection() {
        return this == GSI8 ? software.amazon.awssdk.services.dynamodb.model.ProjectionType.KEYS_ONLY
                : software.amazon.awssdk.services.dynamodb.model.ProjectionType.ALL;
    }

    /**
     * The attributes of a LastEvaluatedKey on this index (its own keys, then the table's): what a cursor
     * must carry to continue a page.
     */
    List<String> cursorAttributes() {
        Set<String> attributes = new LinkedHashSet<>();
        attributes.add(partitionKey);
        if (sortKey != null) {
            attributes.add(sortKey);
        }
        attributes.addAll(List.of(TableModel.PK, TableModel.SK));
        return List.copyOf(attributes);
    }
}
