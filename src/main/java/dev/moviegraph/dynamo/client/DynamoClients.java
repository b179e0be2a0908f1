package dev.moviegraph.dynamo.client;

import dev.moviegraph.config.ConfigException;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.endpoints.Endpoint;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClientBuilder;

/**
 * Builds the one async DynamoDB client the gateway uses, with deliberate timeouts and retries: a
 * client waits for a query, so a call either succeeds within a few seconds or fails with a clear error.
 */
public final class DynamoClients {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoClients.class);
    /** DYNAMODB_ENDPOINT=aws and the SDK's region chain found nothing. */
    static final String NO_REGION = "DYNAMODB_ENDPOINT=aws needs a region: set AWS_REGION (or a profile with a region)";
    /** DYNAMODB_ENDPOINT=aws and the SDK's default credentials chain found nothing, in its order. */
    static final String NO_CREDENTIALS = "DYNAMODB_ENDPOINT=aws found no AWS credentials in the SDK's default chain:"
            + " set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (AWS_PROFILE, ~/.aws/credentials),"
            + " or a web identity (AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN), or run with a container"
            + " or instance role";
    /** One HTTP attempt; a GetItem or a page of a Query answers in milliseconds. */
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    /** One call, every retry and backoff included: the most a field ever waits for DynamoDB. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    /** TCP connect; DynamoDB and a local emulator accept in milliseconds. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Attempts per call, the first included (the SDK's STANDARD default is 3, DynamoDB's own 9). */
    public static final int MAX_ATTEMPTS = 5;
    /**
     * Start-up calls may wait for a cold local DynamoDB (an emulator opening its data) or a table being
     * created, far longer than the per-attempt timeout that suits queries.
     */
    public static final AwsRequestOverrideConfiguration STARTUP = AwsRequestOverrideConfiguration.builder()
            .apiCallAttemptTimeout(Duration.ofSeconds(60))
            .apiCallTimeout(Duration.ofSeconds(120))
            .build();

    /**
     * Before retry n (n = 1..4) after a throttling error (ProvisionedThroughputExceeded, Throttling,
     * RequestLimitExceeded, HTTP 429): a random wait below 200 ms x 2^(n-1), at most 2 s; below 3 s in
     * all, 1.5 s on average. STANDARD's own base of 1 s (up to 20 s) would let five attempts outlast the
     * call timeout, which ends in a timeout error instead of a throttling one.
     */
    private static final BackoffStrategy THROTTLING_BACKOFF = BackoffStrategy.exponentialDelay(
            Duration.ofMillis(200), Duration.ofSeconds(2));
    /** Before retry n after any other retryable failure (5xx, I/O, timeouts): below 50 ms x 2^(n-1). */
    private static final BackoffStrategy BACKOFF = BackoffStrategy.exponentialDelay(
            Duration.ofMillis(50), Duration.ofSeconds(1));
    /**
     * Calls in flight at once to a DynamoDB on loopback, which shares this machine's cores with the gateway.
     * DynamoDB Local, the emulator this was measured on, ran the SQLite work of every request on one thread,
     * and a BatchGetItem read its keys one after the other: with the calls of 64
     * clients all sent at once, each one waited behind all the others' reads, went past the 3 s attempt
     * limit, and its retries added to the pile (the abandoned attempt still runs). Held back in the
     * gateway, a call waits outside the attempt's limit and the call timeout (the query's own time limit
     * still covers it), and a batch waits for 8 calls, not for every key of every other call (benchmark
     * load). Real DynamoDB is not limited.
     */
    static final int LOCAL_CALLS_IN_FLIGHT = 8;

    private DynamoClients() {
    }

    /**
     * The client; for an endpoint on loopback (the embedded engine, or one started beside the gateway), one that sends at most
     * {@value #LOCAL_CALLS_IN_FLIGHT} calls at a time and holds the others back in order ({@link InFlightLimit}).
     *
     * @param endpoint     null for AWS's default endpoint, else an explicit endpoint
     * @param interceptors observers of every call (request counting in tests), after the one that
     *                     counts each call's attempts for its receipt
     * @return the client behind an {@link OutageBreaker}: calls fail at once while DynamoDB does not answer
     * @throws ConfigException for AWS's endpoint, when the SDK's default chains find no region or no
     *                         credentials (one line saying what to set, instead of the SDK's stack trace
     *                         at the first call)
     */
    public static DynamoDbAsyncClient create(URI endpoint, List<ExecutionInterceptor> interceptors) {
        DynamoDbAsyncClient client = OwnedEventLoop.client(DynamoDbAsyncClient.class, "dynamodb-netty",
                loop -> build(endpoint, interceptors, loop));
        // The breaker outside the line: while it is open, calls fail at once instead of queueing first.
        return OutageBreaker.guard(endpoint != null && isLoopback(endpoint)
                ? InFlightLimit.wrap(client, LOCAL_CALLS_IN_FLIGHT) : client);
    }

    /**
     * The client of the embedded engine while it is still starting (its port is known once its data is open):
     * the SDK resolves the endpoint of each call, so the client is built now, on this thread, while the engine
     * starts on another, and its calls go to {@code endpoint} once it is known. Built as {@link #create}
     * builds the client of a loopback endpoint.
     */
    public static DynamoDbAsyncClient createForStarting(CompletableFuture<URI> endpoint,
                                                        List<ExecutionInterceptor> interceptors) {
        DynamoDbAsyncClient client = OwnedEventLoop.client(DynamoDbAsyncClient.class, "dynamodb-netty", loop -> {
            DynamoDbAsyncClientBuilder builder = builder(interceptors, loop)
                    .endpointProvider(params -> endpoint.thenApply(uri -> Endpoint.builder().url(uri).build()));
            return builder.region(regionOr(Region.US_EAST_1)).credentialsProvider(localOrDefault()).build();
        });
        return OutageBreaker.guard(InFlightLimit.wrap(client, LOCAL_CALLS_IN_FLIGHT));
    }

    private static DynamoDbAsyncClientBuilder builder(List<ExecutionInterceptor> interceptors, SdkEventLoopGroup loop) {
        return DynamoDbAsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .eventLoopGroup(loop)
                        .maxConcurrency(256)
                        .connectionTimeout(CONNECT_TIMEOUT))
                .overrideConfiguration(timeoutsAndRetries()
                        .executionInterceptors(concat(Call.ATTEMPTS, interceptors))
                        .build());
    }

    private static DynamoDbAsyncClient build(URI endpoint, List<ExecutionInterceptor> interceptors,
                                             SdkEventLoopGroup loop) {
        DynamoDbAsyncClientBuilder builder = builder(interceptors, loop);
        if (endpoint != null) {
            // A local engine accepts any credentials and region; use real ones when the environment has them.
            builder.endpointOverride(endpoint)
                    .region(regionOr(Region.US_EAST_1))
                    .credentialsProvider(localOrDefault());
        } else {
            Aws aws = resolveAws();
            builder.region(aws.region()).credentialsProvider(aws.credentials());
        }
        return builder.build();
    }

    /** An endpoint on this machine: the engine, embedded or started beside the gateway. */
    static boolean isLoopback(URI endpoint) {
        String host = endpoint.getHost();
        return host != null && (host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("[::1]"));
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
        return OwnedEventLoop.client(DynamoDbStreamsAsyncClient.class, "dynamodb-streams-netty",
                loop -> buildStreams(endpoint, loop));
    }

    private static DynamoDbStreamsAsyncClient buildStreams(URI endpoint, SdkEventLoopGroup loop) {
        DynamoDbStreamsAsyncClientBuilder builder = DynamoDbStreamsAsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().eventLoopGroup(loop))
                .overrideConfiguration(timeoutsAndRetries().build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint).region(regionOr(Region.US_EAST_1)).credentialsProvider(localOrDefault());
        } else {
            Aws aws = resolveAws();
            builder.region(aws.region()).credentialsProvider(aws.credentials());
        }
        return builder.build();
    }

    /** The region and credentials AWS's endpoint is called with. */
    record Aws(Region region, AwsCredentialsProvider credentials) {
    }

    /** The SDK's default region and credentials chains, resolved before a client for AWS is built. */
    private static Aws resolveAws() {
        return resolveAws(new DefaultAwsRegionProviderChain(), DefaultCredentialsProvider.builder().build());
    }

    /**
     * Resolves {@code regions} and {@code credentials} now, so that a missing one stops the start with
     * one line naming what to set; the SDK would only find out at the first call, as a stack trace. Each
     * provider's own reason is logged at debug level. The credentials stay cached in the provider, which
     * renews them (web identity, container and instance roles) as the client uses it.
     *
     * @throws ConfigException {@link #NO_REGION} or {@link #NO_CREDENTIALS}
     */
    static Aws resolveAws(AwsRegionProvider regions, AwsCredentialsProvider credentials) {
        Region region;
        try {
            region = regions.getRegion();
        } catch (SdkClientException e) {
            LOG.debug("No region for DYNAMODB_ENDPOINT=aws", e);
            throw new ConfigException(NO_REGION);
        }
        try {
            credentials.resolveCredentials();
        } catch (SdkClientException e) {
            LOG.debug("No credentials for DYNAMODB_ENDPOINT=aws", e);
            throw new ConfigException(NO_CREDENTIALS);
        }
        return new Aws(region, credentials);
    }

    private static ClientOverrideConfiguration.Builder timeoutsAndRetries() {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(retryStrategy())
                .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                .apiCallTimeout(CALL_TIMEOUT);
    }

    /**
     * The SDK's STANDARD strategy (AWS's retryable and throttling error codes, a 500-token retry quota
     * that stops retries, never first attempts, after about 100 failed retries not paid back by
     * successes) with this gateway's attempt count and backoffs.
     */
    private static RetryStrategy retryStrategy() {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(MAX_ATTEMPTS)
                .backoffStrategy(BACKOFF)
                .throttlingBackoffStrategy(THROTTLING_BACKOFF)
                .build();
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
