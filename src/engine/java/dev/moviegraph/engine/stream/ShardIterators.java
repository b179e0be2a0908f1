package dev.moviegraph.engine.stream;

import dev.moviegraph.engine.error.ApiException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * Shard iterators: opaque strings that carry where to read (stream, shard, the lowest number still to
 * hand out) and when they were issued, so the engine keeps no state per iterator and an iterator needs
 * nothing but its own text. A checksum tells a mangled one from a real one.
 */
final class ShardIterators {
    private ShardIterators() {
    }

    /** Where an iterator points: records numbered {@code from} or above in the shard. */
    record Position(String streamArn, String shardId, long from, long issuedMillis) {
    }

    static String encode(Position position) {
        String body = position.streamArn() + '\n' + position.shardId() + '\n' + position.from() + '\n'
                + position.issuedMillis();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(body.getBytes(StandardCharsets.UTF_8))
                + '.' + Long.toHexString(checksum(body));
    }

    static Position decode(String iterator) {
        try {
            int dot = iterator.lastIndexOf('.');
            String body = new String(Base64.getUrlDecoder().decode(iterator.substring(0, dot)), StandardCharsets.UTF_8);
            if (Long.parseLong(iterator.substring(dot + 1), 16) != checksum(body)) {
                throw invalid();
            }
            String[] parts = body.split("\n", -1);
            if (parts.length != 4) {
                throw invalid();
            }
            return new Position(parts[0], parts[1], Long.parseLong(parts[2]), Long.parseLong(parts[3]));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw invalid();
        }
    }

    private static long checksum(String body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    private static ApiException invalid() {
        return ApiException.validation("Invalid ShardIterator");
    }
}
