package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.Part;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Turns a DynamoDB key (the LastEvaluatedKey of a page, or the key of a page's last item, which is the
 * same thing) into an opaque cursor and back. What a cursor holds follows from the index its list is
 * read through ({@link Index#cursorAttributes()}), and it is tagged with its list, so a cursor of one
 * list is refused by another. Cursors are signed with HMAC-SHA256 so that a cursor that
 * was edited is refused instead of being passed to DynamoDB; the key is shared by every gateway
 * instance (configuration), so any instance accepts any instance's cursors.
 */
public final class CursorCodec {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final char SEPARATOR = '\u001f';
    private static final int SIGNATURE_BYTES = 12;
    private static final int MAX_CURSOR_CHARS = 1024;

    private final byte[] secret;
    // A Mac is not thread-safe, and Mac.getInstance looks its provider up each time: one per thread.
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    public CursorCodec(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The cursor after {@code item} in the list {@code part} read through {@code index}: the index's
     * key attributes and the table's, which is what DynamoDB's ExclusiveStartKey needs there.
     */
    public String encode(Part part, Index index, Map<String, AttributeValue> key) {
        return encode(part.name(), index, key);
    }

    /** The same for a list named {@code list} (a search, say). */
    public String encode(String list, Index index, Map<String, AttributeValue> key) {
        StringBuilder payload = new StringBuilder(list);
        for (String attribute : index.cursorAttributes()) {
            payload.append(SEPARATOR).append(key.get(attribute).s());
        }
        byte[] bytes = payload.toString().getBytes(StandardCharsets.UTF_8);
        return ENCODER.encodeToString(bytes) + "." + ENCODER.encodeToString(sign(bytes));
    }

    /**
     * Decodes a cursor into an ExclusiveStartKey, checking its signature and that it was issued for
     * this very list (same kind, same partition).
     */
    public Map<String, AttributeValue> decode(Part part, Index index, String cursor, String expectedPartition) {
        return decode(part.name(), index, cursor, expectedPartition);
    }

    /** The same for a list named {@code list}. */
    public Map<String, AttributeValue> decode(String list, Index index, String cursor, String expectedPartition) {
        List<String> attributes = index.cursorAttributes();
        if (cursor.length() > MAX_CURSOR_CHARS) {
            throw invalid();
        }
        int dot = cursor.indexOf('.');
        if (dot < 0) {
            throw invalid();
        }
        byte[] payload;
        byte[] signature;
        try {
            payload = DECODER.decode(cursor.substring(0, dot));
            signature = DECODER.decode(cursor.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (!MessageDigest.isEqual(sign(payload), signature)) {
            throw invalid();
        }
        String[] parts = new String(payload, StandardCharsets.UTF_8).split(String.valueOf(SEPARATOR), -1);
        if (parts.length != attributes.size() + 1 || !parts[0].equals(list)) {
            throw invalid();
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (int i = 0; i < attributes.size(); i++) {
            key.put(attributes.get(i), AttributeValue.fromS(parts[i + 1]));
        }
        if (!key.get(index.partitionKey()).s().equals(expectedPartition)) {
            throw new InvalidInputException("Invalid cursor: it was issued for another list");
        }
        return key;
    }

    private byte[] sign(byte[] payload) {
        // doFinal resets the Mac to its key for the next payload
        return Arrays.copyOf(macs.get().doFinal(payload), SIGNATURE_BYTES);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static InvalidInputException invalid() {
        return new InvalidInputException("Invalid cursor: pass back an endCursor or cursor exactly as it was returned");
    }
}
