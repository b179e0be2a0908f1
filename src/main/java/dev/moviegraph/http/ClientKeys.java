package dev.moviegraph.http;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.budget.ClientBudgets;

import java.util.List;

/**
 * Who a request's client is, for its read units per second: its verified credential, else its address.
 * The WRITE_TOKEN's bearer is the deployment's own writer and exempt ({@link ClientBudgets#EXEMPT}); a
 * signed-in viewer is counted by the token's subject, wherever and on however many connections it comes
 * from. Any other credential is no identity: nobody checked it, so a client could send a new one with
 * every request and so get a new budget each time. The
 * address is the connection's, or, behind a trusted proxy (CLIENT_ADDRESS_HEADER), the right-most one of
 * that header: the one the proxy itself appended; those left of it came from the client and could be
 * anything.
 */
final class ClientKeys {
    /** The header the trusted proxy appends the client's address to; null when there is no proxy. */
    private final String addressHeader;
    ClientKeys(String addressHeader) {
        this.addressHeader = addressHeader;
    }

    /** The header to read addresses from, or null. */
    String addressHeader() {
        return addressHeader;
    }

    /**
     * @param viewer         who sent it, as its credential was verified
     * @param remoteAddress  the connection's peer
     * @param forwarded      every value of the address header, in order (empty without it or without the setting)
     */
    String key(Viewer viewer, String remoteAddress, List<String> forwarded) {
        if (viewer == Viewer.SERVICE) {
            return ClientBudgets.EXEMPT;
        }
        if (viewer.signedIn()) {
            return "subject:" + viewer.subject();
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
