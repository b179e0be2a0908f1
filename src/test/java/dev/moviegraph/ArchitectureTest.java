package dev.moviegraph;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.Test;

/**
 * The directions code may depend in, checked on the compiled production classes (not the tests, not
 * src/bench). Inside dynamo/ the table model is at the bottom, the client plumbing on it, then reads,
 * writes (which read), stream counting and the change feed (which write), and admin (creating, loading,
 * migrating); above dynamo/ only the assembly, the commands, the embedded default and the functions
 * reach into it, and the AWS SDK stays below the catalog port. In graphql/, HTTP speaks to the execution
 * service (and to live queries and persisted documents, which sit on it); the service runs the schema's
 * wiring and asks the request budget and caching; errors are at the bottom. The DynamoDB-compatible engine
 * (src/engine, {@code dev.moviegraph.engine..}) is not part of the gateway and not checked here: it stands
 * apart, reached only through local/EmbeddedDynamo (EngineApartTest).
 */
class ArchitectureTest {
    private static final String ROOT = "dev.moviegraph";
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("/dev/moviegraph/engine/"))
            .importPackages(ROOT);

    @Test
    void layersDependOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Assembly").definedBy(ROOT)
                .layer("Commands").definedBy(ROOT + ".cli..")
                .layer("Functions").definedBy(ROOT + ".lambda..")
                .layer("Embedded").definedBy(ROOT + ".local..")
                .layer("Http").definedBy(ROOT + ".http..")
                .layer("Live").definedBy(ROOT + ".graphql.live..")
                .layer("Persisted").definedBy(ROOT + ".graphql.persisted..")
                .layer("Execution").definedBy(ROOT + ".graphql")
                .layer("Wiring").definedBy(ROOT + ".graphql.wiring..")
                .layer("Budget").definedBy(ROOT + ".graphql.budget..")
                .layer("Caching").definedBy(ROOT + ".graphql.caching..")
                .layer("Errors").definedBy(ROOT + ".graphql.errors..")
                .layer("Rules").definedBy(ROOT + ".graphql.auth..")
                .layer("SignIn").definedBy(ROOT + ".auth..")
                .layer("Imdb").definedBy(ROOT + ".imdb..")
                .layer("Admin").definedBy(ROOT + ".dynamo.admin..")
                .layer("Streams").definedBy(ROOT + ".dynamo.streams..")
                .layer("Write").definedBy(ROOT + ".dynamo.write..")
                .layer("Read").definedBy(ROOT + ".dynamo.read..")
                .layer("Client").definedBy(ROOT + ".dynamo.client..")
                .layer("Model").definedBy(ROOT + ".dynamo.model..")
                .layer("Telemetry").definedBy(ROOT + ".telemetry..")
                .layer("Metrics").definedBy(ROOT + ".metrics..")
                .layer("Config").definedBy(ROOT + ".config..")
                .layer("Catalog").definedBy(ROOT + ".catalog..")
                .whereLayer("Assembly").mayNotBeAccessedByAnyLayer()
                .whereLayer("Commands").mayOnlyBeAccessedByLayers("Assembly")
                .whereLayer("Functions").mayNotBeAccessedByAnyLayer()
                .whereLayer("Embedded").mayOnlyBeAccessedByLayers("Assembly", "Commands")
                .whereLayer("Http").mayOnlyBeAccessedByLayers("Assembly")
                .whereLayer("Live").mayOnlyBeAccessedByLayers("Assembly", "Http")
                .whereLayer("Persisted").mayOnlyBeAccessedByLayers("Assembly", "Http")
                .whereLayer("Execution").mayOnlyBeAccessedByLayers("Assembly", "Http", "Live")
                .whereLayer("Wiring").mayOnlyBeAccessedByLayers("Execution", "Live")
                .whereLayer("Budget").mayOnlyBeAccessedByLayers("Assembly", "Http", "Execution", "Live", "Persisted")
                .whereLayer("Caching").mayOnlyBeAccessedByLayers("Assembly", "Http", "Execution", "Wiring")
                .whereLayer("Errors").mayOnlyBeAccessedByLayers("Http", "Execution", "Live", "Persisted", "Wiring",
                        "Budget", "Caching", "Rules")
                .whereLayer("Rules").mayOnlyBeAccessedByLayers("Assembly", "Execution", "Wiring")
                .whereLayer("SignIn").mayOnlyBeAccessedByLayers("Assembly", "Http", "Execution", "Wiring", "Rules")
                .whereLayer("Imdb").mayOnlyBeAccessedByLayers("Commands")
                .whereLayer("Admin").mayOnlyBeAccessedByLayers("Assembly", "Commands", "Embedded")
                .whereLayer("Streams").mayOnlyBeAccessedByLayers("Assembly", "Commands", "Functions")
                .whereLayer("Write").mayOnlyBeAccessedByLayers("Assembly", "Streams", "Admin")
                .whereLayer("Read").mayOnlyBeAccessedByLayers("Assembly", "Write", "Streams", "Admin")
                .whereLayer("Client").mayOnlyBeAccessedByLayers("Assembly", "Commands", "Functions", "Embedded",
                        "Read", "Write", "Streams", "Admin")
                .whereLayer("Model").mayOnlyBeAccessedByLayers("Assembly", "Client", "Read", "Write", "Streams", "Admin")
                .check(PRODUCTION);
    }

    @Test
    void theCatalogDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage(ROOT + ".catalog..")
                .should().dependOnClassesThat().resideOutsideOfPackages(ROOT + ".catalog..", "java..")
                .check(PRODUCTION);
    }

    /**
     * Verifying who sends a request is a concern of its own: no GraphQL, no HTTP framework, no AWS SDK, none
     * of our other packages; so the Lambda functions or a command could use it as the server does.
     */
    @Test
    void signInDependsOnNothingOfOursNorOnTheTransportOrTheStore() {
        noClasses().that().resideInAPackage(ROOT + ".auth..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".catalog..", ROOT + ".graphql..",
                        ROOT + ".http..", ROOT + ".dynamo..", ROOT + ".config..", "graphql..", "io.javalin..",
                        "software.amazon..")
                .check(PRODUCTION);
    }

    @Test
    void packagesFormNoCycle() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(PRODUCTION);
    }

    /**
     * The catalog port, the GraphQL layer and HTTP know only the catalog's exceptions, so a change of client
     * library or a new SDK exception cannot leak into errors clients see (dynamo/client/StoreFailures
     * translates them).
     */
    @Test
    void theAwsSdkStaysBelowTheCatalogPort() {
        noClasses().that().resideInAnyPackage(ROOT + ".catalog..", ROOT + ".graphql..", ROOT + ".http..",
                        ROOT + ".config..", ROOT + ".imdb..", ROOT + ".metrics..")
                .should().dependOnClassesThat().resideInAPackage("software.amazon..")
                .check(PRODUCTION);
    }

    @Test
    void productionNeverReachesTheBenchmarks() {
        noClasses().should().dependOnClassesThat().resideInAPackage(ROOT + ".bench..").check(PRODUCTION);
    }

    /**
     * A planning run (the read budget's estimate, {@code Moviegraph-Trace: plan}) reads through the store's
     * planning reads, which hold no client and use none of the code that sends: they cannot make a request.
     */
    @Test
    void planningNeverReachesCodeThatSendsRequests() {
        noClasses().that().haveSimpleName("DynamoReadPlans")
                .should().dependOnClassesThat().haveFullyQualifiedName("software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient")
                .orShould().dependOnClassesThat().resideInAPackage(ROOT + ".dynamo.client..")
                .orShould().dependOnClassesThat().haveSimpleName("DynamoCatalog")
                .check(PRODUCTION);
    }
}
