package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key value built from an item's attributes, written as it is documented: {@code mov#{movieId}},
 * {@code movie#cast#{billing:pad}#{personId}}, {@code act#{movieYear:desc}#{movieTitle}#{movieId}}.
 * Formats make numbers sort as keys must: {@code pad} writes 0001..9998 with 9999 for none (so unknown
 * positions sort last); {@code desc} writes 9999 - value (so later years sort first) with 9999 for none
 * (unknown years last); {@code newest} writes an instant as 13 digits of 9999999999999 minus its epoch
 * milliseconds (so later instants sort first, without a number type for the key); {@code short} keeps the first {@value #SHORT} characters of a text, so a key stays
 * far below DynamoDB's 1,024-byte sort-key limit whatever the title (IMDb has titles of several hundred
 * characters): the key only orders, the item keeps the whole text, and the id after it keeps it unique;
 * {@code seq} writes a non-negative long in 19 digits, so counters sort by number; {@code opt} writes a
 * value that may be absent as nothing (an award that names no person); {@code shard} writes the
 * {@link TopShards} shard of a movie id, so a key of it is one of a fixed set of partitions that a read
 * fans out over ({@link #renderShard}).
 */
public final class KeyTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z]+)(?::(pad|desc|newest|short|seq|opt|shard))?}");
    private static final int NONE = 9999;
    static final int SHORT = 100;

    private record Part(String literal, String attribute, String format) {
    }

    private final String text;
    private final List<Part> parts = new ArrayList<>();

    KeyTemplate(String text) {
        this.text = text;
        Matcher matcher = PLACEHOLDER.matcher(text);
        int at = 0;
        while (matcher.find()) {
            if (matcher.start() > at) {
                parts.add(new Part(text.substring(at, matcher.start()), null, null));
            }
            parts.add(new Part(null, matcher.group(1), matcher.group(2)));
            at = matcher.end();
        }
        if (at < text.length()) {
            parts.add(new Part(text.substring(at), null, null));
        }
    }

    /** The template as written, e.g. {@code mov#{movieId}}. */
    String text() {
        return text;
    }

    /** The attributes the template reads. */
    Set<String> attributes() {
        Set<String> attributes = new LinkedHashSet<>();
        parts.stream().filter(part -> part.attribute() != null).forEach(part -> attributes.add(part.attribute()));
        return attributes;
    }

    /** The attributes a value of the key needs from its reader: all but those it fans out over. */
    Set<String> boundAttributes() {
        Set<String> attributes = new LinkedHashSet<>();
        parts.stream().filter(part -> part.attribute() != null && !"shard".equals(part.format()))
                .forEach(part -> attributes.add(part.attribute()));
        return attributes;
    }

    /** The key of one shard for these bound values: what each Query of a fanned-out read asks for. */
    public String renderShard(Map<String, ?> values, int shard) {
        StringBuilder key = new StringBuilder();
        for (Part part : parts) {
            if ("shard".equals(part.format())) {
                key.append(TopShards.label(shard));
            } else {
                append(key, part, values);
            }
        }
        return key.toString();
    }

    /** The constant text before the first attribute: the key's type prefix ({@code mov#}). */
    String prefix() {
        return parts.isEmpty() || parts.get(0).literal() == null ? "" : parts.get(0).literal();
    }

    /** The key for these attribute values (domain values by attribute name). */
    public String render(Map<String, ?> values) {
        StringBuilder key = new StringBuilder();
        for (Part part : parts) {
            append(key, part, values);
        }
        return key.toString();
    }

    private void append(StringBuilder key, Part part, Map<String, ?> values) {
        if (part.literal() != null) {
            key.append(part.literal());
            return;
        }
        Object value = values.get(part.attribute());
        if ("opt".equals(part.format())) {
            key.append(value == null ? "" : text(value));
        } else if (part.format() == null || part.format().equals("short")) {
            if (value == null) {
                throw new IllegalArgumentException(text + " needs a value for " + part.attribute());
            }
            String whole = text(value);
            key.append(part.format() == null || whole.codePointCount(0, whole.length()) <= SHORT ? whole
                    : whole.substring(0, whole.offsetByCodePoints(0, SHORT)));
        } else if (part.format().equals("shard")) {
            key.append(TopShards.label(TopShards.of((MovieId) value)));
        } else if (part.format().equals("newest")) {
            if (value == null) {
                throw new IllegalArgumentException(text + " needs a value for " + part.attribute());
            }
            key.append(newest((java.time.Instant) value));
        } else if (part.format().equals("seq")) {
            key.append(String.format("%019d", ((Number) values.get(part.attribute())).longValue()));
        } else {
            int number = value == null ? NONE : ((Number) value).intValue();
            key.append(String.format("%04d", part.format().equals("desc") && value != null ? NONE - number : number));
        }
    }

    /**
     * The key as far as these values go: every part up to the first attribute without a value, so a
     * leading part of a composite key ({@code tot#2024-05} of {@code tot#{month}}, {@code act#} with no
     * values) can bound a range or a {@code begins_with}. Whole when every attribute has a value.
     */
    String renderPrefix(Map<String, ?> values) {
        StringBuilder key = new StringBuilder();
        for (Part part : parts) {
            if (part.literal() == null && values.get(part.attribute()) == null && !"opt".equals(part.format())) {
                return key.toString();
            }
            append(key, part, values);
        }
        return key.toString();
    }

    /** Whether these values give every attribute of the template (the key is whole, not a prefix). */
    boolean completeFor(Map<String, ?> values) {
        return parts.stream().allMatch(part -> part.attribute() == null || "opt".equals(part.format())
                || values.get(part.attribute()) != null);
    }

    /** The last instant {@code newest} orders: 13 digits of epoch milliseconds reach the year 2286. */
    static final long NEWEST_LIMIT = 9_999_999_999_999L;

    /** An instant as {@code newest} writes it: later instants give smaller keys, all of the same length. */
    static String newest(java.time.Instant instant) {
        long millis = instant.toEpochMilli();
        if (millis < 0 || millis > NEWEST_LIMIT) {
            throw new IllegalArgumentException("An instant before 1970 or after 2286 has no newest-first key: " + instant);
        }
        return String.format("%013d", NEWEST_LIMIT - millis);
    }

    private static String text(Object value) {
        if (value instanceof MovieId movie) {
            return movie.value();
        }
        if (value instanceof PersonId person) {
            return person.value();
        }
        return value.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
