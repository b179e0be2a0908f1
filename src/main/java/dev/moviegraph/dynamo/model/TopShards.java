package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.MovieId;

import java.math.BigDecimal;

/**
 * How a month's totals are spread over partitions of the keys-only index GSI8 ({@code mon#{month}#{shard}}),
 * the shard a function of the movie id alone, and how ties between totals are broken. A total's GSI8 key
 * is written once, when the total is created: at a month's start a large catalog creates tens of thousands
 * a second, and DynamoDB gives each partition key value 1,000 write units a second, so {@value #COUNT}
 * partitions take them. Only a refill of a month's top list after deletions reads them, all in parallel.
 *
 * <p>Among totals with equal streams the lower movie id ranks first: {@link #fraction} is unique per movie
 * ({@code 0.999999999} less the movie's number over 10⁹), larger for lower ids.
 */
public final class TopShards {
    /** Partitions per month: 256 take 256,000 creations a second; a refill is 256 Queries sent at once. */
    public static final int COUNT = 256;
    private static final int FRACTION_DIGITS = 9;
    private static final long FRACTION_RANGE = 1_000_000_000L;

    private TopShards() {
    }

    /** The shard of a movie's totals: a mix of its id's hash, so neighbouring ids spread evenly. */
    public static int of(MovieId movie) {
        return of(movie, COUNT);
    }

    /** The same among {@code count} shards (layout 4's top index had 16). */
    public static int of(MovieId movie, int count) {
        int h = movie.value().hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, count);
    }

    /** The shard as a key writes it: three digits. */
    public static String label(int shard) {
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

    /** Best first: more streams, then the lower movie id. */
    public static final java.util.Comparator<dev.moviegraph.catalog.MonthlyStreams> BEST_FIRST =
            java.util.Comparator.comparingLong(dev.moviegraph.catalog.MonthlyStreams::streams).reversed()
                    .thenComparing(total -> fraction(total.movieId()), java.util.Comparator.reverseOrder());
}
