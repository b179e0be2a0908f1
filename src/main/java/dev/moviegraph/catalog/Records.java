package dev.moviegraph.catalog;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads and builds records by the names of their components, so that code which works on any item
 * type (a table model, stand-ins of a planning run) is written once for all of them.
 */
public final class Records {
    private Records() {
    }

    /** Every component of {@code record} by name, in declaration order; null values included. */
    public static Map<String, Object> components(Record record) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            try {
                values.put(component.getName(), component.getAccessor().invoke(record));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("Cannot read " + component, e);
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
        RecordComponent[] components = type.getRecordComponents();
        Object[] arguments = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            arguments[i] = values.containsKey(component.getName()) ? values.get(component.getName())
                    : missing.apply(component);
        }
        try {
            Constructor<T> constructor = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            return constructor.newInstance(arguments);
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
