package dev.moviegraph.catalog;

import java.util.List;

/**
 * Collects the calls of a planning run (Moviegraph-Trace: plan, and the read budget's estimate). A store
 * that is handed one in its {@link CallContext} tells it the calls a read would make instead of making
 * them, and answers with its {@link #standIns()}.
 */
public interface ReadPlanner {
    /**
     * Records the calls of one read.
     *
     * @throws RequestStoppedException when the reads planned so far are already estimated past the bound
     */
    void record(List<PlannedCall> calls, CallContext context);

    /** The stand-in items planned reads answer with. */
    StandIns standIns();
}
