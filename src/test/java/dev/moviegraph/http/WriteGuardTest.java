package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.graphql.errors.ErrorType;

import org.junit.jupiter.api.Test;

class WriteGuardTest {
    private static final String TOKEN = "0123456789abcdef-token";

    @Test
    void withATokenOnlyTheExactBearerHeaderMayWrite() {
        WriteGuard guard = new WriteGuard(TOKEN, false);

        assertTrue(guard.check("Bearer " + TOKEN).isEmpty());
        assertEquals(401, guard.check(null).orElseThrow().status());
        assertEquals(401, guard.check("Bearer wrong").orElseThrow().status());
        assertEquals(401, guard.check(TOKEN).orElseThrow().status(), "the scheme is part of it");
        assertEquals(ErrorType.UNAUTHENTICATED, guard.check("Basic " + TOKEN).orElseThrow().code());
    }

    @Test
    void aTokenIsNeededOnTheEmbeddedDefaultTooOnceItIsSet() {
        assertEquals(401, new WriteGuard(TOKEN, true).check(null).orElseThrow().status());
    }

    @Test
    void withoutATokenWritesAreOpenOnlyOnTheEmbeddedDefault() {
        assertTrue(new WriteGuard(null, true).check(null).isEmpty());

        WriteGuard.Refusal refusal = new WriteGuard(null, false).check("Bearer anything").orElseThrow();
        assertEquals(403, refusal.status());
        assertEquals(ErrorType.FORBIDDEN, refusal.code());
        assertTrue(refusal.message().contains("set WRITE_TOKEN"), refusal.message());
    }
}
