package dev.moviegraph.catalog;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads and builds records by the names of their components, so that code which works on any item
 * type (a table model, stand-ins of a planning run) is written once for all of them.
 */
public final class Records {
    /**
     * Each record type's components, accessors and canonical constructor, looked up once: reflection's
     * lookups copy arrays and check access on every call, and items are decoded on every request.
     */
    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            try {
                Constructor<?> constructor = type.getDeclaredConstructor(
                        Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
                constructor.setAccessible(true);
                java.lang.reflect.Method[] accessors = new java.lang.reflect.Method[components.length];
                for (int i = 0; i < components.length; i++) {
                    accessors[i] = components[i].getAccessor();
                    accessors[i].setAccessible(true);
                }
                return new Shape(List.of(components), constructor, accessors);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot read the record type " + type.getSimpleName(), e);
            }
        }
    };

    private record Shape(List<RecordComponent> components, Constructor<?> constructor,
                         java.lang.reflect.Method[] accessors) {
    }

    private Records() {
    }

    /** The components of a record type, in declaration order (looked up once per type). */
    public static List<RecordComponent> componentsOf(Class<? extends Record> type) {
        return SHAPES.get(type).components();
    }

    /** Every component of {@code record} by name, in declaration order; null values included. */
    public static Map<String, Object> components(Record record) {
        Shape shape = SHAPES.get(record.getClass());
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < shape.accessors().length; i++) {
            try {
                values.put(shape.components().get(i).getName(), shape.accessors()[i].invoke(record));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("Cannot read " + shape.components().get(i), e);
            }
        }
        return values;
    }

    /**
     * A new {@code type} from its canonical constructor: each component takes {@code values}' entry of its
     * name, or {@code missing}'s answer when there is none.
     */
    public static <T extends Record> T construct(Class<T> type, Map<String, ?> values,
                                                 Function<RecordComponent, Object> missing) {
        Shape shape = SHAPES.get(type);
        List<RecordComponent> components = shape.components();
        Object[] arguments = new Object[components.size()];
        for (int i = 0; i < arguments.length; i++) {
            RecordComponent component = components.get(i);
            Object value = values.get(component.getName());
            arguments[i] = value != null || values.containsKey(component.getName()) ? value : missing.apply(component);
        }
        try {
            return type.cast(shape.constructor().newInstance(arguments));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("Cannot build " + type.getSimpleName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot build " + type.getSimpleName(), e);
        }
    }
}
