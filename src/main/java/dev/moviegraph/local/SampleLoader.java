package dev.moviegraph.local;

import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.dynamo.admin.BulkLoader;
import dev.moviegraph.dynamo.admin.TableAdmin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** Loads the bundled sample catalog into the table once. */
public final class SampleLoader {
    private static final Logger LOG = LoggerFactory.getLogger(SampleLoader.class);
    private static final String MARKER = "sample-" + SampleCatalog.DEFAULT_SEED;

    private final BulkLoader loader;

    public SampleLoader(BulkLoader loader) {
        this.loader = loader;
    }

    /**
     * Creates {@code table} with its indexes when it is missing and loads the sample into it unless it is
     * there already, as the server does with CREATE_TABLE and LOAD_SAMPLE: a table it creates gets its
     * stream once the sample is in, so the stream's readers never have the load's inserts to skip.
     * Returns the number of items written.
     */
    public static int intoTable(DynamoDbAsyncClient client, String table) {
        TableAdmin admin = new TableAdmin(client, table);
        admin.ensureTableForLoad();
        admin.requireLayout();
        int items = new SampleLoader(new BulkLoader(client, table)).loadIfMissing();
        admin.startStreamAfterLoad();
        return items;
    }

    /** Loads the sample unless it is already there; returns the number of items written. */
    public int loadIfMissing() {
        if (loader.isLoaded(MARKER)) {
            LOG.info("Sample catalog already loaded");
            return 0;
        }
        if (loader.holdsImport(ImportCheckpoint.IMDB)) {
            // An imported catalog is the user's own: the sample is never mixed into it.
            LOG.info("The table holds an IMDb import; the sample catalog is not loaded");
            return 0;
        }
        long start = System.nanoTime();
        SampleCatalog sample = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
        int items = loader.load(MARKER, sample.movies(), sample.people(), sample.credits(), sample.totals(),
                sample.others());
        LOG.info("Loaded the sample catalog: {} movies, {} people, {} credits, {} monthly totals ({} items) in {} ms",
                sample.movies().size(), sample.people().size(), sample.credits().size(), sample.totals().size(), items,
                (System.nanoTime() - start) / 1_000_000);
        return items;
    }
}
