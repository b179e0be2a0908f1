package dev.moviegraph.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** AppConfig.fromEnvironment: the defaults, every accepted form, and every refusal naming its variable. */
class AppConfigTest {

    private static ConfigException refused(Map<String, String> env) {
        return assertThrows(ConfigException.class, () -> AppConfig.fromEnvironment(env));
    }

    /** The one problem reported for {@code env}; asserts that it (and the exception message) names {@code variable}. */
    private static String onlyProblemNaming(String variable, Map<String, String> env) {
        ConfigException e = refused(env);
        assertEquals(1, e.problems().size(), e.problems().toString());
        String problem = e.problems().get(0);
        assertTrue(problem.contains(variable), problem);
        assertTrue(e.getMessage().contains(variable), e.getMessage());
        return problem;
    }

    @Test
    void noEnvironmentMeansEmbeddedOnPort8080WithTableCreatedAndSampleLoaded() {
        AppConfig config = AppConfig.fromEnvironment(Map.of());
        assertEquals(8080, config.port());
        assertInstanceOf(AppConfig.Endpoint.Embedded.class, config.endpoint());
        assertTrue(config.embedded());
        assertEquals("moviegraph", config.tableName());
        assertTrue(config.createTable());
        assertTrue(config.loadSample());
        assertNull(config.dataDir());
        assertTrue(config.cursorSecret().length() >= 16, "the default cursor secret must pass its own check");
        assertEquals(config, AppConfig.defaults());
    }

    @Test
    void blankValuesAreTreatedAsUnset() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", " ", "DYNAMODB_ENDPOINT", "", "TABLE_NAME", "  ",
                "CREATE_TABLE", "", "LOAD_SAMPLE", " ", "DYNAMODB_DATA_DIR", " ", "CURSOR_SECRET", ""));
        assertEquals(AppConfig.defaults(), config);
    }

    @Test
    void explicitEmbeddedIsTheDefaultWhateverItsCase() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", " Embedded "));
        assertInstanceOf(AppConfig.Endpoint.Embedded.class, config.endpoint());
        assertTrue(config.createTable());
        assertTrue(config.loadSample());
    }

    @Test
    void awsEndpointNeitherCreatesTheTableNorLoadsTheSampleByDefault() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "AWS"));
        assertInstanceOf(AppConfig.Endpoint.Aws.class, config.endpoint());
        assertFalse(config.embedded());
        assertFalse(config.createTable());
        assertFalse(config.loadSample());
    }

    @Test
    void httpUrlEndpointIsKeptAsGivenAndNeitherCreatesNorLoadsByDefault() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "http://localhost:8000"));
        AppConfig.Endpoint.Url url = assertInstanceOf(AppConfig.Endpoint.Url.class, config.endpoint());
        assertEquals(URI.create("http://localhost:8000"), url.uri());
        assertEquals("localhost", url.uri().getHost());
        assertEquals(8000, url.uri().getPort());
        assertFalse(config.embedded());
        assertFalse(config.createTable());
        assertFalse(config.loadSample());
    }

    @Test
    void httpsUrlEndpointIsAccepted() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", " https://dynamodb.eu-west-1.amazonaws.com "));
        AppConfig.Endpoint.Url url = assertInstanceOf(AppConfig.Endpoint.Url.class, config.endpoint());
        assertEquals(URI.create("https://dynamodb.eu-west-1.amazonaws.com"), url.uri());
    }

    @Test
    void createTableAndLoadSampleCanBeTurnedOnForAUrlAndOffForEmbedded() {
        AppConfig url = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "http://localhost:8000",
                "CREATE_TABLE", "true", "LOAD_SAMPLE", "YES"));
        assertTrue(url.createTable());
        assertTrue(url.loadSample());

        AppConfig aws = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "aws", "CREATE_TABLE", "1"));
        assertTrue(aws.createTable());
        assertFalse(aws.loadSample());

        AppConfig embedded = AppConfig.fromEnvironment(Map.of("CREATE_TABLE", "false", "LOAD_SAMPLE", "0"));
        assertFalse(embedded.createTable());
        assertFalse(embedded.loadSample());
        assertFalse(AppConfig.fromEnvironment(Map.of("LOAD_SAMPLE", " No ")).loadSample());
    }

    @Test
    void portTableDataDirAndSecretAreTakenTrimmed() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", " 9090 ", "TABLE_NAME", " my-table_1.v2 ",
                "DYNAMODB_DATA_DIR", " /var/lib/moviegraph ", "CURSOR_SECRET", "0123456789abcdef"));
        assertEquals(9090, config.port());
        assertEquals("my-table_1.v2", config.tableName());
        assertEquals(Path.of("/var/lib/moviegraph"), config.dataDir());
        assertEquals("0123456789abcdef", config.cursorSecret());
        assertTrue(config.embedded());
    }

    @Test
    void portZeroAndTheLimitsOfTheRangeAreAccepted() {
        assertEquals(0, AppConfig.fromEnvironment(Map.of("PORT", "0")).port());
        assertEquals(65535, AppConfig.fromEnvironment(Map.of("PORT", "65535")).port());
    }

    @Test
    void limitsHaveSafeDefaultsAndIntrospectionIsOnOnlyWhenEmbedded() {
        AppConfig.Limits embedded = AppConfig.defaults().limits();
        AppConfig.Limits aws = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "aws")).limits();

        assertEquals(15, embedded.maxDepth());
        assertEquals(102_400, embedded.maxBodyBytes());
        assertEquals(20_000, embedded.maxResultNodes());
        assertEquals(100, embedded.maxReadUnits());
        assertEquals(15_000, embedded.timeoutMillis());
        assertTrue(embedded.introspection());
        assertFalse(aws.introspection());
        assertEquals(List.of(), aws.corsOrigins());
        assertTrue(AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "aws", "INTROSPECTION", "true")).limits()
                .introspection());
    }

    @Test
    void limitsOutOfRangeAndMalformedOriginsAreRefusedByName() {
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.fromEnvironment(Map.of(
                "MAX_QUERY_DEPTH", "0", "MAX_BODY_BYTES", "lots", "CORS_ORIGINS", "https://ok.example.com, *")));

        assertTrue(e.getMessage().contains("MAX_QUERY_DEPTH='0' must be a whole number from 2 to 100"), e.getMessage());
        assertTrue(e.getMessage().contains("MAX_BODY_BYTES='lots'"), e.getMessage());
        assertTrue(e.getMessage().contains("CORS_ORIGINS entry '*'"), e.getMessage());
        ConfigException execution = assertThrows(ConfigException.class, () -> AppConfig.fromEnvironment(Map.of(
                "MAX_RESULT_NODES", "10", "MAX_READ_UNITS", "-1", "REQUEST_TIMEOUT_MS", "1h")));
        assertTrue(execution.getMessage().contains("MAX_RESULT_NODES='10' must be a whole number from 100"),
                execution.getMessage());
        assertTrue(execution.getMessage().contains("MAX_READ_UNITS='-1'"), execution.getMessage());
        assertTrue(execution.getMessage().contains("REQUEST_TIMEOUT_MS='1h'"), execution.getMessage());
        assertEquals(0, AppConfig.fromEnvironment(Map.of("MAX_READ_UNITS", "0")).limits().maxReadUnits(),
                "0 turns the budget off");
        assertEquals(List.of("https://a.example.com", "http://localhost:3000"), AppConfig.fromEnvironment(Map.of(
                "CORS_ORIGINS", "https://a.example.com, http://localhost:3000")).limits().corsOrigins());
    }

    @Test
    void shutdownGraceIsTwentySecondsByDefaultAndRefusedOutsideZeroToSixHundred() {
        assertEquals(20, AppConfig.defaults().shutdownGraceSeconds());
        assertEquals(0, AppConfig.fromEnvironment(Map.of("SHUTDOWN_GRACE_SECONDS", "0")).shutdownGraceSeconds());
        assertEquals(600, AppConfig.fromEnvironment(Map.of("SHUTDOWN_GRACE_SECONDS", " 600 ")).shutdownGraceSeconds());
        String problem = onlyProblemNaming("SHUTDOWN_GRACE_SECONDS", Map.of("SHUTDOWN_GRACE_SECONDS", "601"));
        assertTrue(problem.contains("from 0 to 600"), problem);
        onlyProblemNaming("SHUTDOWN_GRACE_SECONDS", Map.of("SHUTDOWN_GRACE_SECONDS", "20s"));
        onlyProblemNaming("SHUTDOWN_GRACE_SECONDS", Map.of("SHUTDOWN_GRACE_SECONDS", "-1"));
    }

    @Test
    void cacheAgesAndBatchSizeHaveDefaultsAndAreRefusedOutsideTheirRanges() {
        AppConfig defaults = AppConfig.defaults();
        assertEquals(new AppConfig.Caching(10, 3_600, 3_600), defaults.caching());
        assertEquals(10, defaults.limits().maxBatchOperations());
        AppConfig set = AppConfig.fromEnvironment(Map.of("CACHE_CURRENT_MONTH_SECONDS", "0",
                "CACHE_FINISHED_MONTH_SECONDS", "86400", "CACHE_MAX_AGE_SECONDS", "0", "MAX_BATCH_OPERATIONS", "1"));
        assertEquals(new AppConfig.Caching(0, 86_400, 0), set.caching());
        assertEquals(1, set.limits().maxBatchOperations());

        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.fromEnvironment(Map.of(
                "CACHE_CURRENT_MONTH_SECONDS", "-1", "CACHE_FINISHED_MONTH_SECONDS", "1h",
                "CACHE_MAX_AGE_SECONDS", "99999999", "MAX_BATCH_OPERATIONS", "0")));
        for (String name : List.of("CACHE_CURRENT_MONTH_SECONDS='-1'", "CACHE_FINISHED_MONTH_SECONDS='1h'",
                "CACHE_MAX_AGE_SECONDS='99999999'", "MAX_BATCH_OPERATIONS='0'")) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
    }

    @Test
    void batchingIsOnByDefaultAndOffOnlyWhenAskedFor() {
        assertTrue(AppConfig.defaults().batching());
        assertTrue(AppConfig.fromEnvironment(Map.of("BATCHING", "on")).batching());
        assertFalse(AppConfig.fromEnvironment(Map.of("BATCHING", "OFF")).batching());
    }

    @Test
    void theChangeFeedReadsTheStreamUnlessPublishedElsewhereAndRefusesAnythingElse() {
        assertTrue(AppConfig.defaults().subscriptions().readStream());
        assertTrue(AppConfig.fromEnvironment(Map.of("CHANGE_FEED", "stream")).subscriptions().readStream());
        assertFalse(AppConfig.fromEnvironment(Map.of("CHANGE_FEED", " Published ")).subscriptions().readStream());
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.fromEnvironment(Map.of("CHANGE_FEED", "lambda")));
        assertTrue(e.getMessage().contains("CHANGE_FEED='lambda' must be stream or published"), e.getMessage());
    }

    @Test
    void batchingRefusesAnythingButOnOrOff() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.fromEnvironment(Map.of("BATCHING", "false")));
        assertTrue(e.getMessage().contains("BATCHING='false' must be on or off"), e.getMessage());
    }

    @Test
    void withPortChangesOnlyThePort() {
        AppConfig config = AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "aws", "TABLE_NAME", "other"));
        AppConfig moved = config.withPort(0);
        assertEquals(0, moved.port());
        assertEquals(new AppConfig(0, config.endpoint(), config.tableName(), config.createTable(),
                config.loadSample(), config.dataDir(), config.cursorSecret(), config.batching(), config.writeToken(),
                config.totals(), config.aggregator(), config.limits(), config.shutdownGraceSeconds(),
                config.subscriptions(), config.persistedQueries(), config.caching(), config.warmUpSeconds(),
                config.clientRate(), config.telemetry(), config.signIn()), moved);
    }

    @Test
    void aClientsReadUnitsPerSecondAreOffOnTheEmbeddedDefaultAndOnWithTheDocumentedDefaultElsewhere() {
        assertEquals(new AppConfig.ClientRate(0, null), AppConfig.defaults().clientRate());
        assertEquals(new AppConfig.ClientRate(AppConfig.DEFAULT_CLIENT_READ_UNITS_PER_SECOND, null),
                AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", "aws")).clientRate());
        assertEquals(new AppConfig.ClientRate(0, "X-Forwarded-For"), AppConfig.fromEnvironment(Map.of(
                "DYNAMODB_ENDPOINT", "aws", "CLIENT_READ_UNITS_PER_SECOND", "0",
                "CLIENT_ADDRESS_HEADER", " X-Forwarded-For ")).clientRate());
        assertEquals(new AppConfig.ClientRate(5, null),
                AppConfig.fromEnvironment(Map.of("CLIENT_READ_UNITS_PER_SECOND", "5")).clientRate());
    }

    @Test
    void aBadClientRateOrAddressHeaderStopsTheStartNamingTheVariable() {
        ConfigException rate = assertThrows(ConfigException.class,
                () -> AppConfig.fromEnvironment(Map.of("CLIENT_READ_UNITS_PER_SECOND", "-1")));
        assertTrue(rate.getMessage().contains("CLIENT_READ_UNITS_PER_SECOND"), rate.getMessage());
        ConfigException header = assertThrows(ConfigException.class,
                () -> AppConfig.fromEnvironment(Map.of("CLIENT_ADDRESS_HEADER", "X Forwarded: For")));
        assertTrue(header.getMessage().contains("CLIENT_ADDRESS_HEADER"), header.getMessage());
    }

    @Test
    void persistedQueriesAreOnWithBoundedRegistrationsByDefaultAndEachSettingIsChecked() {
        assertEquals(new AppConfig.PersistedQueries(true, 16_384, 60, 604_800, null),
                AppConfig.defaults().persistedQueries());
        assertEquals(new AppConfig.PersistedQueries(false, 1_024, 0, 3_600, Path.of("ops.json")),
                AppConfig.fromEnvironment(Map.of("APQ", "off", "APQ_MAX_DOCUMENT_BYTES", "1024",
                        "APQ_REGISTRATIONS_PER_MINUTE", "0", "APQ_TTL_SECONDS", "3600",
                        "TRUSTED_DOCUMENTS", " ops.json ")).persistedQueries());
        onlyProblemNaming("APQ", Map.of("APQ", "maybe"));
        onlyProblemNaming("APQ_MAX_DOCUMENT_BYTES", Map.of("APQ_MAX_DOCUMENT_BYTES", "500000"));
        onlyProblemNaming("APQ_REGISTRATIONS_PER_MINUTE", Map.of("APQ_REGISTRATIONS_PER_MINUTE", "-1"));
        onlyProblemNaming("APQ_TTL_SECONDS", Map.of("APQ_TTL_SECONDS", "10"));
    }

    @Test
    void nonNumericPortIsRefusedNamingPort() {
        String problem = onlyProblemNaming("PORT", Map.of("PORT", "abc"));
        assertTrue(problem.contains("abc"), problem);
    }

    @Test
    void portsOutsideZeroTo65535AreRefusedNamingPort() {
        onlyProblemNaming("PORT", Map.of("PORT", "70000"));
        onlyProblemNaming("PORT", Map.of("PORT", "65536"));
        onlyProblemNaming("PORT", Map.of("PORT", "-1"));
    }

    @Test
    void nonHttpSchemeEndpointIsRefusedNamingTheVariable() {
        String problem = onlyProblemNaming("DYNAMODB_ENDPOINT", Map.of("DYNAMODB_ENDPOINT", "ftp://x"));
        assertTrue(problem.contains("ftp://x"), problem);
    }

    @Test
    void endpointThatIsNeitherAKeywordNorAUrlIsRefused() {
        onlyProblemNaming("DYNAMODB_ENDPOINT", Map.of("DYNAMODB_ENDPOINT", "nonsense"));
        onlyProblemNaming("DYNAMODB_ENDPOINT", Map.of("DYNAMODB_ENDPOINT", "localhost:8000"));
    }

    @Test
    void urlWithoutAHostOrUnparsableIsRefused() {
        onlyProblemNaming("DYNAMODB_ENDPOINT", Map.of("DYNAMODB_ENDPOINT", "http:///path"));
        onlyProblemNaming("DYNAMODB_ENDPOINT", Map.of("DYNAMODB_ENDPOINT", "http://local host:8000"));
    }

    @Test
    void tooShortOrMalformedTableNameIsRefusedNamingTheVariable() {
        onlyProblemNaming("TABLE_NAME", Map.of("TABLE_NAME", "a"));
        onlyProblemNaming("TABLE_NAME", Map.of("TABLE_NAME", "movie graph"));
        onlyProblemNaming("TABLE_NAME", Map.of("TABLE_NAME", "x".repeat(256)));
        assertEquals("abc", AppConfig.fromEnvironment(Map.of("TABLE_NAME", "abc")).tableName());
    }

    @Test
    void booleanThatIsNotTrueOrFalseIsRefusedNamingTheVariable() {
        String problem = onlyProblemNaming("CREATE_TABLE", Map.of("CREATE_TABLE", "maybe"));
        assertTrue(problem.contains("maybe"), problem);
        onlyProblemNaming("LOAD_SAMPLE", Map.of("LOAD_SAMPLE", "2"));
    }

    @Test
    void dataDirWithANonEmbeddedEndpointIsRefused() {
        onlyProblemNaming("DYNAMODB_DATA_DIR", Map.of("DYNAMODB_ENDPOINT", "aws", "DYNAMODB_DATA_DIR", "/tmp/data"));
        onlyProblemNaming("DYNAMODB_DATA_DIR",
                Map.of("DYNAMODB_ENDPOINT", "http://localhost:8000", "DYNAMODB_DATA_DIR", "/tmp/data"));
    }

    @Test
    void cursorSecretShorterThan16CharactersIsRefused() {
        onlyProblemNaming("CURSOR_SECRET", Map.of("CURSOR_SECRET", "short"));
        onlyProblemNaming("CURSOR_SECRET", Map.of("CURSOR_SECRET", "x".repeat(15)));
        assertEquals("x".repeat(16), AppConfig.fromEnvironment(Map.of("CURSOR_SECRET", "x".repeat(16))).cursorSecret());
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ConfigException e = refused(Map.of(
                "PORT", "abc",
                "TABLE_NAME", "a",
                "CREATE_TABLE", "maybe",
                "LOAD_SAMPLE", "perhaps",
                "CURSOR_SECRET", "short"));
        assertEquals(5, e.problems().size(), e.problems().toString());
        for (String variable : List.of("PORT", "TABLE_NAME", "CREATE_TABLE", "LOAD_SAMPLE", "CURSOR_SECRET")) {
            assertTrue(e.problems().stream().anyMatch(p -> p.contains(variable)), variable + " in " + e.problems());
            assertTrue(e.getMessage().contains(variable), e.getMessage());
        }
    }

    @Test
    void badEndpointAndDataDirWithAwsAreReportedTogetherWithOtherProblems() {
        ConfigException e = refused(Map.of(
                "DYNAMODB_ENDPOINT", "aws",
                "DYNAMODB_DATA_DIR", "/tmp/data",
                "PORT", "70000"));
        assertEquals(2, e.problems().size(), e.problems().toString());

        ConfigException endpoint = refused(Map.of("DYNAMODB_ENDPOINT", "ftp://x", "TABLE_NAME", "a"));
        assertEquals(2, endpoint.problems().size(), endpoint.problems().toString());
    }

    @Test
    void problemsListIsImmutable() {
        ConfigException e = refused(Map.of("PORT", "abc"));
        assertThrows(UnsupportedOperationException.class, () -> e.problems().add("more"));
    }

    @Test
    void signInIsOffWithoutAnIssuerAndOnWithItsDefaults() {
        assertEquals(null, AppConfig.defaults().signIn());
        AppConfig config = AppConfig.fromEnvironment(Map.of("OIDC_ISSUER", "https://id.example.com/realms/app",
                "OIDC_AUDIENCE", "moviegraph"));
        assertEquals(new AppConfig.SignIn(URI.create("https://id.example.com/realms/app"), "moviegraph", "roles", 60),
                config.signIn());
    }

    @Test
    void anIssuerNeedsAnAudience() {
        onlyProblemNaming("OIDC_AUDIENCE", Map.of("OIDC_ISSUER", "https://id.example.com"));
    }

    @Test
    void anAudienceWithoutAnIssuerIsAMistake() {
        onlyProblemNaming("OIDC_ISSUER", Map.of("OIDC_AUDIENCE", "moviegraph"));
    }

    @Test
    void anIssuerMustBeHttpsExceptOnLocalhost() {
        onlyProblemNaming("OIDC_ISSUER", Map.of("OIDC_ISSUER", "http://id.example.com", "OIDC_AUDIENCE", "a"));
        assertEquals("http", AppConfig.fromEnvironment(Map.of("OIDC_ISSUER", "http://localhost:8081/default",
                "OIDC_AUDIENCE", "a")).signIn().issuer().getScheme());
    }

    @Test
    void theRolesClaimAndClockSkewCanBeSet() {
        AppConfig.SignIn signIn = AppConfig.fromEnvironment(Map.of("OIDC_ISSUER", "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc",
                "OIDC_AUDIENCE", "client", "OIDC_ROLES_CLAIM", "cognito:groups", "OIDC_CLOCK_SKEW_SECONDS", "30")).signIn();
        assertEquals("cognito:groups", signIn.rolesClaim());
        assertEquals(30, signIn.clockSkewSeconds());
        onlyProblemNaming("OIDC_CLOCK_SKEW_SECONDS", Map.of("OIDC_ISSUER", "https://id.example.com",
                "OIDC_AUDIENCE", "a", "OIDC_CLOCK_SKEW_SECONDS", "9999"));
    }
}
