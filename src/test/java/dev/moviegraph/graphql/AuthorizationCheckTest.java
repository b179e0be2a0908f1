package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.graphql.auth.AuthRules.AccessPolicy;
import dev.moviegraph.metrics.GatewayMetrics;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The schema's {@code @auth} rules hold before anything runs: a refused operation reaches neither the
 * catalog nor the writer, however the field is reached (directly, through a fragment), a batch runs what it
 * may, and a plan says what would be refused instead of planning it.
 */
class AuthorizationCheckTest {
    private static final String DELETE = "mutation { deleteMovie(id: \"tt0111161\") }";
    private static final Viewer ALICE = new Viewer("alice", Set.of(), null);
    private static final Viewer EDITOR = new Viewer("erin", Set.of(Viewer.EDITOR), null);

    private final StubCatalog catalog = StubCatalog.complete(Set.of());
    private final AtomicInteger writes = new AtomicInteger();
    private final CatalogWriter writer = (CatalogWriter) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {CatalogWriter.class}, (proxy, method, args) -> {
                writes.incrementAndGet();
                return CompletableFuture.completedFuture(Boolean.TRUE);
            });

    private GraphQLService service(AccessPolicy policy) {
        return GraphQLService.builder(catalog, new GatewayMetrics()).writer(writer).access(policy).build();
    }

    private GraphQLAnswer answer(AccessPolicy policy, String query, Viewer viewer, TraceMode mode) {
        return service(policy).answer(new GraphQLRequest(query, null, Map.of()).by(viewer), mode).join();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> firstError(GraphQLAnswer answer) {
        return ((List<Map<String, Object>>) answer.body().get("errors")).get(0);
    }

    @SuppressWarnings("unchecked")
    private static String code(GraphQLAnswer answer) {
        return (String) ((Map<String, Object>) firstError(answer).get("extensions")).get("code");
    }

    @Test
    void anAnonymousMutationIsRefusedAsUnauthenticatedAndWritesNothing() {
        GraphQLAnswer answer = answer(new AccessPolicy(true, true), DELETE, Viewer.ANONYMOUS, TraceMode.OFF);
        assertEquals("UNAUTHENTICATED", code(answer));
        assertEquals(401, answer.refusalStatus());
        assertEquals(List.of("deleteMovie"), firstError(answer).get("path"));
        assertTrue(((String) firstError(answer).get("message")).contains("WRITE_TOKEN"), firstError(answer).toString());
        assertFalse(answer.body().containsKey("data"), "refused whole, before execution");
        assertEquals(0, writes.get());
    }

    @Test
    void aSignedInViewerWithoutTheEditorRoleIsForbiddenToChangeTheCatalog() {
        GraphQLAnswer answer = answer(new AccessPolicy(false, true), DELETE, ALICE, TraceMode.OFF);
        assertEquals("FORBIDDEN", code(answer));
        assertEquals(403, answer.refusalStatus());
        assertEquals(0, writes.get());
    }

    @Test
    void anEditorAndTheWriteTokenMayChangeTheCatalog() {
        GraphQLAnswer editor = answer(new AccessPolicy(true, true), DELETE, EDITOR, TraceMode.OFF);
        GraphQLAnswer service = answer(new AccessPolicy(true, true), DELETE, Viewer.SERVICE, TraceMode.OFF);
        assertNull(editor.refused());
        assertEquals(Map.of("deleteMovie", true), editor.body().get("data"));
        assertEquals(Map.of("deleteMovie", true), service.body().get("data"));
        assertEquals(2, writes.get());
    }

    @Test
    void withNeitherWriteTokenNorSignInWritesAreDisabledAndSaySo() {
        GraphQLAnswer answer = answer(new AccessPolicy(false, false), DELETE, Viewer.ANONYMOUS, TraceMode.OFF);
        assertEquals("FORBIDDEN", code(answer));
        assertTrue(((String) firstError(answer).get("message")).contains("Writes are disabled: set WRITE_TOKEN"));
    }

    @Test
    void theSandboxMayWriteAsBefore() {
        GraphQLAnswer answer = answer(AccessPolicy.SANDBOX, DELETE, Viewer.SANDBOX, TraceMode.OFF);
        assertEquals(Map.of("deleteMovie", true), answer.body().get("data"));
    }

    @Test
    void aFieldReachedThroughAFragmentIsRefusedToo() {
        String query = "mutation { ...Gone } fragment Gone on Mutation { gone: deleteMovie(id: \"tt0111161\") }";
        GraphQLAnswer answer = answer(new AccessPolicy(true, true), query, Viewer.ANONYMOUS, TraceMode.OFF);
        assertEquals("UNAUTHENTICATED", code(answer));
        assertEquals(List.of("gone"), firstError(answer).get("path"), "named by its response key");
        assertEquals(0, writes.get());
    }

    @Test
    void aFieldSkippedByItsVariableIsNotRefused() {
        String query = "mutation($no: Boolean!) { deleteMovie(id: \"tt0111161\") @skip(if: $no) }";
        GraphQLAnswer answer = service(new AccessPolicy(true, true)).answer(
                new GraphQLRequest(query, null, Map.of("no", true)).by(Viewer.ANONYMOUS), TraceMode.OFF).join();
        assertNull(answer.refused(), answer.body().toString());
        assertEquals(0, writes.get());
    }

    @Test
    void aBatchRunsWhatItsViewerMayAndRefusesTheRest() {
        List<GraphQLAnswer> answers = service(new AccessPolicy(true, true)).answerAll(List.of(
                new GraphQLRequest("{ movie(id: \"tt0111161\") { title } }", null, Map.of()).by(Viewer.ANONYMOUS),
                new GraphQLRequest(DELETE, null, Map.of()).by(Viewer.ANONYMOUS)), TraceMode.OFF).join();
        assertNull(answers.get(0).refused());
        assertTrue(answers.get(0).body().containsKey("data"));
        assertEquals("UNAUTHENTICATED", code(answers.get(1)));
        assertEquals(1, catalog.fetches.size(), "the query read its movie");
        assertEquals(0, writes.get());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPlanSaysWhatTheViewerWouldBeRefusedAndReadsNothing() {
        GraphQLAnswer answer = answer(new AccessPolicy(true, true), DELETE, ALICE, TraceMode.PLAN);
        Map<String, Object> plan = (Map<String, Object>) ((Map<String, Object>) answer.body().get("extensions")).get("plan");
        List<Map<String, Object>> refused = (List<Map<String, Object>>) plan.get("refused");
        assertEquals(1, refused.size());
        assertEquals("deleteMovie", refused.get(0).get("path"));
        assertEquals("@auth(requires: EDITOR)", refused.get(0).get("rule"));
        assertEquals("FORBIDDEN", refused.get(0).get("code"));
        assertEquals(0, plan.get("calls"));
        assertTrue(catalog.fetches.isEmpty());
        assertEquals(0, writes.get());
    }

    @Test
    void theShippedSchemaWithoutItsMutationRuleDoesNotStartAndSaysWhichField() throws Exception {
        String shipped;
        try (java.io.InputStream in = getClass().getResourceAsStream("/schema.graphqls")) {
            shipped = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String unruled = shipped.replace("type Mutation @auth(requires: EDITOR) {", "type Mutation {");
        assertFalse(unruled.equals(shipped), "the shipped schema rules its mutations on the type");
        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> GraphQLService.builder(catalog, new GatewayMetrics()).schema(unruled).build());
        assertTrue(refused.getMessage().contains("Mutation.putMovie has no @auth rule"), refused.getMessage());
        assertFalse(refused.getMessage().contains("Mutation.addToWatchlist"), "its own rule covers it");
    }

    @Test
    void queriesOfTheCatalogNeedNoSignIn() {
        GraphQLAnswer answer = answer(new AccessPolicy(true, true), "{ movie(id: \"tt0111161\") { title } }",
                Viewer.ANONYMOUS, TraceMode.OFF);
        assertNull(answer.refused());
        assertFalse(answer.body().containsKey("errors"), answer.body().toString());
    }
}
