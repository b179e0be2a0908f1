package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** GraphQL over HTTP as the graphql-over-http specification has it, plus GraphiQL and health. */
class HttpProtocolTest {
    private static final String QUERY = "{ movie(id: \"tt0111161\") { title } }";
    private static final String GRAPHQL_RESPONSE = "application/graphql-response+json";

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    @Test
    void extensionsThatAreNotAnObjectAreABadRequestAndAnObjectIsAccepted() {
        for (String bad : List.of("\"x\"", "1", "true", "[]")) {
            Response response = client.post("{\"query\":\"{ __typename }\",\"extensions\":" + bad + "}",
                    "application/json", "application/json");
            assertEquals(400, response.status(), bad);
            assertEquals("BAD_REQUEST", response.firstErrorCode(), bad);
        }
        assertEquals(400, client.get("/graphql", Map.of("query", "{ __typename }", "extensions", "[1]"),
                "application/json").status());
        assertEquals(200, client.post("{\"query\":\"{ __typename }\",\"extensions\":{\"a\":1}}",
                "application/json", "application/json").status());
    }

    @Test
    void postWithJsonAnswersInTheNegotiatedType() {
        Response graphql = client.post("{\"query\":\"" + QUERY.replace("\"", "\\\"") + "\"}", "application/json",
                GRAPHQL_RESPONSE);
        assertEquals(200, graphql.status());
        assertTrue(graphql.contentType().startsWith(GRAPHQL_RESPONSE), graphql.contentType());
        assertEquals("The Shawshank Redemption", graphql.data().path("movie").path("title").asText());

        Response json = client.post("{\"query\":\"{ __typename }\"}", "application/json; charset=utf-8", "application/json");
        assertTrue(json.contentType().startsWith("application/json"), json.contentType());
        assertEquals("Query", json.data().path("__typename").asText());

        Response noAccept = client.post("{\"query\":\"{ __typename }\"}", "application/json", null);
        assertTrue(noAccept.contentType().startsWith("application/json"), "no Accept: legacy JSON");

        Response wildcard = client.post("{\"query\":\"{ __typename }\"}", "application/json", "*/*");
        assertEquals(200, wildcard.status());
        assertTrue(wildcard.contentType().startsWith("application/json"));
    }

    @Test
    void aValidationErrorIs400InGraphqlResponseJsonAnd200InJson() {
        String body = "{\"query\":\"{ nope }\"}";
        Response graphql = client.post(body, "application/json", GRAPHQL_RESPONSE);
        assertEquals(400, graphql.status());
        assertEquals("GRAPHQL_VALIDATION_FAILED", graphql.firstErrorCode());
        Response json = client.post(body, "application/json", "application/json");
        assertEquals(200, json.status());
        assertEquals("GRAPHQL_VALIDATION_FAILED", json.firstErrorCode());
    }

    @Test
    void brokenRequestsAre4xxWithAGraphqlStyleBody() {
        Response malformed = client.post("{\"query\": ", "application/json", GRAPHQL_RESPONSE);
        assertEquals(400, malformed.status());
        assertTrue(malformed.errors().path(0).path("message").asText().contains("not valid JSON"));

        Response missingQuery = client.post("{\"variables\":{}}", "application/json", GRAPHQL_RESPONSE);
        assertEquals(400, missingQuery.status());
        assertTrue(missingQuery.errors().path(0).path("message").asText().contains("'query'"));

        // (an array is a batch: OperationBatchesTest)
        for (String notAnObject : List.of("1", "\"{ __typename }\"", "null", "true")) {
            assertEquals(400, client.post(notAnObject, "application/json", GRAPHQL_RESPONSE).status(), notAnObject);
        }

        Response badVariables = client.post("{\"query\":\"{ __typename }\",\"variables\":[1]}", "application/json", null);
        assertEquals(400, badVariables.status());

        Response wrongType = client.post(QUERY, "text/plain", GRAPHQL_RESPONSE);
        assertEquals(415, wrongType.status());

        Response unacceptable = client.post("{\"query\":\"{ __typename }\"}", "application/json", "text/html");
        assertEquals(406, unacceptable.status());
    }

    @Test
    void acceptAndContentTypeMadeOfSeparatorsAreClientErrors() {
        // Found by FuzzTest: headers that split into no parts at all were a 500.
        for (String accept : List.of(";", ";;", ",,,;;", "application/foo, ;")) {
            assertEquals(406, client.post("{\"query\":\"{ __typename }\"}", "application/json", accept).status(), accept);
            assertEquals(406, client.get("/graphql", Map.of("query", "{ __typename }"), accept).status(), accept);
        }
        assertEquals(200, client.post("{\"query\":\"{ __typename }\"}", "application/json", ";, application/json").status());
        for (String contentType : List.of(";", ";;", " ; ")) {
            assertEquals(415, client.post("{\"query\":\"{ __typename }\"}", contentType, "application/json").status(),
                    contentType);
        }
    }

    @Test
    void getRunsQueriesAndRefusesMutations() {
        Response get = client.get("/graphql", Map.of("query", "query($id: ID!) { movie(id: $id) { title } }",
                "variables", "{\"id\":\"tt0068646\"}"), GRAPHQL_RESPONSE);
        assertEquals(200, get.status());
        assertEquals("The Godfather", get.data().path("movie").path("title").asText());

        Response mutation = client.get("/graphql", Map.of("query", "mutation { putMovie { id } }"), GRAPHQL_RESPONSE);
        assertEquals(405, mutation.status());
        assertEquals("POST", mutation.raw().headers().firstValue("Allow").orElse(""));

        Response noQuery = client.get("/graphql", Map.of(), GRAPHQL_RESPONSE);
        assertEquals(400, noQuery.status());
    }

    @Test
    void graphiqlIsServedFromTheJarWithAStrictContentSecurityPolicy() {
        Response page = client.get("/graphiql", Map.of(), "text/html");
        assertEquals(200, page.status());
        assertTrue(page.raw().body().contains("/webjars/graphiql/"), "loads GraphiQL from the bundled webjar");
        String csp = page.raw().headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.startsWith("default-src 'self'"), csp);
        for (String asset : new String[] {"/graphiql/app.js", "/webjars/graphiql/2.4.7/graphiql.min.js",
                "/webjars/react/18.3.1/umd/react.production.min.js",
                "/webjars/react-dom/18.3.1/umd/react-dom.production.min.js"}) {
            assertEquals(200, client.get(asset, Map.of(), "*/*").status(), asset);
        }
        assertTrue(client.get("/graphiql/app.js", Map.of(), "*/*").raw().body().contains("tt0111161"),
                "example queries are preloaded");
        assertEquals(404, client.get("/graphiql/secret.txt", Map.of(), "*/*").status());
    }

    @Test
    void healthSaysDynamoDbAnswers() {
        Response health = client.get("/health", Map.of(), "application/json");
        assertEquals(200, health.status());
        assertEquals("UP", health.body().path("dynamodb").asText());
    }
}
