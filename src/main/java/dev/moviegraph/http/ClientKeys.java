package dev.moviegraph.http;

import dev.moviegraph.graphql.PersistedDocuments;

import java.util.List;

/**
 * Who a request's client is, for its read units per second: its credential (the Authorization header)
 * when it sends one, else its address. The credential is kept only as its SHA-256, never in clear. The
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
     * @param authorization  the Authorization header, or null
     * @param remoteAddress  the connection's peer
     * @param forwarded      every value of the address header, in order (empty without it or without the setting)
     */
    String key(String authorization, String remoteAddress, List<String> forwarded) {
        if (authorization != null && !authorization.isBlank()) {
            return "credential:" + PersistedDocuments.sha256(authorization);
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
