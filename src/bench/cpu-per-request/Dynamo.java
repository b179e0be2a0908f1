/**
 * The engine in a process of its own, from the gateway's jar: {@code Dynamo PORT DATA_DIR}. Its first start
 * loads the sample into the table {@code moviegraph}, as the embedded default does (a jar from before the
 * engine started DynamoDB Local from its sample snapshot instead).
 */
public class Dynamo {
    public static void main(String[] args) throws Exception {
        dev.moviegraph.local.EmbeddedDynamo.persistent(java.nio.file.Path.of(args[1]), true, Integer.parseInt(args[0]));
        System.out.println("engine ready");
        Thread.currentThread().join();
    }
}
