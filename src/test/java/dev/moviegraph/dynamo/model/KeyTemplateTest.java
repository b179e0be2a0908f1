package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Key formats that make values sort as lists must: here {@code newest}, later instants first. */
class KeyTemplateTest {

    @Test
    void newestWritesLaterInstantsFirstInKeysOfOneLength() {
        KeyTemplate template = new KeyTemplate("e#{at:newest}#{id}");
        String earlier = template.render(Map.of("at", Instant.parse("2026-11-29T00:00:00Z"), "id", "a"));
        String later = template.render(Map.of("at", Instant.parse("2026-11-29T00:00:00.001Z"), "id", "a"));
        String muchLater = template.render(Map.of("at", Instant.parse("2200-01-01T00:00:00Z"), "id", "a"));
        assertTrue(later.compareTo(earlier) < 0, later + " sorts before " + earlier);
        assertTrue(muchLater.compareTo(later) < 0);
        assertEquals(earlier.length(), muchLater.length());
        assertEquals("e#9999999999999#a", template.render(Map.of("at", Instant.EPOCH, "id", "a")));
        assertEquals("e#", template.renderPrefix(Map.of()));
    }

    @Test
    void anInstantOutsideThirteenDigitsIsRefused() {
        KeyTemplate template = new KeyTemplate("e#{at:newest}");
        assertThrows(IllegalArgumentException.class, () -> template.render(Map.of("at", Instant.parse("1969-12-31T23:59:59Z"))));
        assertThrows(IllegalArgumentException.class, () -> template.render(Map.of()));
    }
}
