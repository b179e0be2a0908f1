package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.moviegraph.graphql.budget.ClientBudgets;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Who a request's client is: its address, a proxy's only when configured; the write token's bearer is exempt. */
class ClientKeysTest {
    private static final String VERIFIED = "Bearer secret-value-1";
    private final ClientKeys direct = new ClientKeys(null, VERIFIED::equals);
    private final ClientKeys proxied = new ClientKeys("X-Forwarded-For", VERIFIED::equals);

    @Test
    void aForwardedAddressIsHonouredOnlyWhenTheHeaderIsConfigured() {
        List<String> forwarded = List.of("203.0.113.7, 10.0.0.1");

        assertEquals("address:192.0.2.1", direct.key(null, "192.0.2.1", forwarded));
        assertEquals("address:10.0.0.1", proxied.key(null, "192.0.2.1", forwarded), "the right-most: the proxy's");
        assertEquals("address:10.0.0.9", proxied.key(null, "192.0.2.1", List.of("1.1.1.1", "10.0.0.9")),
                "the last header line");
        assertEquals("address:192.0.2.1", proxied.key(null, "192.0.2.1", List.of()), "no header: the peer");
    }

    @Test
    void theWriteTokensBearerIsExemptWhereverItComesFrom() {
        assertEquals(ClientBudgets.EXEMPT, direct.key(VERIFIED, "192.0.2.1", List.of()));
        assertEquals(ClientBudgets.EXEMPT, proxied.key(VERIFIED, "192.0.2.1", List.of("198.51.100.2")));
        assertNotEquals(ClientBudgets.EXEMPT, direct.key(null, "192.0.2.1", List.of()));
    }

    @Test
    void aCredentialNobodyVerifiesIsNoIdentityItsAddressIsTheClient() {
        // Otherwise a new invented credential with every request would be a new budget every time.
        assertEquals("address:192.0.2.1", direct.key("Bearer invented-1", "192.0.2.1", List.of()));
        assertEquals(direct.key("Bearer invented-1", "192.0.2.1", List.of()),
                direct.key("Bearer invented-2", "192.0.2.1", List.of()));
    }
}
