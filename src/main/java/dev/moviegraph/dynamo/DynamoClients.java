package dev.moviegraph.dynamo;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClientBuilder;

/** Builds the one async DynamoDB client the gateway uses, with deliberate timeouts and retries. */
public final class DynamoClients {
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private DynamoClients() {
    }

    /**
     * @param endpoint     null for AWS's default endpoint, else an explicit endpoint
     * @param interceptors observers of every call (request counting in tests), after the one that
     *                     counts each call's attempts for its receipt
     */
    public static DynamoDbAsyncClient create(URI endpoint, List<ExecutionInterceptor> interceptors) {
        DynamoDbAsyncClientBuilder builder = DynamoDbAsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(256)
                        .connectionTimeout(Duration.ofSeconds(2)))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                        .apiCallTimeout(CALL_TIMEOUT)
                        .executionInterceptors(concat(Call.ATTEMPTS, interceptors))
                        .build());
        if (endpoint != null) {
            // DynamoDB Local accepts any credentials and region; use real ones when the environment has them.
            builder.endpointOverride(endpoint)
                    .region(regionOr(Region.US_EAST_1))
                    .credentialsProvider(localOrDefault());
        }
        return builder.build();
    }

    private static AwsCredentialsProviderChain localOrDefault() {
        return AwsCredentialsProviderChain.builder()
                .reuseLastProviderEnabled(true)
                .credentialsProviders(DefaultCredentialsProvider.builder().build(),
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build();
    }

    /** The DynamoDB Streams client the stream aggregator reads the table's change stream with. */
    public static DynamoDbStreamsAsyncClient createStreams(URI endpoint) {
        DynamoDbStreamsAsyncClientBuilder builder = DynamoDbStreamsAsyncClient.builder()
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                        .apiCallTimeout(CALL_TIMEOUT)
                        .build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint).region(regionOr(Region.US_EAST_1)).credentialsProvider(localOrDefault());
        }
        return builder.build();
    }

    private static List<ExecutionInterceptor> concat(ExecutionInterceptor first, List<ExecutionInterceptor> rest) {
        List<ExecutionInterceptor> all = new java.util.ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

    private static Region regionOr(Region fallback) {
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
