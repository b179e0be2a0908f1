package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moviegraph.config.ConfigException;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;

/** DYNAMODB_ENDPOINT=aws: the region and credentials are resolved before the client, and a missing one is one line. */
class AwsRegionAndCredentialsTest {
    private static final AwsRegionProvider NO_REGION = () -> {
        throw SdkClientException.create("Unable to load region from any of the providers in the chain");
    };
    private static final AwsCredentialsProvider NO_CREDENTIALS = () -> {
        throw SdkClientException.create("Unable to load credentials from any of the providers in the chain");
    };
    private static final AwsCredentialsProvider SOME_CREDENTIALS = () -> AwsBasicCredentials.create("AKIDEXAMPLE", "secret");

    @Test
    void noRegionIsAConfigurationProblemOfOneLine() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> DynamoClients.resolveAws(NO_REGION, SOME_CREDENTIALS));

        assertEquals("DYNAMODB_ENDPOINT=aws needs a region: set AWS_REGION (or a profile with a region)", e.getMessage());
        assertEquals(List.of(e.getMessage()), e.problems());
    }

    @Test
    void noCredentialsIsAConfigurationProblemOfOneLineNamingTheChain() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> DynamoClients.resolveAws(() -> Region.EU_WEST_1, NO_CREDENTIALS));

        assertEquals(DynamoClients.NO_CREDENTIALS, e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void theRegionIsCheckedFirstAndTheCredentialsResolvedOnce() {
        AtomicInteger resolved = new AtomicInteger();
        AwsCredentialsProvider counting = () -> {
            resolved.incrementAndGet();
            return SOME_CREDENTIALS.resolveCredentials();
        };

        assertThrows(ConfigException.class, () -> DynamoClients.resolveAws(NO_REGION, counting));
        assertEquals(0, resolved.get());

        DynamoClients.Aws aws = DynamoClients.resolveAws(() -> Region.EU_WEST_1, counting);

        assertEquals(Region.EU_WEST_1, aws.region());
        assertSame(counting, aws.credentials(), "the client gets the provider that was checked");
        assertEquals(1, resolved.get());
    }
}
