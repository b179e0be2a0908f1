/**
 * AWS's DynamoDB Local in a process of its own, from a jar that embeds it (the previous main's, before
 * the engine replaced it): {@code LocalServer PORT [DATA_DIR]}. In memory (-inMemory, on a port of its
 * own choosing) without DATA_DIR, its SQLite file in DATA_DIR with one. Prints {@code ready ENDPOINT}.
 */
public class LocalServer {
    public static void main(String[] args) throws Exception {
        dev.moviegraph.local.EmbeddedDynamo dynamo = args.length > 1
            ? dev.moviegraph.local.EmbeddedDynamo.persistent(java.nio.file.Path.of(args[1]), false, Integer.parseInt(args[0]))
            : dev.moviegraph.local.EmbeddedDynamo.ephemeral(false);
        System.out.println("ready " + dynamo.endpoint());
        Thread.currentThread().join();
    }
}
