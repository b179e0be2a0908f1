package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OutboxTest {
    /** A transport whose client reads only when told to: each send waits until {@link #deliver}. */
    private static final class SlowClient implements Outbox.Sender {
        final List<String> received = new ArrayList<>();
        private Runnable pending;
        private String inFlight;

        @Override
        public void send(String text, Runnable done, java.util.function.Consumer<Throwable> failed) {
            inFlight = text;
            pending = done;
        }

        /** The client reads the frame in flight; the outbox may send the next. */
        boolean deliver() {
            if (pending == null) {
                return false;
            }
            received.add(inFlight);
            Runnable done = pending;
            pending = null;
            done.run();
            return true;
        }
    }

    private final SlowClient client = new SlowClient();
    private String overflowed;
    private final Outbox outbox = new Outbox(new ObjectMapper(), client, reason -> overflowed = reason);

    @Test
    void aSlowReaderGetsTheLatestStateOfASubscriptionNotEveryChange() {
        for (int version = 1; version <= 1_000; version++) {
            outbox.latest("top", Map.of("payload", version));
        }
        // The first went out at once; of the 999 after it only the newest waits.
        assertEquals(1, outbox.waiting());
        while (client.deliver()) {
            // drain
        }
        assertEquals(List.of("{\"payload\":1}", "{\"payload\":1000}"), client.received);
    }

    @Test
    void controlMessagesKeepTheirOrderAndGoBeforeWaitingUpdates() {
        outbox.control(Map.of("type", "connection_ack"));
        outbox.latest("a", Map.of("a", 1));
        outbox.control(Map.of("type", "pong"));
        outbox.latest("b", Map.of("b", 2));
        outbox.latest("a", Map.of("a", 3));
        while (client.deliver()) {
            // drain
        }
        assertEquals(List.of("{\"type\":\"connection_ack\"}", "{\"type\":\"pong\"}", "{\"a\":3}", "{\"b\":2}"), client.received);
    }

    @Test
    void aCompletedSubscriptionSendsNothingThatWasWaiting() {
        outbox.control(Map.of("type", "connection_ack"));
        outbox.latest("a", Map.of("id", "a", "payload", 1));
        outbox.forget("a");
        while (client.deliver()) {
            // drain
        }
        assertEquals(List.of("{\"type\":\"connection_ack\"}"), client.received);
    }

    @Test
    void aClientThatNeverReadsIsDisconnectedInsteadOfBufferedForever() {
        for (int i = 0; i <= Outbox.MAX_WAITING_CONTROL; i++) {
            outbox.control(Map.of("type", "pong"));
        }
        assertNull(overflowed, "the limit counts waiting messages, not the one in flight");
        outbox.control(Map.of("type", "pong"));
        assertTrue(overflowed != null && overflowed.contains("does not read"), String.valueOf(overflowed));
        assertTrue(outbox.waiting() <= Outbox.MAX_WAITING_CONTROL);
    }
}
