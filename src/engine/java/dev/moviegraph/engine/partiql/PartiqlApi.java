package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.BatchApi;
import dev.moviegraph.engine.api.ItemApi;
import dev.moviegraph.engine.api.ReadApi;
import dev.moviegraph.engine.api.TransactApi;
import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.Tables;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: DynamoDB's PartiQL. */
public final class PartiqlApi {
    private final Tables tables;
    private final ItemApi items;
    private final ReadApi reads;
    private final BatchApi batches;
    private final TransactApi transactions;

    public PartiqlApi(Tables tables, ItemApi items, ReadApi reads, BatchApi batches, TransactApi transactions) {
        this.tables = tables;
        this.items = items;
        this.reads = reads;
        this.batches = batches;
        this.transactions = transactions;
    }

    public ObjectNode executeStatement(JsonNode request) {
        throw ApiException.unknownOperation("ExecuteStatement");
    }

    public ObjectNode batchExecuteStatement(JsonNode request) {
        throw ApiException.unknownOperation("BatchExecuteStatement");
    }

    public ObjectNode executeTransaction(JsonNode request) {
        throw ApiException.unknownOperation("ExecuteTransaction");
    }
}
