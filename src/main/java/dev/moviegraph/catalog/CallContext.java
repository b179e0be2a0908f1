package dev.moviegraph.catalog;

import java.util.List;

/**
 * Who a store call is made for: the observer that keeps the request's receipt, and the GraphQL paths
 * the call serves (a batch serves every path that asked for one of its keys).
 */
public record CallContext(CallObserver observer, List<String> paths) {
    public static final CallContext NONE = new CallContext(CallObserver.NONE, List.of());

    public CallContext {
        paths = List.copyOf(paths);
    }
}
