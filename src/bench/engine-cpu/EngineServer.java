/**
 * Our engine in a process of its own, from the current jar: {@code EngineServer PORT [DATA_DIR]}. In
 * memory without DATA_DIR, durable in it with one. Prints {@code ready ENDPOINT} once it answers.
 */
public class EngineServer {
    public static void main(String[] args) throws Exception {
        dev.moviegraph.engine.EngineOptions options = dev.moviegraph.engine.EngineOptions.inMemory()
            .withPort(Integer.parseInt(args[0]));
        if (args.length > 1) {
            options = options.withDataDir(java.nio.file.Path.of(args[1]));
        }
        dev.moviegraph.engine.Engine engine = dev.moviegraph.engine.Engine.start(options);
        System.out.println("ready " + engine.endpoint());
        Thread.currentThread().join();
    }
}
