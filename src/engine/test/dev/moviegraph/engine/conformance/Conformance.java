package dev.moviegraph.engine.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.engine.Engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.junit.jupiter.api.function.Executable;
import org.opentest4j.AssertionFailedError;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What the conformance tests share: SDK clients pointed at an engine (static credentials "x"/"y", us-east-1,
 * no retries so every answer is the engine's first), fresh table names, attribute value shorthands, and the
 * assertion of DynamoDB's ValidationException (the SDK has no class of its own for it: a DynamoDbException with
 * status 400 and error code ValidationException).
 */
final class Conformance {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private Conformance() {
    }

    static DynamoDbClient dynamo(Engine engine) {
        return DynamoDbClient.builder()
                .endpointOverride(engine.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    static DynamoDbStreamsClient streams(Engine engine) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(engine.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    /** A table name no other test uses (3 to 255 of a-z A-Z 0-9 _ - .). */
    static String tableName(String hint) {
        return hint + "-" + TABLES.incrementAndGet() + "-" + Long.toString(System.nanoTime() & 0xffffff, 36);
    }

    // ---- attribute values ----

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static AttributeValue b(int... bytes) {
        return AttributeValue.fromB(SdkBytes.fromByteArray(bytes(bytes)));
    }

    static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    static AttributeValue bool(boolean value) {
        return AttributeValue.fromBool(value);
    }

    static AttributeValue nul() {
        return AttributeValue.fromNul(true);
    }

    static AttributeValue l(AttributeValue... values) {
        return AttributeValue.fromL(List.of(values));
    }

    static AttributeValue m(Object... namesAndValues) {
        return AttributeValue.fromM(item(namesAndValues));
    }

    static AttributeValue ss(String... values) {
        return AttributeValue.fromSs(List.of(values));
    }

    static AttributeValue ns(String... values) {
        return AttributeValue.fromNs(List.of(values));
    }

    static AttributeValue bs(byte[]... values) {
        List<SdkBytes> list = new ArrayList<>();
        for (byte[] value : values) {
            list.add(SdkBytes.fromByteArray(value));
        }
        return AttributeValue.fromBs(list);
    }

    /** An item from alternating names and values; a String value is S, a Number value is N. */
    static Map<String, AttributeValue> item(Object... namesAndValues) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            item.put((String) namesAndValues[i], value(namesAndValues[i + 1]));
        }
        return item;
    }

    private static AttributeValue value(Object value) {
        if (value instanceof AttributeValue) {
            return (AttributeValue) value;
        }
        if (value instanceof String) {
            return s((String) value);
        }
        if (value instanceof Number) {
            return n(value.toString());
        }
        throw new IllegalArgumentException("not an attribute value: " + value);
    }

    /** The same item with every set's members in one order, so two items compare by content. */
    static Map<String, AttributeValue> sorted(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        Map<String, AttributeValue> sorted = new java.util.TreeMap<>();
        item.forEach((name, value) -> sorted.put(name, sorted(value)));
        return sorted;
    }

    private static AttributeValue sorted(AttributeValue value) {
        if (value.hasSs()) {
            return AttributeValue.fromSs(value.ss().stream().sorted().toList());
        }
        if (value.hasNs()) {
            return AttributeValue.fromNs(value.ns().stream()
                    .sorted(Comparator.comparing(java.math.BigDecimal::new)).toList());
        }
        if (value.hasBs()) {
            return AttributeValue.fromBs(value.bs().stream()
                    .sorted((x, y) -> Arrays.compareUnsigned(x.asByteArray(), y.asByteArray())).toList());
        }
        if (value.hasL()) {
            return AttributeValue.fromL(value.l().stream().map(Conformance::sorted).toList());
        }
        if (value.hasM()) {
            return AttributeValue.fromM(sorted(value.m()));
        }
        return value;
    }

    static String text(int utf8Bytes) {
        return "x".repeat(utf8Bytes);
    }

    static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    // ---- tables ----

    static KeySchemaElement hash(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
    }

    static KeySchemaElement range(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
    }

    static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    static Projection projection(ProjectionType type, String... nonKey) {
        Projection.Builder projection = Projection.builder().projectionType(type);
        if (nonKey.length > 0) {
            projection.nonKeyAttributes(nonKey);
        }
        return projection.build();
    }

    /** An on-demand table keyed pk (S), and sk of the given type when not null, ACTIVE when this returns. */
    static String createTable(DynamoDbClient dynamo, String hint, ScalarAttributeType sortType) {
        return createTable(dynamo, hint, sortType, builder -> {
        });
    }

    static String createTable(DynamoDbClient dynamo, String hint, ScalarAttributeType sortType,
                              Consumer<CreateTableRequest.Builder> more) {
        String name = tableName(hint);
        List<KeySchemaElement> keys = new ArrayList<>(List.of(hash("pk")));
        List<AttributeDefinition> attributes = new ArrayList<>(List.of(attribute("pk", ScalarAttributeType.S)));
        if (sortType != null) {
            keys.add(range("sk"));
            attributes.add(attribute("sk", sortType));
        }
        CreateTableRequest.Builder request = CreateTableRequest.builder().tableName(name).keySchema(keys)
                .attributeDefinitions(attributes).billingMode(BillingMode.PAY_PER_REQUEST);
        more.accept(request);
        dynamo.createTable(request.build());
        awaitActive(dynamo, name);
        return name;
    }

    /** Waits (up to 15 s) until the table and each of its global indexes are ACTIVE. */
    static TableDescription awaitActive(DynamoDbClient dynamo, String table) {
        return eventually(Duration.ofSeconds(15), () -> {
            TableDescription description = dynamo.describeTable(d -> d.tableName(table)).table();
            boolean active = description.tableStatus() == TableStatus.ACTIVE;
            for (GlobalSecondaryIndexDescription index : description.globalSecondaryIndexes()) {
                active &= index.indexStatus() == IndexStatus.ACTIVE;
            }
            return active ? description : null;
        }, "table " + table + " and its indexes ACTIVE");
    }

    /** Asks until the answer is not null, up to {@code within}; fails saying what was awaited. */
    static <T> T eventually(Duration within, Supplier<T> probe, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            T answer = probe.get();
            if (answer != null) {
                return answer;
            }
            if (System.nanoTime() > deadline) {
                return fail("not within " + within + ": " + what);
            }
            sleep(50);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- errors ----

    /** The call answers DynamoDB's ValidationException: HTTP 400, error code ValidationException. */
    static DynamoDbException validation(Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode(),
                () -> "error code of: " + e.getMessage());
        assertEquals(400, e.statusCode(), () -> "status of: " + e.getMessage());
        return e;
    }

    /** The call answers ValidationException whose message contains each of the fragments (case-insensitive). */
    static DynamoDbException validation(Executable call, String... fragments) {
        DynamoDbException e = validation(call);
        String message = e.awsErrorDetails().errorMessage();
        for (String fragment : fragments) {
            if (message == null || !message.toLowerCase(java.util.Locale.ROOT)
                    .contains(fragment.toLowerCase(java.util.Locale.ROOT))) {
                fail("ValidationException message should contain \"" + fragment + "\" but was: " + message);
            }
        }
        return e;
    }

    /**
     * A case for {@code assertAll}: the call answers ValidationException (with the fragments in its message); a
     * failure names the case, so one refused request that is not refused does not hide the others.
     */
    static Executable refused(String what, Executable call, String... fragments) {
        return () -> {
            try {
                validation(call, fragments);
            } catch (AssertionError e) {
                throw new AssertionFailedError(what + ": " + e.getMessage(), e);
            }
        };
    }

    static String message(DynamoDbException e) {
        return e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
    }
}
