package dev.moviegraph.catalog;

import java.util.function.Consumer;

/**
 * The changes made to the catalog by anyone (this gateway, another replica, the import, a PutItem made by
 * hand), delivered to every listener of every replica. A feed does its work only while someone listens.
 */
public interface ChangeFeed extends AutoCloseable {
    /** Starts delivering changes to {@code listener} (on the feed's thread) until the registration is closed. */
    Registration listen(Consumer<CatalogChanges> listener);

    /** Stops the feed's thread and any stream reading; listeners hear nothing more. */
    @Override
    void close();

    /** A listener's registration. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** A feed that never changes: subscriptions get their first answer only (a table without a stream). */
    ChangeFeed NONE = new ChangeFeed() {
        @Override
        public Registration listen(Consumer<CatalogChanges> listener) {
            return () -> { };
        }

        @Override
        public void close() {
        }
    };
}
