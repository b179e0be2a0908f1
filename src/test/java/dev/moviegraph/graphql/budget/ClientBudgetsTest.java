package dev.moviegraph.graphql.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.metrics.GatewayMetrics;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The token buckets of clients' read units, on a clock of the test's own: no waiting, no timing. */
class ClientBudgetsTest {
    private final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final ClientBudgets budgets = new ClientBudgets(10, () -> true, now::get, new GatewayMetrics());

    private void seconds(double elapsed) {
        now.addAndGet((long) (elapsed * 1e9));
    }

    @Test
    void aSpentBucketIsRefusedUntilItsDebtIsRefilledThenAdmittedAgain() {
        assertEquals(OptionalLong.empty(), budgets.admit("a", "http"));
        budgets.charge("a", 50 + 25); // the burst (5 s of 10 units) and 2.5 s of debt

        assertEquals(OptionalLong.of(3), budgets.admit("a", "http"), "2.5 s of debt, in whole seconds up");
        seconds(2);
        assertEquals(OptionalLong.of(1), budgets.admit("a", "http"));
        seconds(1);
        assertEquals(OptionalLong.empty(), budgets.admit("a", "http"), "refilled");
    }

    @Test
    void oneClientsSpendingLeavesAnothersUnitsAlone() {
        budgets.charge("a", 1_000);

        assertTrue(budgets.admit("a", "http").isPresent());
        assertEquals(OptionalLong.empty(), budgets.admit("b", "http"));
    }

    @Test
    void theBucketHoldsAtMostItsBurstHoweverLongTheClientWasIdle() {
        seconds(3_600);
        budgets.charge("a", 10 * ClientBudgets.BURST_SECONDS + 10);

        assertEquals(OptionalLong.of(2), budgets.admit("a", "http"), "a full bucket, not an hour's worth: 1 s of"
                + " debt, so something again in the second after it");
    }

    @Test
    void nothingIsCountedWhileInactiveOrWithNoRate() {
        ClientBudgets none = new ClientBudgets(0, () -> true, now::get, new GatewayMetrics());
        ClientBudgets warming = new ClientBudgets(10, () -> false, now::get, new GatewayMetrics());
        none.charge("a", 1_000);
        warming.charge("a", 1_000);

        assertEquals(OptionalLong.empty(), none.admit("a", "http"));
        assertEquals(OptionalLong.empty(), warming.admit("a", "http"));
    }
}
