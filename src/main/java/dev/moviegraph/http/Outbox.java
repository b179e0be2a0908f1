package dev.moviegraph.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What waits to be sent on one socket, one frame in flight at a time: control messages (acks, pongs,
 * errors, completes) in order, and per subscription only its newest message, which replaces one not
 * yet sent. A client that reads slowly gets the latest state of each subscription, and the memory a
 * socket holds stays bounded whatever the rate of changes: a client that stops reading altogether is
 * disconnected once {@link #MAX_WAITING_CONTROL} control messages wait.
 */
final class Outbox {
    /** Control messages waiting for a client that does not read. */
    static final int MAX_WAITING_CONTROL = 256;

    /** Sends one text frame, calling {@code done} or {@code failed} when the transport is finished with it. */
    interface Sender {
        void send(String text, Runnable done, Consumer<Throwable> failed);
    }

    private final ObjectMapper json;
    private final Sender sender;
    private final Consumer<String> overflow;
    private final ArrayDeque<String> control = new ArrayDeque<>();
    private final LinkedHashMap<String, String> latest = new LinkedHashMap<>();
    private boolean sending;
    private boolean stopped;

    /** @param overflow closes the socket, with a reason, when too many control messages wait */
    Outbox(ObjectMapper json, Sender sender, Consumer<String> overflow) {
        this.json = json;
        this.sender = sender;
        this.overflow = overflow;
    }

    synchronized void control(Map<String, Object> message) {
        if (stopped) {
            return;
        }
        if (control.size() >= MAX_WAITING_CONTROL) {
            stopped = true;
            overflow.accept("Too many messages waiting: the client does not read its socket");
            return;
        }
        control.add(write(message));
        pump();
    }

    /** The newest message of subscription {@code key}: replaces the one waiting, if any. */
    synchronized void latest(String key, Map<String, Object> message) {
        if (stopped) {
            return;
        }
        latest.put(key, write(message));
        pump();
    }

    /** Drops what waits for subscription {@code key} (it was completed). */
    synchronized void forget(String key) {
        latest.remove(key);
    }

    synchronized void stop() {
        stopped = true;
        control.clear();
        latest.clear();
    }

    /** Messages waiting (not counting the one in flight). */
    synchronized int waiting() {
        return control.size() + latest.size();
    }

    private String write(Map<String, Object> message) {
        try {
            return json.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A message could not be written as JSON", e);
        }
    }

    private void pump() {
        if (sending || stopped) {
            return;
        }
        String next = control.poll();
        if (next == null && !latest.isEmpty()) {
            next = latest.remove(latest.keySet().iterator().next());
        }
        if (next == null) {
            return;
        }
        sending = true;
        sender.send(next, this::sent, failure -> {
            synchronized (this) {
                stopped = true;
            }
        });
    }

    private synchronized void sent() {
        sending = false;
        pump();
    }
}
