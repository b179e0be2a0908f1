package dev.moviegraph.catalog;

import java.util.List;

/**
 * Who a store call is made for: the observer that keeps the request's receipt, the GraphQL paths the
 * call serves (a batch serves every path that asked for one of its keys), and, for a planning run, the
 * planner that collects the calls instead of their being made (null for a real read).
 */
public record CallContext(CallObserver observer, List<String> paths, ReadPlanner planner) {
    public static final CallContext NONE = new CallContext(CallObserver.NONE, List.of(), null);

    public CallContext {
        paths = List.copyOf(paths);
    }

    public CallContext(CallObserver observer, List<String> paths) {
        this(observer, paths, null);
    }

    public boolean planning() {
        return planner != null;
    }
}
