/**
 * DynamoDB Local in a process of its own, from the gateway's jar: {@code Dynamo PORT DATA_DIR}. Its
 * database starts as the jar's sample snapshot (table {@code moviegraph}), as the embedded default does.
 */
public class Dynamo {
    public static void main(String[] args) throws Exception {
        dev.moviegraph.local.EmbeddedDynamo.persistent(java.nio.file.Path.of(args[1]), true, Integer.parseInt(args[0]));
        System.out.println("DynamoDB Local ready");
        Thread.currentThread().join();
    }
}
