package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Records;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One item type of the table, declared once: the record it holds, the attribute each field is stored
 * under (its codec follows from the field's type), the key templates built from those attributes, and
 * which attributes are copies of another item's (so writes keep them true). Encoding, decoding, keys and
 * the descriptions in docs/design.md are all derived from the declaration.
 */
public final class Entity<T extends Record> {
    /** Attributes that copy another entity's, and the version of the source they copy. */
    public record Copy(Entity<?> source, Map<String, String> attributes, String versionAttribute) {
    }

    private final String type;
    private final Class<T> recordType;
    private final Map<String, String> attributeOf = new LinkedHashMap<>();
    private final Map<String, Object> constants = new LinkedHashMap<>();
    private final Map<String, KeyTemplate> keys = new LinkedHashMap<>();
    private final List<Copy> copies = new ArrayList<>();
    private final Map<String, java.util.function.Predicate<T>> sparse = new LinkedHashMap<>();
    private final Map<String, java.util.function.Function<T, Object>> derived = new LinkedHashMap<>();
    /** Attributes that hold a list of records, each stored as a map by its element entity's attributes. */
    private final Map<String, Entity<?>> nested = new LinkedHashMap<>();
    private boolean versioned;
    private int estimatedBytes = 256;

    private Entity(String type, Class<T> recordType) {
        this.type = type;
        this.recordType = recordType;
        for (RecordComponent component : recordType.getRecordComponents()) {
            attributeOf.put(component.getName(), component.getName());
        }
    }

    static <T extends Record> Entity<T> of(String type, Class<T> recordType) {
        return new Entity<>(type, recordType);
    }

    // ---- declaration

    /** Stores field {@code field} under another attribute name. */
    Entity<T> store(String field, String attribute) {
        requireField(field);
        attributeOf.put(field, attribute);
        return this;
    }

    /** A field every item of this type has the same value of; it is not stored. */
    public Entity<T> constant(String field, Object value) {
        requireField(field);
        attributeOf.remove(field);
        constants.put(field, value);
        return this;
    }

    /** A field this type never uses (crew have no characters): not stored, empty when read. */
    Entity<T> omit(String field) {
        requireField(field);
        attributeOf.remove(field);
        return this;
    }

    public Entity<T> key(String keyAttribute, String template) {
        keys.put(keyAttribute, new KeyTemplate(template));
        return this;
    }

    /**
     * A key only items that satisfy {@code when} carry: the item is in that key's index only then (a
     * sparse index: award winners, not nominations; an award's person index only when it names a person).
     */
    Entity<T> sparseKey(String keyAttribute, String template, java.util.function.Predicate<T> when) {
        keys.put(keyAttribute, new KeyTemplate(template));
        sparse.put(keyAttribute, when);
        return this;
    }

    /**
     * An attribute computed from the record (a total's rank in its top list): written with every item,
     * never read back into the record.
     */
    Entity<T> derived(String attribute, java.util.function.Function<T, Object> value) {
        derived.put(attribute, value);
        return this;
    }

    /**
     * Field {@code field}, a list of records, is stored inside the item as a list of maps, each holding the
     * attributes {@code element} declares (no type, no keys): a month's top list is one item of entries.
     */
    Entity<T> nests(String field, Entity<?> element) {
        requireField(field);
        nested.put(attributeOf.get(field), element);
        return this;
    }

    /** The item carries an optimistic {@code version}; its copies carry the version they copy. */
    Entity<T> versioned() {
        this.versioned = true;
        return this;
    }

    /** Copies of {@code source}'s attributes: copy attribute to source attribute, pairwise. */
    public Entity<T> copies(Entity<?> source, String versionAttribute, String... copyAndSource) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < copyAndSource.length; i += 2) {
            attributes.put(copyAndSource[i], copyAndSource[i + 1]);
        }
        copies.add(new Copy(source, attributes, versionAttribute));
        return this;
    }

    /** What read estimates assume one item of this type weighs at most. */
    public Entity<T> estimatedBytes(int bytes) {
        this.estimatedBytes = bytes;
        return this;
    }

    private void requireField(String field) {
        if (!attributeOf.containsKey(field)) {
            throw new IllegalArgumentException(recordType.getSimpleName() + " has no field " + field);
        }
    }

    // ---- what the declaration says

    public String type() {
        return type;
    }

    Class<T> recordType() {
        return recordType;
    }

    public Map<String, KeyTemplate> keys() {
        return keys;
    }

    public KeyTemplate template(String keyAttribute) {
        return keys.get(keyAttribute);
    }

    boolean isVersioned() {
        return versioned;
    }

    public List<Copy> copies() {
        return copies;
    }

    public int estimatedBytes() {
        return estimatedBytes;
    }

    public Object constant(String field) {
        return constants.get(field);
    }

    /** The attribute a field is stored under. */
    public String attribute(String field) {
        requireField(field);
        return attributeOf.get(field);
    }

    /** The stored attributes (not keys), in field order, then the derived ones. */
    List<String> attributes() {
        List<String> all = new ArrayList<>(attributeOf.values());
        all.addAll(derived.keySet());
        return List.copyOf(all);
    }

    /** The key attributes whose template reads one of {@code attributes}. */
    public Set<String> keysReading(Set<String> attributes) {
        Set<String> found = new LinkedHashSet<>();
        keys.forEach((key, template) -> {
            if (template.attributes().stream().anyMatch(attributes::contains)) {
                found.add(key);
            }
        });
        return found;
    }

    // ---- codec

    /** The record's values by attribute name. */
    public Map<String, Object> values(T record) {
        Map<String, Object> fields = Records.components(record);
        Map<String, Object> values = new LinkedHashMap<>();
        attributeOf.forEach((field, attribute) -> values.put(attribute, fields.get(field)));
        return values;
    }

    /**
     * The whole item: type, keys and attributes; none for null values or empty lists (read back as
     * empty), so an item without genres or professions costs nothing for them.
     */
    public Map<String, AttributeValue> encode(T record) {
        Map<String, Object> values = values(record);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(TableModel.TYPE, AttributeValue.fromS(type));
        keys.forEach((key, template) -> {
            java.util.function.Predicate<T> when = sparse.get(key);
            if (when == null || when.test(record)) {
                item.put(key, AttributeValue.fromS(template.render(values)));
            }
        });
        item.putAll(attributeValues(values));
        derived.forEach((attribute, value) -> {
            AttributeValue encoded = encodeValue(value.apply(record));
            if (encoded != null) {
                item.put(attribute, encoded);
            }
        });
        return item;
    }

    /** The stored attributes of a record's values, nested lists included; none for null values or empty lists. */
    private Map<String, AttributeValue> attributeValues(Map<String, Object> values) {
        Map<String, AttributeValue> encoded = new HashMap<>();
        values.forEach((attribute, value) -> {
            Entity<?> element = nested.get(attribute);
            AttributeValue one = element != null ? element.encodeList((List<?>) value) : encodeValue(value);
            if (one != null) {
                encoded.put(attribute, one);
            }
        });
        return encoded;
    }

    /** A list of this entity's records as a list of maps of their attributes (null when empty). */
    @SuppressWarnings("unchecked")
    private AttributeValue encodeList(List<?> records) {
        if (records == null || records.isEmpty()) {
            return null;
        }
        return AttributeValue.fromL(records.stream()
                .map(record -> AttributeValue.fromM(attributeValues(values((T) record)))).toList());
    }

    public T decode(Map<String, AttributeValue> item) {
        Map<String, Object> fields = new HashMap<>(constants);
        for (RecordComponent component : Records.componentsOf(recordType)) {
            String attribute = attributeOf.get(component.getName());
            Entity<?> element = attribute == null ? null : nested.get(attribute);
            if (element != null) {
                AttributeValue list = item.get(attribute);
                fields.put(component.getName(), list == null || !list.hasL() ? List.of()
                        : list.l().stream().map(entry -> element.decode(entry.m())).toList());
            } else if (attribute != null) {
                fields.put(component.getName(), decodeValue(component.getType(), item.get(attribute)));
            }
        }
        return Records.construct(recordType, fields, component -> null);
    }

    /** The primary key (pk, sk) for the given attribute values. */
    public Map<String, AttributeValue> key(Map<String, ?> values) {
        return Map.of(TableModel.PK, AttributeValue.fromS(keys.get(TableModel.PK).render(values)),
                TableModel.SK, AttributeValue.fromS(keys.get(TableModel.SK).render(values)));
    }

    /** The primary key from fields named as the record's (a reference's components). */
    public Map<String, AttributeValue> keyFromFields(Map<String, ?> fields) {
        Map<String, Object> values = new HashMap<>();
        fields.forEach((field, value) -> values.put(attributeOf.getOrDefault(field, field), value));
        return key(values);
    }

    public static AttributeValue encodeValue(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String text) {
            return AttributeValue.fromS(text);
        }
        if (value instanceof java.math.BigDecimal decimal) {
            return AttributeValue.fromN(decimal.toPlainString());
        }
        if (value instanceof Number number) {
            return AttributeValue.fromN(number.toString());
        }
        if (value instanceof Boolean bool) {
            return AttributeValue.fromBool(bool);
        }
        if (value instanceof MovieId movie) {
            return AttributeValue.fromS(movie.value());
        }
        if (value instanceof PersonId person) {
            return AttributeValue.fromS(person.value());
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return null;
            }
            return AttributeValue.fromL(list.stream().map(element -> AttributeValue.fromS((String) element)).toList());
        }
        if (value instanceof LocalDate || value instanceof YearMonth || value instanceof Instant) {
            return AttributeValue.fromS(value.toString());
        }
        throw new IllegalArgumentException("No codec for " + value.getClass().getSimpleName());
    }

    private static Object decodeValue(Class<?> type, AttributeValue value) {
        if (type == List.class) {
            return value == null || !value.hasL() ? List.of() : value.l().stream().map(AttributeValue::s).toList();
        }
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            return type == long.class ? 0L : type == boolean.class ? false : null;
        }
        if (type == String.class) {
            return value.s();
        }
        if (type == Integer.class || type == int.class) {
            return Integer.valueOf(value.n());
        }
        if (type == Long.class || type == long.class) {
            return Long.valueOf(value.n());
        }
        if (type == Double.class || type == double.class) {
            return Double.valueOf(value.n());
        }
        if (type == Boolean.class || type == boolean.class) {
            return value.bool();
        }
        if (type == MovieId.class) {
            return MovieId.of(value.s());
        }
        if (type == PersonId.class) {
            return PersonId.of(value.s());
        }
        if (type == LocalDate.class) {
            return LocalDate.parse(value.s());
        }
        if (type == YearMonth.class) {
            return YearMonth.parse(value.s());
        }
        if (type == Instant.class) {
            return Instant.parse(value.s());
        }
        throw new IllegalArgumentException("No codec for " + type.getSimpleName());
    }
}
