package dev.moviegraph.config;

import dev.moviegraph.catalog.TotalsMode;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Everything the server reads from its environment, validated once at start-up. All problems are
 * reported together, each naming the variable and what it accepts.
 *
 * @param port         HTTP port (0 picks a free one, used by tests)
 * @param endpoint     where DynamoDB is: embedded, the AWS default, or a URL
 * @param tableName    the single table
 * @param createTable  create the table and its indexes when missing
 * @param loadSample   load the bundled sample catalog when the table has none
 * @param dataDir      embedded only: keep the engine's data in this folder instead of memory
 * @param cursorSecret key that signs page cursors; every instance behind one API must share it
 * @param batching     DataLoader batching (BATCHING=off makes one request per key, for comparison only)
 * @param writeToken   the bearer token mutations need; null when unset (writes then only on embedded)
 * @param totals       how monthly totals follow recorded streams
 * @param aggregator   in stream mode, run the stream aggregator inside this server
 * @param limits       what one request may ask for
 * @param shutdownGraceSeconds SHUTDOWN_GRACE_SECONDS: how long a stop lets requests in flight finish
 * @param subscriptions what the WebSocket transport allows
 * @param persistedQueries     automatic persisted queries and trusted documents
 * @param caching      how long HTTP caches may keep answers
 * @param warmUpSeconds WARMUP_SECONDS: how long a starting server sends itself real queries before it
 *                      reports ready (0, the default, for none; the container image sets 20)
 * @param clientRate   each client's read units per second
 * @param telemetry    the {@code OTEL_*} variables, as given: OpenTelemetry's SDK reads them (traces are
 *                     off unless OTEL_TRACES_EXPORTER names an exporter)
 * @param signIn       end users' sign-in with an OpenID Connect provider (OIDC_*); null when off
 */
public record AppConfig(int port, Endpoint endpoint, String tableName, boolean createTable, boolean loadSample,
                        Path dataDir, String cursorSecret, boolean batching, String writeToken, TotalsMode totals,
                        boolean aggregator, Limits limits, int shutdownGraceSeconds, Subscriptions subscriptions,
                        PersistedQueries persistedQueries, Caching caching, int warmUpSeconds, ClientRate clientRate,
                        Map<String, String> telemetry, SignIn signIn) {

    public AppConfig {
        telemetry = Map.copyOf(telemetry);
    }

    /** CLIENT_READ_UNITS_PER_SECOND's default off the embedded default: a page of a web app every second or so. */
    public static final int DEFAULT_CLIENT_READ_UNITS_PER_SECOND = 20;
    /** An HTTP header name (RFC 9110's token). */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}");

    /**
     * What one client (its credential, else its address) may read.
     *
     * @param readUnitsPerSecond CLIENT_READ_UNITS_PER_SECOND: DynamoDB read units a second; 0 for no limit
     * @param addressHeader      CLIENT_ADDRESS_HEADER: the header a trusted proxy appends the client's
     *                           address to (X-Forwarded-For); null to use the connection's address
     */
    public record ClientRate(int readUnitsPerSecond, String addressHeader) {
    }

    /**
     * Sign-in with an OpenID Connect provider: the gateway verifies each access token it is sent against
     * the provider's published keys.
     *
     * @param issuer           OIDC_ISSUER: the provider's issuer URL, exactly as its tokens' {@code iss} says
     * @param audience         OIDC_AUDIENCE: what a token's {@code aud} must contain (this API's identifier or client id;
     *                         a token without {@code aud} must have it as {@code client_id})
     * @param rolesClaim       OIDC_ROLES_CLAIM: the claim listing a viewer's roles ({@code roles}; {@code cognito:groups},
     *                         {@code realm_access.roles}...); the role {@code editor} may change the catalog
     * @param clockSkewSeconds OIDC_CLOCK_SKEW_SECONDS: how far the provider's clock may be from ours (60)
     */
    public record SignIn(URI issuer, String audience, String rolesClaim, int clockSkewSeconds) {
    }

    /**
     * Subscriptions over WebSocket (graphql-transport-ws on /graphql).
     *
     * @param enabled           SUBSCRIPTIONS: on (default) or off (no WebSocket endpoint, no stream reading)
     * @param maxConnections    MAX_WS_CONNECTIONS: open sockets per server
     * @param maxPerConnection  MAX_SUBSCRIPTIONS_PER_CONNECTION: operations open on one socket
     * @param initTimeoutMillis WS_INIT_TIMEOUT_MS: how long a socket may wait before connection_init
     * @param readStream        CHANGE_FEED: {@code stream} (default), a replica with subscribers reads the
     *                          table's stream for all; {@code published}, the Lambda function of each stream
     *                          shard publishes the changes and no replica reads the stream
     */
    public record Subscriptions(boolean enabled, int maxConnections, int maxPerConnection, int initTimeoutMillis,
                                boolean readStream) {
        public static final Subscriptions DEFAULTS = new Subscriptions(true, 1_000, 25, 3_000, true);
    }

    /**
     * Persisted queries: Apollo's automatic persisted queries, stored in the table, or a fixed list of
     * trusted documents.
     *
     * @param automatic              APQ: register documents by hash and run them by hash (ignored with a list)
     * @param maxDocumentBytes       APQ_MAX_DOCUMENT_BYTES: a larger document runs but is never stored
     * @param registrationsPerMinute APQ_REGISTRATIONS_PER_MINUTE: new documents one replica stores a minute
     * @param ttlSeconds             APQ_TTL_SECONDS: how long a stored document is kept
     * @param trustedDocuments       TRUSTED_DOCUMENTS: a manifest of the only documents that run; null for none
     */
    public record PersistedQueries(boolean automatic, int maxDocumentBytes, int registrationsPerMinute,
                                   int ttlSeconds, Path trustedDocuments) {
    }

    /**
     * The ages HTTP caches may keep answers for that depend on the data, not on the schema's hints.
     *
     * @param currentMonthSeconds  CACHE_CURRENT_MONTH_SECONDS: monthly totals of the current or a future month
     * @param finishedMonthSeconds CACHE_FINISHED_MONTH_SECONDS: monthly totals of a month that has ended
     * @param maxAgeSeconds        CACHE_MAX_AGE_SECONDS: the most any answer may be kept; 0: never
     */
    public record Caching(int currentMonthSeconds, int finishedMonthSeconds, int maxAgeSeconds) {
    }

    /**
     * What one request may ask for; each is an environment variable with a safe default.
     *
     * @param maxDepth      MAX_QUERY_DEPTH: nesting of fields
     * @param maxAliases    MAX_ALIASES: aliased fields in one document
     * @param maxTokens     MAX_QUERY_TOKENS: parser tokens (graphql-java ParserOptions)
     * @param maxChars      MAX_QUERY_CHARS: characters of the query text
     * @param maxBodyBytes  MAX_BODY_BYTES: HTTP request body; larger is 413
     * @param introspection INTROSPECTION: __schema and __type queries (default on only when embedded)
     * @param corsOrigins   CORS_ORIGINS: origins allowed to call /graphql from a browser (default none)
     * @param maxResultNodes MAX_RESULT_NODES: fields and list elements of one response
     * @param maxReadUnits  MAX_READ_UNITS: DynamoDB read units one query may be estimated at and consume; 0: none
     * @param timeoutMillis REQUEST_TIMEOUT_MS: how long a query may run before it is stopped
     * @param maxBatchOperations MAX_BATCH_OPERATIONS: operations in one batch (a JSON array body)
     * @param maxDeferred   MAX_DEFERRED_FRAGMENTS: {@code @defer} directives in one operation
     */
    public record Limits(int maxDepth, int maxAliases, int maxTokens, int maxChars, int maxBodyBytes,
                         boolean introspection, List<String> corsOrigins, int maxResultNodes, int maxReadUnits,
                         int timeoutMillis, int maxBatchOperations, int maxDeferred) {
        public Limits {
            corsOrigins = List.copyOf(corsOrigins);
        }
    }

    /** Where the DynamoDB API is reached. */
    public sealed interface Endpoint {
        /** Our engine started in this process (local/EmbeddedDynamo). */
        record Embedded() implements Endpoint {
        }

        /** The SDK's default endpoint, region and credential chain. */
        record Aws() implements Endpoint {
        }

        /** An explicit endpoint, e.g. the engine started on its own ({@code moviegraph.jar engine}). */
        record Url(URI uri) implements Endpoint {
        }
    }

    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");
    /** Signs cursors when CURSOR_SECRET is unset; fine for one instance, set your own for a fleet. */
    private static final String DEFAULT_CURSOR_SECRET = "moviegraph-default-cursor-key";

    /** Never prints the secrets: a configuration may end up in a log. */
    @Override
    public String toString() {
        return "AppConfig[port=" + port + ", endpoint=" + endpoint + ", tableName=" + tableName + ", createTable="
                + createTable + ", loadSample=" + loadSample + ", dataDir=" + dataDir + ", batching=" + batching
                + ", writeToken=" + (writeToken == null ? "unset" : "set") + ", totals=" + totals + ", aggregator="
                + aggregator + ", limits=" + limits + ", shutdownGraceSeconds=" + shutdownGraceSeconds
                + ", subscriptions=" + subscriptions + ", persistedQueries=" + persistedQueries + ", caching=" + caching
                + ", clientRate=" + clientRate + ", signIn=" + signIn + "]";
    }

    public boolean embedded() {
        return endpoint instanceof Endpoint.Embedded;
    }

    /** The configuration with no environment at all: the embedded default. */
    public static AppConfig defaults() {
        return fromEnvironment(Map.of());
    }

    public static AppConfig fromEnvironment(Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        int port = parsePort(env.get("PORT"), problems);
        Endpoint endpoint = parseEndpoint(env.get("DYNAMODB_ENDPOINT"), problems);
        boolean embedded = endpoint instanceof Endpoint.Embedded;

        String table = valueOr(env, "TABLE_NAME", "moviegraph");
        if (!TABLE_NAME.matcher(table).matches()) {
            problems.add("TABLE_NAME='" + table + "' is not a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -)");
        }
        boolean createTable = parseBoolean(env, "CREATE_TABLE", embedded, problems);
        boolean loadSample = parseBoolean(env, "LOAD_SAMPLE", embedded, problems);

        Path dataDir = null;
        String dir = env.get("DYNAMODB_DATA_DIR");
        if (dir != null && !dir.isBlank()) {
            if (!embedded) {
                problems.add("DYNAMODB_DATA_DIR is only used with DYNAMODB_ENDPOINT=embedded");
            }
            dataDir = Path.of(dir.trim());
        }
        String secret = valueOr(env, "CURSOR_SECRET", DEFAULT_CURSOR_SECRET);
        if (secret.length() < 16) {
            problems.add("CURSOR_SECRET must be at least 16 characters");
        }
        boolean batching = parseSwitch(env, "BATCHING", problems);
        String writeToken = env.get("WRITE_TOKEN");
        if (writeToken != null && writeToken.isBlank()) {
            writeToken = null;
        } else if (writeToken != null && (writeToken.trim().length() < 16 || writeToken.trim().contains(" "))) {
            problems.add("WRITE_TOKEN must be at least 16 characters without spaces");
        }
        TotalsMode totals = TotalsMode.TRANSACTIONAL;
        String totalsValue = valueOr(env, "TOTALS", "transactional").toLowerCase(Locale.ROOT);
        switch (totalsValue) {
            case "transactional" -> totals = TotalsMode.TRANSACTIONAL;
            case "stream" -> totals = TotalsMode.STREAM;
            default -> problems.add("TOTALS='" + totalsValue + "' must be transactional or stream");
        }
        boolean aggregator = parseSwitch(env, "AGGREGATOR", problems);
        Limits limits = new Limits(
                parseLimit(env, "MAX_QUERY_DEPTH", 15, 2, 100, problems),
                parseLimit(env, "MAX_ALIASES", 50, 0, 1_000, problems),
                parseLimit(env, "MAX_QUERY_TOKENS", 5_000, 100, 100_000, problems),
                parseLimit(env, "MAX_QUERY_CHARS", 20_000, 1_000, 1_000_000, problems),
                parseLimit(env, "MAX_BODY_BYTES", 102_400, 1_024, 10_485_760, problems),
                parseBoolean(env, "INTROSPECTION", embedded, problems),
                parseOrigins(env.get("CORS_ORIGINS"), problems),
                parseLimit(env, "MAX_RESULT_NODES", 20_000, 100, 10_000_000, problems),
                parseLimit(env, "MAX_READ_UNITS", 100, 0, 1_000_000, problems),
                parseLimit(env, "REQUEST_TIMEOUT_MS", 15_000, 100, 300_000, problems),
                parseLimit(env, "MAX_BATCH_OPERATIONS", 10, 1, 100, problems),
                parseLimit(env, "MAX_DEFERRED_FRAGMENTS", 16, 0, 1_000, problems));
        int shutdownGrace = parseLimit(env, "SHUTDOWN_GRACE_SECONDS", 20, 0, 600, problems);
        Subscriptions subscriptions = new Subscriptions(parseSwitch(env, "SUBSCRIPTIONS", problems),
                parseLimit(env, "MAX_WS_CONNECTIONS", Subscriptions.DEFAULTS.maxConnections(), 0, 1_000_000, problems),
                parseLimit(env, "MAX_SUBSCRIPTIONS_PER_CONNECTION", Subscriptions.DEFAULTS.maxPerConnection(), 1, 1_000,
                        problems),
                parseLimit(env, "WS_INIT_TIMEOUT_MS", Subscriptions.DEFAULTS.initTimeoutMillis(), 100, 60_000, problems),
                parseChangeFeed(env.get("CHANGE_FEED"), problems));
        String trusted = env.get("TRUSTED_DOCUMENTS");
        // The manifest itself is read when the server starts, which reports any problem with it on one line.
        PersistedQueries persisted = new PersistedQueries(parseSwitch(env, "APQ", problems),
                parseLimit(env, "APQ_MAX_DOCUMENT_BYTES", 16_384, 256, 262_144, problems),
                parseLimit(env, "APQ_REGISTRATIONS_PER_MINUTE", 60, 0, 100_000, problems),
                parseLimit(env, "APQ_TTL_SECONDS", 604_800, 60, 31_536_000, problems),
                trusted == null || trusted.isBlank() ? null : Path.of(trusted.trim()));
        Caching caching = new Caching(
                parseLimit(env, "CACHE_CURRENT_MONTH_SECONDS", 10, 0, 86_400, problems),
                parseLimit(env, "CACHE_FINISHED_MONTH_SECONDS", 3_600, 0, 2_592_000, problems),
                parseLimit(env, "CACHE_MAX_AGE_SECONDS", 3_600, 0, 2_592_000, problems));
        int warmUp = parseLimit(env, "WARMUP_SECONDS", 0, 0, 300, problems);
        // Read by LogConfigurator when logging starts; checked here so a typo stops the start with the rest.
        oneOf(env, "LOG_FORMAT", List.of("text", "json"), problems);
        oneOf(env, "LOG_LEVEL", List.of("info", "debug"), problems);
        String addressHeader = env.get("CLIENT_ADDRESS_HEADER");
        if (addressHeader != null && addressHeader.isBlank()) {
            addressHeader = null;
        } else if (addressHeader != null && !HEADER_NAME.matcher(addressHeader.trim()).matches()) {
            problems.add("CLIENT_ADDRESS_HEADER='" + addressHeader + "' must be an HTTP header name such as X-Forwarded-For");
        }
        ClientRate clientRate = new ClientRate(parseLimit(env, "CLIENT_READ_UNITS_PER_SECOND",
                embedded ? 0 : DEFAULT_CLIENT_READ_UNITS_PER_SECOND, 0, 1_000_000, problems),
                addressHeader == null ? null : addressHeader.trim());
        SignIn signIn = parseSignIn(env, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new AppConfig(port, endpoint, table, createTable, loadSample, dataDir, secret, batching,
                writeToken == null ? null : writeToken.trim(), totals, aggregator, limits, shutdownGrace, subscriptions, persisted, caching,
                warmUp, clientRate, otelVariables(env), signIn);
    }

    private static Map<String, String> otelVariables(Map<String, String> env) {
        Map<String, String> otel = new java.util.TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null) {
                otel.put(name, value);
            }
        });
        return otel;
    }

    private static void oneOf(Map<String, String> env, String name, List<String> allowed, List<String> problems) {
        String value = env.get(name);
        if (value != null && !value.isBlank() && !allowed.contains(value.strip().toLowerCase(Locale.ROOT))) {
            problems.add(name + "='" + value + "' must be " + String.join(" or ", allowed));
        }
    }

    private static int parseLimit(Map<String, String> env, String name, int fallback, int min, int max,
                                  List<String> problems) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(value.trim());
            if (limit >= min && limit <= max) {
                return limit;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        problems.add(name + "='" + value + "' must be a whole number from " + min + " to " + max);
        return fallback;
    }

    /** OIDC_ISSUER and the rest, or null when sign-in is off (no OIDC_ISSUER). */
    private static SignIn parseSignIn(Map<String, String> env, List<String> problems) {
        String issuer = env.get("OIDC_ISSUER");
        String audience = env.get("OIDC_AUDIENCE");
        if (issuer == null || issuer.isBlank()) {
            for (String name : List.of("OIDC_AUDIENCE", "OIDC_ROLES_CLAIM", "OIDC_CLOCK_SKEW_SECONDS")) {
                if (env.get(name) != null && !env.get(name).isBlank()) {
                    problems.add(name + " is set but OIDC_ISSUER is not: set OIDC_ISSUER to turn sign-in on");
                }
            }
            return null;
        }
        URI uri = null;
        try {
            uri = new URI(issuer.trim());
        } catch (java.net.URISyntaxException e) {
            uri = null;
        }
        boolean local = uri != null && ("localhost".equals(uri.getHost()) || "127.0.0.1".equals(uri.getHost()));
        if (uri == null || uri.getHost() == null || !("https".equals(uri.getScheme()) || ("http".equals(uri.getScheme()) && local))) {
            problems.add("OIDC_ISSUER='" + issuer + "' must be the provider's issuer URL, https://... (http only for"
                    + " localhost), exactly as its tokens' iss claim says");
        }
        if (audience == null || audience.isBlank()) {
            problems.add("OIDC_AUDIENCE must be set with OIDC_ISSUER: what the tokens' aud claim must contain"
                    + " (this API's identifier, or the app's client id)");
        }
        String rolesClaim = valueOr(env, "OIDC_ROLES_CLAIM", "roles").trim();
        if (rolesClaim.isEmpty() || rolesClaim.contains(" ")) {
            problems.add("OIDC_ROLES_CLAIM='" + rolesClaim + "' must be a claim name such as roles or cognito:groups");
        }
        int skew = parseLimit(env, "OIDC_CLOCK_SKEW_SECONDS", 60, 0, 300, problems);
        return new SignIn(uri, audience == null ? null : audience.trim(), rolesClaim, skew);
    }

    /** Comma-separated origins such as https://app.example.com; each a scheme and a host, no path. */
    private static List<String> parseOrigins(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<String> origins = new ArrayList<>();
        for (String raw : value.split(",")) {
            String origin = raw.trim();
            if (!origin.matches("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")) {
                problems.add("CORS_ORIGINS entry '" + origin + "' must be an origin such as https://app.example.com");
            } else {
                origins.add(origin);
            }
        }
        return origins;
    }

    public AppConfig withPort(int newPort) {
        return new AppConfig(newPort, endpoint, tableName, createTable, loadSample, dataDir, cursorSecret, batching,
                writeToken, totals, aggregator, limits, shutdownGraceSeconds, subscriptions, persistedQueries, caching,
                warmUpSeconds, clientRate, telemetry, signIn);
    }

    public AppConfig withWarmUpSeconds(int seconds) {
        return new AppConfig(port, endpoint, tableName, createTable, loadSample, dataDir, cursorSecret, batching,
                writeToken, totals, aggregator, limits, shutdownGraceSeconds, subscriptions, persistedQueries, caching,
                seconds, clientRate, telemetry, signIn);
    }

    public AppConfig withBatching(boolean on) {
        return new AppConfig(port, endpoint, tableName, createTable, loadSample, dataDir, cursorSecret, on,
                writeToken, totals, aggregator, limits, shutdownGraceSeconds, subscriptions, persistedQueries, caching,
                warmUpSeconds, clientRate, telemetry, signIn);
    }




    private static String valueOr(Map<String, String> env, String name, String fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static int parsePort(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return 8080;
        }
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        problems.add("PORT='" + value + "' is not a port number (0 to 65535)");
        return 0;
    }

    private static Endpoint parseEndpoint(String value, List<String> problems) {
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("embedded")) {
            return new Endpoint.Embedded();
        }
        String trimmed = value.trim();
        if (trimmed.equalsIgnoreCase("aws")) {
            return new Endpoint.Aws();
        }
        try {
            URI uri = URI.create(trimmed);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return new Endpoint.Url(uri);
            }
        } catch (IllegalArgumentException ignored) {
            // reported below
        }
        problems.add("DYNAMODB_ENDPOINT='" + trimmed
                + "' must be 'embedded', 'aws', or an http(s):// URL such as http://localhost:8000");
        return new Endpoint.Embedded();
    }

    /** stream (the default): the replicas read the table's stream; published: something else publishes the changes. */
    private static boolean parseChangeFeed(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return true;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "stream" -> {
                return true;
            }
            case "published" -> {
                return false;
            }
            default -> {
                problems.add("CHANGE_FEED='" + value + "' must be stream or published");
                return true;
            }
        }
    }

    /** on (the default) or off. */
    private static boolean parseSwitch(Map<String, String> env, String name, List<String> problems) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return true;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on" -> {
                return true;
            }
            case "off" -> {
                return false;
            }
            default -> {
                problems.add(name + "='" + value + "' must be on or off");
                return true;
            }
        }
    }

    private static boolean parseBoolean(Map<String, String> env, String name, boolean fallback, List<String> problems) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> {
                return true;
            }
            case "false", "0", "no" -> {
                return false;
            }
            default -> {
                problems.add(name + "='" + value + "' must be true or false");
                return fallback;
            }
        }
    }
}
