package dev.moviegraph.http;

import dev.moviegraph.graphql.budget.ClientBudgets;

import java.util.List;
import java.util.function.Predicate;

/**
 * Who a request's client is, for its read units per second: its address, unless its credential (the
 * Authorization header) is one the gateway verifies. The only one it verifies is the WRITE_TOKEN, whose
 * bearer is the deployment's own writer and exempt ({@link ClientBudgets#EXEMPT}). Any other credential
 * is no identity: nobody checks it, so a client could send a new one with every request and so get a
 * new budget each time. The
 * address is the connection's, or, behind a trusted proxy (CLIENT_ADDRESS_HEADER), the right-most one of
 * that header: the one the proxy itself appended; those left of it came from the client and could be
 * anything.
 */
final class ClientKeys {
    /** The header the trusted proxy appends the client's address to; null when there is no proxy. */
    private final String addressHeader;
    /** Whether an Authorization header is a credential this gateway verifies. */
    private final Predicate<String> verified;

    ClientKeys(String addressHeader, Predicate<String> verified) {
        this.addressHeader = addressHeader;
        this.verified = verified;
    }

    /** The header to read addresses from, or null. */
    String addressHeader() {
        return addressHeader;
    }

    /**
     * @param authorization  the Authorization header, or null
     * @param remoteAddress  the connection's peer
     * @param forwarded      every value of the address header, in order (empty without it or without the setting)
     */
    String key(String authorization, String remoteAddress, List<String> forwarded) {
        if (authorization != null && !authorization.isBlank() && verified.test(authorization)) {
            return ClientBudgets.EXEMPT;
        }
        return "address:" + address(remoteAddress, forwarded);
    }

    private String address(String remoteAddress, List<String> forwarded) {
        if (addressHeader != null && !forwarded.isEmpty()) {
            String[] hops = forwarded.get(forwarded.size() - 1).split(",");
            String last = hops[hops.length - 1].trim();
            if (!last.isEmpty()) {
                return last;
            }
        }
        return remoteAddress;
    }
}
