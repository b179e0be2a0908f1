package dev.moviegraph.engine.table;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The engine's tables by name, with the item locks they share (transactions span tables). */
public final class Tables {
    private final ConcurrentMap<String, Table> byName = new ConcurrentHashMap<>();
    private final ItemLocks locks = new ItemLocks();
    private final TransactionClaims claims = new TransactionClaims();
    private final ChangeListener listener;
    private final Storage storage;

    public Tables(ChangeListener listener, Storage storage) {
        this.listener = listener;
        this.storage = storage;
    }

    /** Where the tables keep their rows. */
    public Storage storage() {
        return storage;
    }

    public ItemLocks locks() {
        return locks;
    }

    /** The items write transactions in flight hold. */
    public TransactionClaims claims() {
        return claims;
    }

    /** The table, or DynamoDB's ResourceNotFoundException. */
    public Table require(String name) {
        if (name == null) {
            throw ApiException.validation("1 validation error detected: Value null at 'tableName' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        Table table = byName.get(name);
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return table;
    }

    /**
     * The table an item operation names, or ResourceNotFoundException with the words DynamoDB's item operations
     * use (no table name: unlike DescribeTable's, theirs does not repeat it).
     */
    public Table forItems(String name) {
        Table table = name == null ? null : byName.get(name);
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found");
        }
        return table;
    }

    public Table find(String name) {
        return byName.get(name);
    }

    /** Adds a new table; ResourceInUseException when one of that name exists. */
    public Table create(TableSpec spec) {
        Table table = new Table(spec, locks, listener, storage);
        if (byName.putIfAbsent(spec.name(), table) != null) {
            throw ApiException.resourceInUse("Table already exists: " + spec.name());
        }
        return table;
    }

    public Table remove(String name) {
        Table table = byName.remove(name);
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        table.drop();
        return table;
    }

    public List<String> names() {
        List<String> names = new ArrayList<>(byName.keySet());
        names.sort(String::compareTo);
        return names;
    }

    public List<Table> all() {
        return new ArrayList<>(byName.values());
    }
}
