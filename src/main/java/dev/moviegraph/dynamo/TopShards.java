package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.MovieId;

import java.math.BigDecimal;

/**
 * How a month's top list is spread over partitions (layout 4). Every total of a month is in one of
 * {@value #COUNT} partitions of the top index ({@code top#{month}#{shard}}), the shard a function of the
 * movie id alone, so a movie's total stays in one partition and a month's updates spread over all of
 * them: DynamoDB gives each partition key value 1,000 write units a second, and an update that moves a
 * total in its index costs two (a delete and a put). The top N of a month is the first N of every shard,
 * read in parallel and merged.
 *
 * <p>The index's sort key is the total's {@code rank}: its streams plus a fraction that is unique per movie
 * ({@code 0.999999999} less the movie's number over 10⁹), so no two totals of a month tie in the index and
 * each shard's first N are exactly its N best; among equal numbers of streams the lower movie id comes
 * first. Writers set it from the total's own streams in the same update
 * ({@code rank = if_not_exists(streams, 0) + count + fraction}), so it is right after any update whoever
 * wrote the one before.
 */
public final class TopShards {
    /**
     * Partitions per month: 16 take 16,000 index write units a second, 4,000 to 8,000 total updates (a
     * transaction doubles each), 16 times what one partition took; a top-N read is 16 Queries sent at once,
     * 8 read units for a top 10 and at most 96 for a top 100, within the default read budget.
     */
    public static final int COUNT = 16;
    private static final int FRACTION_DIGITS = 9;
    private static final long FRACTION_RANGE = 1_000_000_000L;

    private TopShards() {
    }

    /** The shard of a movie's totals: a mix of its id's hash, so neighbouring ids spread evenly. */
    public static int of(MovieId movie) {
        int h = movie.value().hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, COUNT);
    }

    /** The shard as a key writes it: three digits. */
    static String label(int shard) {
        return String.format("%03d", shard);
    }

    /**
     * The movie's tie-breaking fraction: unique per movie id ({@code tt} and 7 or 8 digits; an 8-digit id
     * with a leading zero is told from the 7-digit one), larger for lower ids.
     */
    public static BigDecimal fraction(MovieId movie) {
        String digits = movie.value().substring(2);
        long number = Long.parseLong(digits) + (digits.length() == 8 ? 100_000_000L : 0);
        return BigDecimal.valueOf(FRACTION_RANGE - 1 - number, FRACTION_DIGITS);
    }

    /** A total's rank: its streams and its movie's fraction. */
    static BigDecimal rank(MovieId movie, long streams) {
        return BigDecimal.valueOf(streams).add(fraction(movie));
    }
}
