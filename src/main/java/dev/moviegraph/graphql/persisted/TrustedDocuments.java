package dev.moviegraph.graphql.persisted;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import graphql.language.AstPrinter;
import graphql.language.Document;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;

/**
 * The documents a deployment allows (TRUSTED_DOCUMENTS), read once at start-up from a manifest in either
 * of the two formats client toolchains write: Apollo's persisted query manifest
 * ({@code {"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id","name","type","body"}]}})
 * or Relay's ({@code {"<id>":"<text>"}}). A document is found by its id in the manifest, by the SHA-256 of
 * its text, or by its text itself, exactly or up to ignored tokens (whitespace, commas, comments).
 */
public final class TrustedDocuments {
    static final String APOLLO_FORMAT = "apollo-persisted-query-manifest";

    private final Map<String, String> byId;
    private final Map<String, String> bySha256;
    private final Set<String> texts;
    private final Set<String> compact;

    private TrustedDocuments(Map<String, String> byId) {
        this.byId = Map.copyOf(byId);
        Map<String, String> hashes = new HashMap<>();
        Set<String> printed = new HashSet<>();
        for (String text : byId.values()) {
            hashes.put(PersistedDocuments.sha256(text), text);
            printed.add(AstPrinter.printAstCompact(Parser.parse(text)));
        }
        this.bySha256 = Map.copyOf(hashes);
        this.texts = Set.copyOf(byId.values());
        this.compact = Set.copyOf(printed);
    }

    /**
     * Reads a manifest; every problem is an {@link IllegalArgumentException} whose message is one line
     * saying what is wrong with the file.
     */
    public static TrustedDocuments load(Path manifest) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(manifest));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("there is no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON manifest (" + e.getMessage().lines().findFirst().orElse("")
                    + ")");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("a manifest is a JSON object: Apollo's persisted query manifest or"
                    + " Relay's {\"<id>\": \"<document>\"}");
        }
        Map<String, String> documents = root.has("format") ? apollo(root) : relay(root);
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("the manifest lists no documents, so no request could run");
        }
        documents.forEach((id, text) -> {
            try {
                Parser.parse(text);
            } catch (InvalidSyntaxException e) {
                throw new IllegalArgumentException("document '" + id + "' is not valid GraphQL: "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
        });
        return new TrustedDocuments(documents);
    }

    private static Map<String, String> apollo(JsonNode root) {
        if (!APOLLO_FORMAT.equals(root.path("format").asText()) || root.path("version").asInt() != 1) {
            throw new IllegalArgumentException("'format' must be \"" + APOLLO_FORMAT + "\" with \"version\": 1"
                    + " (Apollo's persisted query manifest); a Relay manifest has no 'format'");
        }
        JsonNode operations = root.path("operations");
        if (!operations.isArray()) {
            throw new IllegalArgumentException("'operations' must be an array of {id, name, type, body}");
        }
        Map<String, String> documents = new HashMap<>();
        for (int i = 0; i < operations.size(); i++) {
            JsonNode id = operations.get(i).path("id");
            JsonNode body = operations.get(i).path("body");
            if (!id.isTextual() || id.asText().isEmpty() || !body.isTextual()) {
                throw new IllegalArgumentException("operations[" + i + "] must have a string 'id' and 'body'");
            }
            add(documents, id.asText(), body.asText());
        }
        return documents;
    }

    private static Map<String, String> relay(JsonNode root) {
        Map<String, String> documents = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = root.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getValue().isTextual() || field.getKey().isEmpty()) {
                throw new IllegalArgumentException("'" + field.getKey() + "' must map to the document's text"
                        + " (a Relay manifest is {\"<id>\": \"<document>\"})");
            }
            add(documents, field.getKey(), field.getValue().asText());
        }
        return documents;
    }

    private static void add(Map<String, String> documents, String id, String text) {
        String before = documents.putIfAbsent(id, text);
        if (before != null && !before.equals(text)) {
            throw new IllegalArgumentException("id '" + id + "' names two different documents");
        }
    }

    public int size() {
        return byId.size();
    }

    /** The document with this manifest id, or whose text has this SHA-256 (lower-case hex). */
    Optional<String> find(String idOrSha256) {
        String text = bySha256.get(idOrSha256);
        return Optional.ofNullable(text != null ? text : byId.get(idOrSha256));
    }

    /** Whether this text is listed: as it is, or as the document it parses to, printed compactly. */
    boolean lists(String text, Optional<Document> parsed) {
        return texts.contains(text) || parsed.map(document -> compact.contains(AstPrinter.printAstCompact(document)))
                .orElse(false);
    }
}
