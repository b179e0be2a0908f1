package dev.moviegraph.e2e;

import static dev.moviegraph.support.PersistedRequests.fresh;
import static dev.moviegraph.support.PersistedRequests.getHash;
import static dev.moviegraph.support.PersistedRequests.postHash;
import static dev.moviegraph.support.PersistedRequests.register;
import static dev.moviegraph.support.PersistedRequests.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.write.DynamoPersistedQueries;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.GraphQLClient;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Two replicas on one table, as behind a load balancer: persisted queries live in the table, so a hash one
 * replica registered runs on the other. The first replica may store 2 new documents a minute
 * (APQ_REGISTRATIONS_PER_MINUTE=2); the second has the default 60.
 */
class PersistedQueryReplicasTest {
    private static final String TABLE = "moviegraph";
    private static EmbeddedDynamo dynamo;
    private static Moviegraph limited;
    private static Moviegraph other;
    private static GraphQLClient first;
    private static GraphQLClient second;

    @BeforeAll
    static void start() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        Map<String, String> shared = Map.of("PORT", "0", "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(),
                "TABLE_NAME", TABLE, "CREATE_TABLE", "true", "LOAD_SAMPLE", "false");
        Map<String, String> withLimit = new HashMap<>(shared);
        withLimit.put("APQ_REGISTRATIONS_PER_MINUTE", "2");
        limited = Moviegraph.start(AppConfig.fromEnvironment(withLimit), List.of());
        other = Moviegraph.start(AppConfig.fromEnvironment(shared), List.of());
        first = new GraphQLClient(limited.port());
        second = new GraphQLClient(other.port());
    }

    @AfterAll
    static void stop() {
        other.close();
        limited.close();
        dynamo.close();
    }

    private static String typename(Response response) {
        return response.data().path("__typename").asText(response.raw().body());
    }

    @Test
    void aHashRegisteredOnOneReplicaRunsOnTheOtherByPostAndByGet() {
        String query = fresh("{ __typename }");

        assertEquals("Query", typename(register(second, query, Map.of())));

        assertEquals("Query", typename(postHash(first, sha256(query), Map.of())));
        assertEquals("Query", typename(getHash(first, sha256(query), Map.of())));
    }

    @Test
    void registrationsPastTheReplicasRateLimitRunButAreNotStored() {
        List<String> queries = List.of(fresh("{ __typename }"), fresh("{ __typename }"), fresh("{ __typename }"));

        for (String query : queries) {
            assertEquals("Query", typename(register(first, query, Map.of())), "every registration still runs");
        }

        assertEquals("Query", typename(postHash(second, sha256(queries.get(0)), Map.of())));
        assertEquals("Query", typename(postHash(second, sha256(queries.get(1)), Map.of())));
        Response third = postHash(second, sha256(queries.get(2)), Map.of());
        assertEquals("PERSISTED_QUERY_NOT_FOUND", third.firstErrorCode(), third.raw().body());
    }

    @Test
    void aStoredDocumentPastItsExpiryIsNotServedAndTheTableExpiresItWithTimeToLive() {
        String expired = fresh("{ __typename }");
        String kept = fresh("{ __typename }");
        try (DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of())) {
            // Start-up turned DynamoDB's time to live on for the expiry attribute.
            assertEquals(TableAdmin.TimeToLive.ON, new TableAdmin(client, TABLE).ensureTimeToLive());
            DynamoPersistedQueries store = new DynamoPersistedQueries(client, TABLE, Clock.systemUTC());
            // An expired item DynamoDB has not deleted yet (it may take days to)...
            store.save(sha256(expired), expired, Instant.now().minusSeconds(1)).join();
            // ...and, so the check does not depend on when DynamoDB deletes, one read two hours on.
            store.save(sha256(kept), kept, Instant.now().plus(Duration.ofHours(1))).join();
            assertEquals(Optional.of(kept), store.find(sha256(kept)).join());
            assertEquals(Optional.empty(), new DynamoPersistedQueries(client, TABLE,
                    Clock.offset(Clock.systemUTC(), Duration.ofHours(2))).find(sha256(kept)).join());
        }

        Response response = postHash(second, sha256(expired), Map.of());

        assertEquals("PERSISTED_QUERY_NOT_FOUND", response.firstErrorCode(), response.raw().body());
    }
}
