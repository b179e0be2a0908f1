package dev.moviegraph.graphql.caching;

/**
 * How long HTTP caches may keep one answer, and which of them may: Apollo Server's cache policy. An
 * answer that may not be kept at all has {@code maxAge} 0 ({@link #NO_STORE}).
 *
 * @param maxAge  seconds; 0 for never
 * @param priv    only the client's own cache may keep it (PRIVATE), never a shared one
 */
public record CachePolicy(int maxAge, boolean priv) {
    public static final CachePolicy NO_STORE = new CachePolicy(0, false);

    public CachePolicy {
        if (maxAge < 0) {
            throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
        }
    }

    public boolean cacheable() {
        return maxAge > 0;
    }

    /** The policy that satisfies both: the shorter age, private when either is. */
    public CachePolicy restrict(CachePolicy other) {
        return new CachePolicy(Math.min(maxAge, other.maxAge), priv || other.priv);
    }

    /** This policy, kept no longer than {@code seconds}. */
    CachePolicy atMost(int seconds) {
        return maxAge <= seconds ? this : new CachePolicy(seconds, priv);
    }
}
