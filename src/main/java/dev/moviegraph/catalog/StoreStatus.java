package dev.moviegraph.catalog;

/**
 * Whether the store serves reads now, and if not why, in words for an operator (/health's body).
 * Serving means what a query would meet: a store that answers a probe while the gateway still refuses
 * its calls does not serve.
 */
public record StoreStatus(boolean serving, String reason) {
    public static final StoreStatus SERVING = new StoreStatus(true, null);

    public static StoreStatus down(String reason) {
        return new StoreStatus(false, reason);
    }
}
