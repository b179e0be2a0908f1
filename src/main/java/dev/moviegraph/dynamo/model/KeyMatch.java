package dev.moviegraph.dynamo.model;

import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How a Query's key condition matches the sort key, and the one place a key condition's text is
 * written: the index's partition key equal to {@code :pk}, then its sort key equal to {@code :sk},
 * beginning with {@code :sk}, between {@code :from} and {@code :to}, or after {@code :sk}. Access
 * patterns ({@link Access}) and collection reads ({@link ItemCollection}) both take their text from
 * here, with the key attributes of the index they read.
 */
public enum KeyMatch {
    NONE, EQUALS, BEGINS_WITH, BETWEEN, AFTER;

    private static final Pattern PLACEHOLDER = Pattern.compile(":[a-z]+");

    /** The key condition on {@code index}'s keys, with its placeholders. */
    public String on(Index index) {
        String partition = index.partitionKey() + " = :pk";
        String sortKey = index.sortKey();
        return switch (this) {
            case NONE -> partition;
            case EQUALS -> partition + " AND " + sortKey + " = :sk";
            case BEGINS_WITH -> partition + " AND begins_with(" + sortKey + ", :sk)";
            case BETWEEN -> partition + " AND " + sortKey + " BETWEEN :from AND :to";
            case AFTER -> partition + " AND " + sortKey + " > :sk";
        };
    }

    /** The match a Query's values imply: the placeholders it binds name it (begins_with for a lone :sk). */
    public static KeyMatch of(Map<String, AttributeValue> values) {
        return values.containsKey(":to") ? BETWEEN : values.containsKey(":sk") ? BEGINS_WITH : NONE;
    }

    /** {@code condition} with each placeholder replaced by {@code value}'s text for it (a trace, a plan). */
    public static String substitute(String condition, Function<String, String> value) {
        Matcher matcher = PLACEHOLDER.matcher(condition);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(value.apply(matcher.group())));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
