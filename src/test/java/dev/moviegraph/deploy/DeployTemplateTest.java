package dev.moviegraph.deploy;

import static dev.moviegraph.support.IamActionRecorder.permission;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableDefinition;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.http.WarmUp;
import dev.moviegraph.lambda.CountStreamsHandler;
import dev.moviegraph.lambda.PublishChangesHandler;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.IamActionRecorder;
import dev.moviegraph.support.LambdaEvents;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.representer.Representer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * deploy/template.yaml cannot drift from the code: its table is the one {@code TableModel} creates, its
 * gateway runs with the template's own environment, and each role grants exactly the DynamoDB permissions
 * the code was seen to need (no more: least privilege; no less: a deployment that works). The gateway is
 * driven through every read path (the warm-up's queries), every mutation, a persisted query and /health;
 * the functions count and publish the stream those mutations wrote.
 */
class DeployTemplateTest {
    private static final Path TEMPLATE = Path.of("deploy", "template.yaml");
    private static final String TOKEN = "deploy-template-test";
    /** The embedded sample's table. */
    private static final String TABLE = AppConfig.defaults().tableName();
    /** What Lambda's event source mapping reads a DynamoDB stream with, on the function's role. */
    private static final Set<String> LAMBDA_READS_STREAM = Set.of(permission("DescribeStream", "stream"),
            permission("GetRecords", "stream"), permission("GetShardIterator", "stream"),
            permission("ListStreams", "stream"));

    /** The template as Jackson reads it: a short form's tag dropped ({@code !Ref X} is the text X). */
    private static JsonNode template;
    private static EmbeddedDynamo dynamo;
    private static Moviegraph server;
    private static DynamoDbStreamsAsyncClient streams;
    private static final IamActionRecorder gateway = new IamActionRecorder();
    private static Set<String> gatewayNeeded;

    @BeforeAll
    static void deployTheTemplatesGateway() throws IOException {
        template = new ObjectMapper(new YAMLFactory()).readTree(TEMPLATE.toFile());
        dynamo = EmbeddedDynamo.ephemeral(true);
        Map<String, String> env = new HashMap<>(containerEnvironment());
        // the template's environment, on the engine instead of AWS, and its sample table to read; this test
        // is one client sending every path at once after a warm-up: no per-client limit to run into
        env.putAll(Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "PORT", "0", "CREATE_TABLE", "true",
                "TABLE_NAME", TABLE, "WARMUP_SECONDS", "0", "WRITE_TOKEN", TOKEN, "CLIENT_READ_UNITS_PER_SECOND", "0"));
        env.remove("AWS_REGION");
        server = Moviegraph.start(AppConfig.fromEnvironment(env), List.of(gateway));
        streams = DynamoDbStreamsAsyncClient.builder().endpointOverride(dynamo.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build();
        gateway.reset(); // what start-up needs is the admin's (CREATE_TABLE=false in the template)
        useEveryPath(new GraphQLClient(server.port()));
        gatewayNeeded = gateway.needed();
    }

    @AfterAll
    static void stop() {
        if (streams != null) {
            streams.close();
        }
        if (server != null) {
            server.close();
        }
        if (dynamo != null) {
            dynamo.close();
        }
    }

    private static void useEveryPath(GraphQLClient client) {
        long warmed = new WarmUp(server.port(), new ObjectMapper()).run(Duration.ofSeconds(2), 2);
        assertTrue(warmed > 0, "the warm-up's read paths answered");
        assertEquals(200, client.get("/health", Map.of(), "application/json").status());
        String now = Instant.now().minusSeconds(5).toString();
        for (String mutation : List.of(
                "mutation { putMovie(input: {id: \"tt9700001\", title: \"Template\", year: 2024, genres: [\"Drama\"]}) { id } }",
                "mutation { putPerson(input: {id: \"nm9700001\", name: \"Template Person\"}) { id } }",
                "mutation { castActor(movieId: \"tt9700001\", actorId: \"nm9700001\", characters: [\"Lead\"], billing: 1) { billing } }",
                "mutation { creditCrew(movieId: \"tt9700001\", personId: \"nm9700001\", role: DIRECTOR) { role } }",
                "mutation { recordAward(input: {award: \"Academy Award\", category: \"Best Picture\", year: 2025,"
                        + " movieId: \"tt9700001\", won: true}) { year } }",
                "mutation { recordStream(input: {movieId: \"tt0111161\", streamId: \"template-1\", at: \"" + now + "\"}) { counted } }",
                "mutation { recordStream(input: {movieId: \"tt9700001\", streamId: \"template-2\", at: \"" + now + "\"}) { counted } }",
                "mutation { removeAward(input: {award: \"Academy Award\", category: \"Best Picture\", year: 2025,"
                        + " movieId: \"tt9700001\", won: true}) }",
                "mutation { uncreditCrew(movieId: \"tt9700001\", personId: \"nm9700001\", role: DIRECTOR) }",
                "mutation { uncastActor(movieId: \"tt9700001\", actorId: \"nm9700001\") }",
                "mutation { deleteMovie(id: \"tt9700001\") }")) {
            GraphQLClient.Response response = client.post(GraphQLClient.body(mutation, Map.of()), "application/json",
                    "application/json", Map.of("Authorization", "Bearer " + TOKEN));
            assertTrue(response.status() == 200 && response.errors().isMissingNode(), mutation + ": " + response.raw().body());
        }
        // an automatic persisted query: registered (PutItem), then found by its hash (GetItem)
        String document = "query TemplateApq { movie(id: \"tt0111161\") { title } }";
        String hash = sha256(document);
        String extensions = "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"" + hash + "\"}}";
        assertEquals(200, client.get("/graphql", Map.of("query", document, "extensions", extensions),
                "application/json").status());
        assertEquals(200, client.get("/graphql", Map.of("extensions", extensions), "application/json").status());
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode resource(String name) {
        JsonNode resource = template.path("Resources").path(name);
        assertTrue(resource.isObject(), "the template has " + name);
        return resource;
    }

    /** The gateway container's environment with every stack parameter at its default. */
    private static Map<String, String> containerEnvironment() throws IOException {
        return new Stack(Map.of()).containerEnvironment();
    }

    /** A role's DynamoDB permissions, written as the recorder writes them. */
    private static Set<String> granted(String role) {
        Set<String> granted = new TreeSet<>();
        for (JsonNode policy : resource(role).path("Properties").path("Policies")) {
            for (JsonNode statement : policy.path("PolicyDocument").path("Statement")) {
                assertEquals("Allow", statement.path("Effect").asText());
                List<String> resources = texts(statement.path("Resource"));
                for (String action : texts(statement.path("Action"))) {
                    if (!action.startsWith("dynamodb:")) {
                        continue;
                    }
                    for (String resource : resources) {
                        granted.add(action + " on " + (resource.contains("/index/") ? "index"
                                : resource.endsWith(".StreamArn") || action.equals("dynamodb:ListStreams") ? "stream"
                                : resource.equals("CatalogTable.Arn") ? "table" : "unknown resource " + resource));
                    }
                }
            }
        }
        return granted;
    }

    private static List<String> texts(JsonNode node) {
        List<String> texts = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(item -> texts.add(item.asText()));
        } else {
            texts.add(node.asText());
        }
        return texts;
    }

    @Test
    void theTableIsTheOneTheCodeCreates() {
        JsonNode table = resource("CatalogTable").path("Properties");
        CreateTableRequest code = TableDefinition.createTableRequest("moviegraph");
        Map<String, String> attributes = new TreeMap<>();
        table.path("AttributeDefinitions").forEach(a -> attributes.put(a.path("AttributeName").asText(),
                a.path("AttributeType").asText()));
        Map<String, String> codeAttributes = new TreeMap<>();
        code.attributeDefinitions().forEach(a -> codeAttributes.put(a.attributeName(), a.attributeTypeAsString()));
        assertEquals(codeAttributes, attributes, "attribute definitions");
        assertEquals(keys(code.keySchema()), keys(table.path("KeySchema")), "the table's key");

        Map<String, String> locals = new TreeMap<>();
        table.path("LocalSecondaryIndexes").forEach(index -> locals.put(index.path("IndexName").asText(), index(index)));
        Map<String, String> codeLocals = new TreeMap<>();
        for (LocalSecondaryIndex index : code.localSecondaryIndexes()) {
            codeLocals.put(index.indexName(), keys(index.keySchema()) + " " + projection(index.projection()));
        }
        assertEquals(codeLocals, locals, "local indexes");

        Map<String, String> globals = new TreeMap<>();
        table.path("GlobalSecondaryIndexes").forEach(index -> globals.put(index.path("IndexName").asText(), index(index)));
        Map<String, String> codeGlobals = new TreeMap<>();
        for (GlobalSecondaryIndex index : code.globalSecondaryIndexes()) {
            codeGlobals.put(index.indexName(), keys(index.keySchema()) + " " + projection(index.projection()));
        }
        assertEquals(codeGlobals, globals, "global indexes");

        assertEquals(code.billingModeAsString(), table.path("BillingMode").asText());
        assertEquals(code.streamSpecification().streamViewTypeAsString(),
                table.path("StreamSpecification").path("StreamViewType").asText());
        assertEquals(TableModel.EXPIRES_AT, table.path("TimeToLiveSpecification").path("AttributeName").asText());
        assertTrue(table.path("TimeToLiveSpecification").path("Enabled").asBoolean());
        assertTrue(table.path("PointInTimeRecoverySpecification").path("PointInTimeRecoveryEnabled").asBoolean());
        assertTrue(table.path("DeletionProtectionEnabled").asBoolean());
    }

    private static String keys(List<KeySchemaElement> keys) {
        return keys.stream().map(k -> k.attributeName() + ":" + k.keyTypeAsString()).toList().toString();
    }

    private static String keys(JsonNode keys) {
        List<String> named = new ArrayList<>();
        keys.forEach(k -> named.add(k.path("AttributeName").asText() + ":" + k.path("KeyType").asText()));
        return named.toString();
    }

    private static String index(JsonNode index) {
        return keys(index.path("KeySchema")) + " " + index.path("Projection").path("ProjectionType").asText();
    }

    private static String projection(Projection projection) {
        return projection.projectionTypeAsString();
    }

    @Test
    void theGatewaysRoleGrantsExactlyWhatItsCallsNeed() {
        assertTrue(gatewayNeeded.contains(permission("Query", "index")), gatewayNeeded.toString());
        assertTrue(gatewayNeeded.contains(permission("ConditionCheckItem", "table")), gatewayNeeded.toString());
        assertEquals(gatewayNeeded, granted("GatewayTaskRole"));
    }

    @Test
    void theCountingFunctionsRoleGrantsExactlyWhatItsCallsNeed() {
        IamActionRecorder function = new IamActionRecorder();
        String arn = streams.listStreams(list -> list.tableName(TABLE)).join().streams().get(0).streamArn();
        Map<String, List<DynamodbStreamRecord>> shards = LambdaEvents.read(streams, arn, record -> true);
        try (DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of(function));
             DynamoDbStreamsAsyncClient functionStreams = recordedStreams(function)) {
            CountStreamsHandler handler = new CountStreamsHandler(client, functionStreams, TABLE);
            shards.forEach((shard, records) -> {
                DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
                event.setShardId(shard);
                event.setRecords(records);
                event.setState(Map.of());
                event.setIsFinalInvokeForWindow(true);
                event.setEventSourceArn(arn);
                assertTrue(handler.handleRequest(event, null).getBatchItemFailures().isEmpty());
            });
        }
        Set<String> needed = function.needed();
        assertTrue(needed.contains(permission("UpdateItem", "table")), "the function counted: " + needed);
        Set<String> granted = granted("CountStreamsRole");
        Set<String> onTable = new TreeSet<>(granted);
        onTable.removeAll(LAMBDA_READS_STREAM);
        Set<String> neededOnTable = new TreeSet<>(needed);
        neededOnTable.removeAll(LAMBDA_READS_STREAM);
        assertEquals(neededOnTable, onTable, "the table's permissions");
        assertTrue(granted.containsAll(LAMBDA_READS_STREAM), "Lambda reads the stream with the function's role");
        assertTrue(LAMBDA_READS_STREAM.containsAll(diff(needed, neededOnTable)), needed.toString());
    }

    @Test
    void thePublishersRoleGrantsExactlyWhatItsCallsNeed() {
        IamActionRecorder function = new IamActionRecorder();
        String arn = streams.listStreams(list -> list.tableName(TABLE)).join().streams().get(0).streamArn();
        List<DynamodbStreamRecord> records = new ArrayList<>();
        LambdaEvents.read(streams, arn, record -> true).values().forEach(records::addAll);
        try (DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of(function))) {
            DynamodbEvent event = new DynamodbEvent();
            event.setRecords(records);
            assertTrue(new PublishChangesHandler(client, TABLE).handleRequest(event, null)
                    .getBatchItemFailures().isEmpty());
        }
        Set<String> granted = granted("PublishChangesRole");
        Set<String> onTable = diff(granted, LAMBDA_READS_STREAM);
        assertEquals(function.needed(), onTable);
        assertTrue(granted.containsAll(LAMBDA_READS_STREAM), "Lambda reads the stream with the function's role");
    }

    private static Set<String> diff(Set<String> all, Set<String> minus) {
        Set<String> rest = new TreeSet<>(all);
        rest.removeAll(minus);
        return rest;
    }

    private static DynamoDbStreamsAsyncClient recordedStreams(IamActionRecorder recorder) {
        return DynamoDbStreamsAsyncClient.builder().endpointOverride(dynamo.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(o -> o.addExecutionInterceptor(recorder)).build();
    }

    @Test
    void signInIsOffByDefault() throws IOException {
        Stack stack = new Stack(Map.of());
        assertEquals(Set.of(), oidc(stack.containerEnvironment()).keySet());
        assertEquals(List.of(), stack.failedRules());
        assertEquals("", template.path("Parameters").path("OidcIssuer").path("Default").asText());
        assertEquals("", template.path("Parameters").path("OidcAudience").path("Default").asText());
        assertEquals("roles", template.path("Parameters").path("OidcRolesClaim").path("Default").asText());
    }

    @Test
    void theSignInParametersReachTheGatewaysEnvironmentAndTheGatewayTakesThem() throws IOException {
        String issuer = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example";
        Stack cognito = new Stack(Map.of("OidcIssuer", issuer, "OidcAudience", "app-client-id",
                "OidcRolesClaim", "cognito:groups"));
        Map<String, String> env = oidc(cognito.containerEnvironment());
        assertEquals(Map.of("OIDC_ISSUER", issuer, "OIDC_AUDIENCE", "app-client-id",
                "OIDC_ROLES_CLAIM", "cognito:groups"), env);
        assertEquals(List.of(), cognito.failedRules());
        AppConfig.SignIn signIn = AppConfig.fromEnvironment(env).signIn();
        assertEquals(issuer, signIn.issuer().toString());
        assertEquals("app-client-id", signIn.audience());
        assertEquals("cognito:groups", signIn.rolesClaim());

        // the roles claim's default, and an emptied one left to the gateway's own default
        Stack byDefault = new Stack(Map.of("OidcIssuer", issuer, "OidcAudience", "api"));
        assertEquals("roles", byDefault.containerEnvironment().get("OIDC_ROLES_CLAIM"));
        Stack emptied = new Stack(Map.of("OidcIssuer", issuer, "OidcAudience", "api", "OidcRolesClaim", ""));
        assertEquals(Set.of("OIDC_ISSUER", "OIDC_AUDIENCE"), oidc(emptied.containerEnvironment()).keySet());
        assertEquals("roles", AppConfig.fromEnvironment(oidc(emptied.containerEnvironment())).signIn().rolesClaim());
    }

    @Test
    void anAudienceIsRequiredWithAnIssuerAndNothingIsPassedWithoutOne() throws IOException {
        // The gateway would refuse to start (OIDC_AUDIENCE must be set with OIDC_ISSUER): the stack refuses first.
        Stack noAudience = new Stack(Map.of("OidcIssuer", "https://login.example.com/realms/movies"));
        assertEquals(1, noAudience.failedRules().size(), noAudience.failedRules().toString());
        assertTrue(noAudience.failedRules().get(0).contains("OidcAudience is required with OidcIssuer"),
                noAudience.failedRules().toString());
        // An audience or roles claim without an issuer is not passed (the gateway refuses them alone).
        Stack noIssuer = new Stack(Map.of("OidcAudience", "api", "OidcRolesClaim", "realm_access.roles"));
        assertEquals(List.of(), noIssuer.failedRules());
        assertEquals(Set.of(), oidc(noIssuer.containerEnvironment()).keySet());
    }

    private static Map<String, String> oidc(Map<String, String> env) {
        Map<String, String> oidc = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OIDC_")) {
                oidc.put(name, value);
            }
        });
        return oidc;
    }

    /**
     * The template deployed with these parameters (the others at their defaults), as CloudFormation reads
     * it: short forms in their long form ({@code !Ref X} is {@code {Ref: X}}), conditions, {@code Fn::If}
     * and {@code AWS::NoValue} evaluated, and the Rules' assertions checked. A reference to anything but a
     * parameter (a resource, a pseudo parameter) stays {@code {Ref NAME}}.
     */
    private static final class Stack {
        private static final Object NO_VALUE = new Object();
        private final Map<String, Object> cfn;
        private final Map<String, String> parameters = new HashMap<>();

        @SuppressWarnings("unchecked")
        Stack(Map<String, String> given) throws IOException {
            LoaderOptions options = new LoaderOptions();
            SafeConstructor longForm = new SafeConstructor(options) {
                {
                    yamlConstructors.put(null, new AbstractConstruct() {
                        @Override
                        public Object construct(Node node) {
                            String tag = node.getTag().getValue().substring(1);
                            Object value = node instanceof ScalarNode scalar ? constructScalar(scalar)
                                    : node instanceof SequenceNode sequence ? constructSequence(sequence)
                                    : constructMapping((MappingNode) node);
                            return Map.of(tag.equals("Ref") || tag.equals("Condition") ? tag : "Fn::" + tag, value);
                        }
                    });
                }
            };
            cfn = (Map<String, Object>) new Yaml(longForm, new Representer(new DumperOptions()), new DumperOptions(),
                    options).load(java.nio.file.Files.readString(TEMPLATE));
            ((Map<String, Map<String, Object>>) cfn.get("Parameters")).forEach((name, parameter) ->
                    parameters.put(name, String.valueOf(parameter.getOrDefault("Default", ""))));
            given.forEach((name, value) -> {
                assertTrue(parameters.containsKey(name), "the template has the parameter " + name);
                parameters.put(name, value);
            });
        }

        @SuppressWarnings("unchecked")
        Map<String, String> containerEnvironment() {
            Map<String, Object> task = (Map<String, Object>) section("Resources").get("GatewayTask");
            Map<String, Object> container = ((List<Map<String, Object>>) ((Map<String, Object>) task.get("Properties"))
                    .get("ContainerDefinitions")).get(0);
            Map<String, String> env = new LinkedHashMap<>();
            for (Object entry : (List<Object>) container.get("Environment")) {
                Object variable = evaluate(entry);
                if (variable != NO_VALUE) {
                    Map<String, Object> pair = (Map<String, Object>) variable;
                    env.put(String.valueOf(pair.get("Name")), String.valueOf(pair.get("Value")));
                }
            }
            return env;
        }

        /** The AssertDescription of each assertion that fails, of each rule whose RuleCondition holds. */
        @SuppressWarnings("unchecked")
        List<String> failedRules() {
            List<String> failed = new ArrayList<>();
            section("Rules").forEach((name, value) -> {
                Map<String, Object> rule = (Map<String, Object>) value;
                if (!rule.containsKey("RuleCondition") || holds(rule.get("RuleCondition"))) {
                    for (Map<String, Object> assertion : (List<Map<String, Object>>) rule.get("Assertions")) {
                        if (!holds(assertion.get("Assert"))) {
                            failed.add(name + ": " + assertion.get("AssertDescription"));
                        }
                    }
                }
            });
            return failed;
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> section(String name) {
            return (Map<String, Object>) cfn.getOrDefault(name, Map.of());
        }

        @SuppressWarnings("unchecked")
        private Object evaluate(Object node) {
            if (node instanceof Map<?, ?> map && map.size() == 1) {
                Map.Entry<String, Object> function = ((Map<String, Object>) map).entrySet().iterator().next();
                switch (function.getKey()) {
                    case "Ref" -> {
                        String name = String.valueOf(function.getValue());
                        return name.equals("AWS::NoValue") ? NO_VALUE
                                : parameters.containsKey(name) ? parameters.get(name) : "{Ref " + name + "}";
                    }
                    case "Fn::If" -> {
                        List<Object> arguments = (List<Object>) function.getValue();
                        return evaluate(holds(Map.of("Condition", arguments.get(0))) ? arguments.get(1) : arguments.get(2));
                    }
                    default -> {
                        // not a function: an ordinary one-key mapping
                    }
                }
            }
            if (node instanceof Map<?, ?> map) {
                Map<String, Object> evaluated = new LinkedHashMap<>();
                map.forEach((key, value) -> {
                    Object result = evaluate(value);
                    if (result != NO_VALUE) {
                        evaluated.put(String.valueOf(key), result);
                    }
                });
                return evaluated;
            }
            if (node instanceof List<?> list) {
                return list.stream().map(this::evaluate).filter(item -> item != NO_VALUE).toList();
            }
            return node;
        }

        /** A condition function (Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition), in Conditions or Rules. */
        @SuppressWarnings("unchecked")
        private boolean holds(Object node) {
            Map.Entry<String, Object> function = ((Map<String, Object>) node).entrySet().iterator().next();
            Object argument = function.getValue();
            return switch (function.getKey()) {
                case "Condition" -> holds(section("Conditions").get(String.valueOf(argument)));
                case "Fn::Equals" -> String.valueOf(evaluate(((List<Object>) argument).get(0)))
                        .equals(String.valueOf(evaluate(((List<Object>) argument).get(1))));
                case "Fn::Not" -> !holds(((List<Object>) argument).get(0));
                case "Fn::And" -> ((List<Object>) argument).stream().allMatch(this::holds);
                case "Fn::Or" -> ((List<Object>) argument).stream().anyMatch(this::holds);
                default -> throw new AssertionError("not a condition function this test evaluates: " + node);
            };
        }
    }
}
