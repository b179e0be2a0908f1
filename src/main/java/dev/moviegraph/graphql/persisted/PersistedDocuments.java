package dev.moviegraph.graphql.persisted;

import dev.moviegraph.graphql.budget.QueryLimits;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.metrics.GatewayMetrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import graphql.language.Document;
import graphql.language.Field;
import graphql.language.OperationDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;

/**
 * Which document a request runs, when it may name one by hash or id instead of sending its text: Apollo's
 * automatic persisted queries ({@code extensions.persistedQuery = {version: 1, sha256Hash}}), the
 * GraphQL-over-HTTP persisted documents appendix ({@code documentId}: {@code sha256:<hex>} or, with
 * trusted documents, a manifest id), and trusted documents, where only the documents of a manifest run.
 *
 * <p>Transport-independent: HTTP calls {@link #resolve} for POST and GET, a WebSocket transport for each
 * operation it starts. The answer is the text to run or a {@link Refusal} with its code, message and the
 * HTTP status Apollo's servers answer it with.
 */
public final class PersistedDocuments {
    /** What a request runs, or why it runs nothing. */
    public sealed interface Resolution permits Run, Refusal {
    }

    /** The document text to execute. */
    public record Run(String query) implements Resolution {
    }

    /**
     * The request runs nothing. {@code status} is the HTTP status for it; a refusal must never be cached
     * (Apollo's servers send {@code Cache-Control: private, no-cache, must-revalidate}): the same GET may
     * succeed once its document is registered.
     */
    public record Refusal(ErrorType code, String message, int status) implements Resolution {
        /** A GraphQL response with this one error. */
        public Map<String, Object> body() {
            return Map.of("errors", List.of(Map.of("message", message, "extensions", Map.of("code", code.name()))));
        }
    }

    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern SHA256_ID = Pattern.compile("sha256:([0-9a-f]{64})");
    /** The appendix's custom document identifier: unreserved characters, no colon. */
    private static final Pattern CUSTOM_ID = Pattern.compile("[A-Za-z0-9._~-]{1,256}");

    private final AutomaticPersistedQueries automatic;
    private final TrustedDocuments trusted;
    private final QueryLimits limits;
    private final GatewayMetrics metrics;

    private PersistedDocuments(AutomaticPersistedQueries automatic, TrustedDocuments trusted, QueryLimits limits,
                               GatewayMetrics metrics) {
        this.automatic = automatic;
        this.trusted = trusted;
        this.limits = limits;
        this.metrics = metrics;
    }

    /** Automatic persisted queries: any valid document may be registered by its hash, then sent by it. */
    public static PersistedDocuments automatic(AutomaticPersistedQueries store, GatewayMetrics metrics) {
        return new PersistedDocuments(store, null, null, metrics);
    }

    /**
     * Only the documents of {@code list} run (and, when {@code limits} allow introspection, documents that
     * only introspect, which GraphiQL needs); nothing is registered.
     */
    public static PersistedDocuments trusted(TrustedDocuments list, QueryLimits limits, GatewayMetrics metrics) {
        return new PersistedDocuments(null, list, limits, metrics);
    }

    /** No persisted queries (APQ=off): a request must send its query, a hash is answered as not supported. */
    public static PersistedDocuments off(GatewayMetrics metrics) {
        return new PersistedDocuments(null, null, null, metrics);
    }

    /**
     * The document a request runs.
     *
     * @param query      the query text sent, or null
     * @param extensions the request's extensions, or null; only {@code persistedQuery} is read
     * @param documentId the persisted documents appendix's {@code documentId}, or null
     */
    public CompletableFuture<Resolution> resolve(String query, Map<String, ?> extensions, String documentId) {
        Object persisted = extensions == null ? null : extensions.get("persistedQuery");
        if (persisted == null && documentId == null) {
            return query != null ? trusted == null ? run(query) : freeform(query) : refuse(ErrorType.BAD_REQUEST,
                    "The request must have a 'query' string, or name a persisted document"
                            + " (extensions.persistedQuery or documentId)", 400);
        }
        if (automatic == null && trusted == null) {
            return refuse(ErrorType.PERSISTED_QUERY_NOT_SUPPORTED, "PersistedQueryNotSupported", 200);
        }
        String hash = null;
        if (persisted != null) {
            if (!(persisted instanceof Map<?, ?> extension)) {
                return badRequest("'extensions.persistedQuery' must be an object: {\"version\": 1, \"sha256Hash\": ...}");
            }
            if (!(extension.get("version") instanceof Number version) || version.doubleValue() != 1) {
                return badRequest("Unsupported persisted query version");
            }
            if (!(extension.get("sha256Hash") instanceof String sha256) || !SHA256.matcher(sha256).matches()) {
                return badRequest("'extensions.persistedQuery.sha256Hash' must be a SHA-256 hash: 64 hexadecimal"
                        + " characters");
            }
            hash = sha256.toLowerCase(Locale.ROOT);
        }
        String id = null;
        if (documentId != null) {
            if (query != null) {
                return badRequest("A request sends its document as 'query' or names it by 'documentId', not both");
            }
            var prefixed = SHA256_ID.matcher(documentId);
            if (prefixed.matches()) {
                if (hash != null && !hash.equals(prefixed.group(1))) {
                    return badRequest("'documentId' and 'extensions.persistedQuery' name different documents");
                }
                hash = prefixed.group(1);
            } else if (trusted != null && CUSTOM_ID.matcher(documentId).matches()) {
                id = documentId;
            } else {
                return badRequest("'documentId' must be sha256:<64 lower-case hexadecimal characters>"
                        + (trusted == null ? "" : " or the id of a trusted document"));
            }
        }
        if (query != null && hash != null && !hash.equals(sha256(query))) {
            // Apollo Server's message: a hash never names another document than the one it was made from.
            return badRequest("provided sha does not match query");
        }
        return trusted != null ? listed(query, id != null ? id : hash) : automatic(query, hash);
    }

    private CompletableFuture<Resolution> automatic(String query, String hash) {
        if (query != null) {
            return automatic.register(hash, query).thenApply(registered -> new Run(query));
        }
        return automatic.find(hash).thenApply(found -> found.<Resolution>map(Run::new).orElseGet(() ->
                // Apollo Server 4's answer, which Apollo's persisted-query link retries with the query on
                new Refusal(ErrorType.PERSISTED_QUERY_NOT_FOUND, "PersistedQueryNotFound", 200)));
    }

    /** Trusted documents: a document named by id or hash must be listed; sent as text, see {@link #freeform}. */
    private CompletableFuture<Resolution> listed(String query, String idOrHash) {
        if (query != null) {
            return freeform(query);
        }
        Optional<String> found = trusted.find(idOrHash);
        metrics.persistedQuery(found.isPresent() ? "listed" : "not_in_list");
        return found.<CompletableFuture<Resolution>>map(this::run).orElseGet(() -> refuse(
                ErrorType.PERSISTED_QUERY_NOT_IN_LIST, "Persisted query '" + idOrHash + "' not found in the"
                        + " persisted query list; this server runs only its trusted documents", 404));
    }

    /** Trusted documents: the text of a listed document runs, as may introspection when it is on. */
    private CompletableFuture<Resolution> freeform(String query) {
        Optional<Document> parsed = parse(query);
        if (trusted.lists(query, parsed) || limits.introspection() && parsed.map(PersistedDocuments::introspects)
                .orElse(false)) {
            metrics.persistedQuery("listed");
            return run(query);
        }
        metrics.persistedQuery("not_in_safelist");
        return refuse(ErrorType.QUERY_NOT_IN_SAFELIST, "The operation body was not found in the persisted query"
                + " safelist; this server runs only its trusted documents", 403);
    }

    private Optional<Document> parse(String query) {
        try {
            return Optional.of(Parser.parse(new ParserEnvironment.Builder().document(query)
                    .parserOptions(limits.parserOptions()).build()));
        } catch (InvalidSyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * Every operation selects only introspection fields (__schema, __type, __typename) at its root, or
     * Federation's {@code _service} (the schema's SDL, which a router's composition reads as GraphiQL reads
     * introspection).
     */
    private static boolean introspects(Document document) {
        List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
        return !operations.isEmpty() && operations.stream().allMatch(operation ->
                operation.getOperation() == OperationDefinition.Operation.QUERY
                        && operation.getSelectionSet().getSelections().stream()
                        .allMatch(selection -> selection instanceof Field field
                                && (field.getName().startsWith("__") || field.getName().equals("_service"))));
    }

    /** The lower-case hexadecimal SHA-256 of the text's UTF-8 bytes, as Apollo's links compute it. */
    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private CompletableFuture<Resolution> run(String query) {
        return CompletableFuture.completedFuture(new Run(query));
    }

    private static CompletableFuture<Resolution> badRequest(String message) {
        return refuse(ErrorType.BAD_REQUEST, message, 400);
    }

    private static CompletableFuture<Resolution> refuse(ErrorType code, String message, int status) {
        return CompletableFuture.completedFuture(new Refusal(code, message, status));
    }
}
