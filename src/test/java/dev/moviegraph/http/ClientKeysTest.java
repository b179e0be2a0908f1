package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.budget.ClientBudgets;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Who a request's client is: its address, a proxy's only when configured; the write token's bearer is
 * exempt; a signed-in viewer is its subject, from wherever it comes.
 */
class ClientKeysTest {
    private final ClientKeys direct = new ClientKeys(null);
    private final ClientKeys proxied = new ClientKeys("X-Forwarded-For");

    @Test
    void aForwardedAddressIsHonouredOnlyWhenTheHeaderIsConfigured() {
        List<String> forwarded = List.of("203.0.113.7, 10.0.0.1");

        assertEquals("address:192.0.2.1", direct.key(Viewer.ANONYMOUS, "192.0.2.1", forwarded));
        assertEquals("address:10.0.0.1", proxied.key(Viewer.ANONYMOUS, "192.0.2.1", forwarded), "the right-most: the proxy's");
        assertEquals("address:10.0.0.9", proxied.key(Viewer.ANONYMOUS, "192.0.2.1", List.of("1.1.1.1", "10.0.0.9")),
                "the last header line");
        assertEquals("address:192.0.2.1", proxied.key(Viewer.ANONYMOUS, "192.0.2.1", List.of()), "no header: the peer");
    }

    @Test
    void theWriteTokensBearerIsExemptWhereverItComesFrom() {
        assertEquals(ClientBudgets.EXEMPT, direct.key(Viewer.SERVICE, "192.0.2.1", List.of()));
        assertEquals(ClientBudgets.EXEMPT, proxied.key(Viewer.SERVICE, "192.0.2.1", List.of("198.51.100.2")));
        assertNotEquals(ClientBudgets.EXEMPT, direct.key(Viewer.ANONYMOUS, "192.0.2.1", List.of()));
        assertNotEquals(ClientBudgets.EXEMPT, direct.key(Viewer.SANDBOX, "192.0.2.1", List.of()),
                "the sandbox's anybody is no credential");
    }

    @Test
    void aSignedInViewerIsCountedByItsSubjectFromAnyAddress() {
        Viewer alice = new Viewer("alice", Set.of(), null);
        assertEquals("subject:alice", direct.key(alice, "192.0.2.1", List.of()));
        assertEquals(direct.key(alice, "192.0.2.1", List.of()), proxied.key(alice, "192.0.2.9", List.of("198.51.100.2")));
        assertNotEquals(direct.key(alice, "192.0.2.1", List.of()),
                direct.key(new Viewer("bob", Set.of(), null), "192.0.2.1", List.of()), "two viewers behind one address");
    }
}
