package dev.moviegraph.graphql;

import java.util.Map;

/**
 * The payloads that follow an answer's first one when it defers fragments ({@code @defer}), in the
 * incremental delivery format Apollo calls {@code deferSpec=20220824}: {@code {"incremental":[{"data",
 * "path", "label", "errors"}], "hasNext"}}. Nothing is read until the transport {@link #start starts}
 * them, after it has sent the first payload; it then gets every part in order, the last with
 * {@code hasNext: false}, whatever fails on the way (a failure is that last part's {@code errors}).
 */
public interface LaterParts {
    /** Where the parts go, from other threads, one at a time. */
    interface Receiver {
        /** @param last the final part: nothing follows it */
        void part(Map<String, Object> payload, boolean last);
    }

    /** Starts reading the deferred fragments; called once. */
    void start(Receiver receiver);

    /** The client went away: nothing more is read or handed on. May be called at any time, more than once. */
    void cancel();
}
