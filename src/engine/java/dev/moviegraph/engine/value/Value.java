package dev.moviegraph.engine.value;

/**
 * One DynamoDB attribute value: the ten types of the data model. Values are immutable; numbers are kept
 * in their canonical form (DynamoDB trims leading and trailing zeros), sets hold distinct members.
 */
public sealed interface Value permits Value.S, Value.N, Value.B, Value.Bool, Value.Null, Value.L, Value.M,
        Value.SS, Value.NS, Value.BS {

    /** The type's name on the wire: S, N, B, BOOL, NULL, L, M, SS, NS or BS. */
    String type();

    /**
     * A string. {@code plain} says it has no unit at or above U+D800, where UTF-16 order and UTF-8 order
     * can differ: two plain strings compare with {@link String#compareTo} (an intrinsic), the rest by
     * {@link Ordering#compareStrings}. Computed once, when the value is made.
     */
    record S(String value, boolean plain) implements Value {
        public S(String value) {
            this(value, isPlain(value));
        }

        public String type() {
            return "S";
        }

        private static boolean isPlain(String value) {
            for (int i = 0; i < value.length(); i++) {
                if (value.charAt(i) >= 0xD800) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A number, canonical text and its exact value. */
    record N(String text, java.math.BigDecimal number) implements Value {
        public String type() {
            return "N";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof N n && n.number.compareTo(number) == 0;
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }
    }

    /** Binary. */
    record B(Bytes value) implements Value {
        public String type() {
            return "B";
        }
    }

    record Bool(boolean value) implements Value {
        public String type() {
            return "BOOL";
        }
    }

    record Null() implements Value {
        public String type() {
            return "NULL";
        }
    }

    record L(java.util.List<Value> values) implements Value {
        public L {
            values = java.util.List.copyOf(values);
        }

        public String type() {
            return "L";
        }
    }

    record M(java.util.Map<String, Value> values) implements Value {
        public M {
            values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
        }

        public String type() {
            return "M";
        }
    }

    /** A string set; members in the order first given. */
    record SS(java.util.Set<String> values) implements Value {
        public SS {
            values = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(values));
        }

        public String type() {
            return "SS";
        }
    }

    /** A number set, members canonical. */
    record NS(java.util.Set<N> values) implements Value {
        public NS {
            values = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(values));
        }

        public String type() {
            return "NS";
        }
    }

    record BS(java.util.Set<Bytes> values) implements Value {
        public BS {
            values = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(values));
        }

        public String type() {
            return "BS";
        }
    }

    static S s(String value) {
        return new S(value);
    }

    /** A number from its text; throws {@link NumberFormatException} with DynamoDB's words when it is not one. */
    static N n(String text) {
        return Numbers.parse(text);
    }

    static N n(long value) {
        return Numbers.of(new java.math.BigDecimal(value));
    }
}
