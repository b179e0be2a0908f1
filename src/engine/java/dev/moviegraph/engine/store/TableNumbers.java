package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The journal's numbers for its tables (one per TableId), and the DECLARE and DROP records that give and take
 * them back. The methods that append are called with the journal's append lock held.
 */
final class TableNumbers {
    /** Journal number of each live table, by its identity ({@link #identity}). */
    private final Map<String, Integer> numbers = new ConcurrentHashMap<>();
    private final Map<String, String> identityByName = new ConcurrentHashMap<>();
    /** Identities of deleted tables: a late write to one is not journaled (it went to a table no one can see). */
    private final Set<String> droppedIdentities = ConcurrentHashMap.newKeySet();
    /** When each dropped table number was dropped, so compaction can forget its stream history past retention. */
    private final Map<Integer, Long> dropTimes = new ConcurrentHashMap<>();
    /** Guarded by the append lock. */
    private int nextNumber = 1;

    static String identity(TableSpec spec) {
        return spec.tableId() != null ? spec.tableId() : "name:" + spec.name();
    }

    /** Append lock held: everything above, for a checkpoint. */
    byte[] write() {
        Codec.Out out = new Codec.Out(256);
        out.varint(nextNumber);
        out.varint(numbers.size());
        numbers.forEach((identity, number) -> {
            out.string(identity);
            out.varint(number);
        });
        out.varint(identityByName.size());
        identityByName.forEach((name, identity) -> {
            out.string(name);
            out.string(identity);
        });
        out.varint(droppedIdentities.size());
        droppedIdentities.forEach(out::string);
        out.varint(dropTimes.size());
        dropTimes.forEach((number, millis) -> {
            out.varint(number);
            out.varint(millis);
        });
        return java.util.Arrays.copyOf(out.bytes, out.size);
    }

    /** Before anything is replayed: the numbers as a checkpoint kept them ({@link #write}). */
    void read(byte[] bytes) {
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        nextNumber = (int) in.varint();
        for (int i = in.length(); i > 0; i--) {
            numbers.put(in.string(), (int) in.varint());
        }
        for (int i = in.length(); i > 0; i--) {
            identityByName.put(in.string(), in.string());
        }
        for (int i = in.length(); i > 0; i--) {
            droppedIdentities.add(in.string());
        }
        for (int i = in.length(); i > 0; i--) {
            dropTimes.put((int) in.varint(), in.varint());
        }
    }

    /** The next number a table gets (the highest given, plus one). */
    int nextNumber() {
        return nextNumber;
    }

    /** The live table's number, or null. */
    Integer of(TableSpec spec) {
        return numbers.get(identity(spec));
    }

    /** When the table of that number was dropped, or null. */
    Long dropTime(int number) {
        return dropTimes.get(number);
    }

    /** A replayed DROP record. */
    void dropped(int number, long millis) {
        dropTimes.put(number, millis);
    }

    /** The end of a replay: the tables it made, by number, and the highest number it saw. */
    void replayed(Map<Integer, Table> byNumber, int maxNumber) {
        // the live tables are the replay's: those a checkpoint named and the journal after it dropped go
        numbers.clear();
        identityByName.clear();
        for (Map.Entry<Integer, Table> entry : byNumber.entrySet()) {
            TableSpec spec = entry.getValue().spec();
            numbers.put(identity(spec), entry.getKey());
            identityByName.put(spec.name(), identity(spec));
        }
        nextNumber = maxNumber + 1;
    }

    /** Append lock held: the table's number, declaring it first when new; null for a table already deleted. */
    Integer numberOf(Table table, LogWriter w) {
        TableSpec spec = table.spec();
        String identity = identity(spec);
        Integer number = numbers.get(identity);
        if (number != null) {
            return number;
        }
        if (droppedIdentities.contains(identity)) {
            return null;
        }
        return declareLocked(spec, w);
    }

    /** Append lock held: assigns a number when new and appends the declaration (flushed by the caller). */
    private int declareLocked(TableSpec spec, LogWriter w) {
        String identity = identity(spec);
        Integer number = numbers.get(identity);
        if (number == null) {
            number = nextNumber++;
            numbers.put(identity, number);
            String previous = identityByName.put(spec.name(), identity);
            if (previous != null && !previous.equals(identity)) {
                // a table of that name deleted, its deletion not told yet (it races this creation): drop it now
                Integer old = numbers.remove(previous);
                droppedIdentities.add(previous);
                if (old != null) {
                    appendDrop(old, w);
                }
            }
        }
        Codec.Out out = new Codec.Out(512);
        JournalRecords.declare(out, number, System.currentTimeMillis(), spec);
        w.addLocked(out.bytes, 0, out.size);
        return number;
    }

    /** Append lock held: a table was created or its declaration changed. */
    void declared(TableSpec spec, LogWriter w) {
        String identity = identity(spec);
        if (droppedIdentities.contains(identity)) {
            if (spec.tableId() != null) {
                return; // a late declaration of a deleted table (a backfill finishing after the deletion)
            }
            droppedIdentities.remove(identity); // no TableId: a table re-created under the name
        }
        declareLocked(spec, w);
    }

    /** Append lock held: a table was deleted ({@code tables}: the live ones, null before the replay). */
    void deleted(String table, Tables tables, LogWriter w) {
        String identity = identityByName.get(table);
        Table current = tables == null ? null : tables.find(table);
        if (identity == null || current != null && identity(current.spec()).equals(identity)) {
            return; // never journaled, or the table of that name now is a newer one (the older was dropped)
        }
        identityByName.remove(table);
        Integer number = numbers.remove(identity);
        droppedIdentities.add(identity);
        if (number != null) {
            appendDrop(number, w);
        }
    }

    /** Append lock held. */
    private void appendDrop(int number, LogWriter w) {
        long millis = System.currentTimeMillis();
        dropTimes.put(number, millis);
        Codec.Out out = new Codec.Out(32);
        JournalRecords.drop(out, number, millis);
        w.addLocked(out.bytes, 0, out.size);
    }
}
