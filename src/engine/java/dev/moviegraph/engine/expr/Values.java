package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Numbers;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.Set;

/** What the expression functions and update actions do to values. */
final class Values {
    private Values() {
    }

    static ApiException incorrectType() {
        return ApiException.validation("An operand in the update expression has an incorrect data type");
    }

    static ApiException missingAttribute() {
        return ApiException.validation("The provided expression refers to an attribute that does not exist in the item");
    }

    /** The value an update operand needs, or DynamoDB's error when it names nothing in the item. */
    static Value required(Value value) {
        if (value == null) {
            throw missingAttribute();
        }
        return value;
    }

    /**
     * size(): a string's length in characters (code points), a binary's in bytes, the member count of sets,
     * lists and maps; null (so every comparison is false) for numbers, booleans and nulls.
     */
    static Value size(Value value) {
        long size;
        if (value instanceof Value.S s) {
            size = s.value().codePointCount(0, s.value().length());
        } else if (value instanceof Value.B b) {
            size = b.value().length();
        } else if (value instanceof Value.SS ss) {
            size = ss.values().size();
        } else if (value instanceof Value.NS ns) {
            size = ns.values().size();
        } else if (value instanceof Value.BS bs) {
            size = bs.values().size();
        } else if (value instanceof Value.L l) {
            size = l.values().size();
        } else if (value instanceof Value.M m) {
            size = m.values().size();
        } else {
            return null;
        }
        return Value.n(size);
    }

    /** begins_with: a string prefix of a string, or a byte prefix of a binary; false for anything else. */
    static boolean beginsWith(Value value, Value prefix) {
        if (value instanceof Value.S s && prefix instanceof Value.S p) {
            return s.value().startsWith(p.value());
        }
        if (value instanceof Value.B b && prefix instanceof Value.B p) {
            return b.value().startsWith(p.value());
        }
        return false;
    }

    /**
     * contains: a substring of a string, a member of a set of the operand's type, an element of a list equal to
     * the operand, or bytes inside a binary; false for anything else.
     */
    static boolean contains(Value value, Value member) {
        if (value == null || member == null) {
            return false;
        }
        if (value instanceof Value.S s) {
            return member instanceof Value.S m && s.value().contains(m.value());
        }
        if (value instanceof Value.SS ss) {
            return member instanceof Value.S m && ss.values().contains(m.value());
        }
        if (value instanceof Value.NS ns) {
            return member instanceof Value.N m && ns.values().contains(m);
        }
        if (value instanceof Value.BS bs) {
            return member instanceof Value.B m && bs.values().contains(m.value());
        }
        if (value instanceof Value.B b) {
            return member instanceof Value.B m && b.value().contains(m.value());
        }
        if (value instanceof Value.L l) {
            return l.values().contains(member);
        }
        return false;
    }

    static Value plus(Value a, Value b) {
        return number(number(a).add(number(b)));
    }

    static Value minus(Value a, Value b) {
        return number(number(a).subtract(number(b)));
    }

    /** ADD: numbers are summed, sets of one type joined; anything else is DynamoDB's type error. */
    static Value add(Value existing, Value operand) {
        if (existing instanceof Value.N && operand instanceof Value.N) {
            return plus(existing, operand);
        }
        if (existing instanceof Value.SS a && operand instanceof Value.SS b) {
            return new Value.SS(union(a.values(), b.values()));
        }
        if (existing instanceof Value.NS a && operand instanceof Value.NS b) {
            return new Value.NS(union(a.values(), b.values()));
        }
        if (existing instanceof Value.BS a && operand instanceof Value.BS b) {
            return new Value.BS(union(a.values(), b.values()));
        }
        throw incorrectType();
    }

    /** DELETE: the members of a set of the same type taken out; null when none remain (the set goes away). */
    static Value delete(Value existing, Value operand) {
        if (existing instanceof Value.SS a && operand instanceof Value.SS b) {
            Set<String> rest = difference(a.values(), b.values());
            return rest.isEmpty() ? null : new Value.SS(rest);
        }
        if (existing instanceof Value.NS a && operand instanceof Value.NS b) {
            Set<Value.N> rest = difference(a.values(), b.values());
            return rest.isEmpty() ? null : new Value.NS(rest);
        }
        if (existing instanceof Value.BS a && operand instanceof Value.BS b) {
            Set<Bytes> rest = difference(a.values(), b.values());
            return rest.isEmpty() ? null : new Value.BS(rest);
        }
        throw incorrectType();
    }

    /** A value as DynamoDB quotes it in BETWEEN errors: {@code AttributeValue: {N:1}}. */
    static String quote(Value value) {
        String text;
        if (value instanceof Value.S s) {
            text = s.value();
        } else if (value instanceof Value.N n) {
            text = n.text();
        } else if (value instanceof Value.B b) {
            text = b.value().base64();
        } else if (value instanceof Value.Bool b) {
            text = String.valueOf(b.value());
        } else if (value instanceof Value.Null) {
            text = "true";
        } else {
            text = value.toString();
        }
        return "AttributeValue: {" + value.type() + ":" + text + "}";
    }

    private static BigDecimal number(Value value) {
        if (value instanceof Value.N n) {
            return n.number();
        }
        throw incorrectType();
    }

    private static Value number(BigDecimal result) {
        try {
            return Numbers.of(result);
        } catch (NumberFormatException e) {
            // Out of DynamoDB's 38 digits or range: its message, as a validation error.
            throw ApiException.validation(e.getMessage());
        }
    }

    private static <T> Set<T> union(Set<T> a, Set<T> b) {
        Set<T> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static <T> Set<T> difference(Set<T> a, Set<T> b) {
        Set<T> rest = new LinkedHashSet<>(a);
        rest.removeAll(b);
        return rest;
    }
}
