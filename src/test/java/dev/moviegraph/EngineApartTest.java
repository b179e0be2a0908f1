package dev.moviegraph;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.Test;

/**
 * The DynamoDB-compatible engine (src/engine) and the gateway stay apart, checked on the compiled
 * production classes: the engine uses nothing of the gateway, and the gateway reaches the engine only
 * through its start/stop handle in {@code local.EmbeddedDynamo}; everything else talks to it over HTTP,
 * as to DynamoDB.
 */
class EngineApartTest {
    private static final String ROOT = "dev.moviegraph";
    private static final String ENGINE = ROOT + ".engine..";
    private static final String HANDLE = ROOT + ".local.EmbeddedDynamo";
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    /** The handle and its nested classes, if it ever has any. */
    private static final DescribedPredicate<JavaClass> THE_HANDLE = DescribedPredicate.describe(
            "are " + HANDLE + " or nested in it",
            javaClass -> javaClass.getName().equals(HANDLE) || javaClass.getName().startsWith(HANDLE + "$"));

    @Test
    void theEngineDependsOnNothingOfTheGateway() {
        noClasses().that().resideInAPackage(ENGINE)
                .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(resideOutsideOfPackage(ENGINE)))
                .check(PRODUCTION);
    }

    @Test
    void onlyTheEmbeddedHandleDependsOnTheEngine() {
        noClasses().that().resideOutsideOfPackage(ENGINE).and(DescribedPredicate.not(THE_HANDLE))
                .should().dependOnClassesThat().resideInAPackage(ENGINE)
                .check(PRODUCTION);
    }

    /** The rules above would pass on no classes at all: the engine and the handle are really there. */
    @Test
    void bothSidesAreImported() {
        assertTrue(PRODUCTION.containPackage(ROOT + ".engine"),
                "the engine's classes are on the classpath");
        assertTrue(PRODUCTION.contain(HANDLE), "the handle is on the classpath");
    }
}
