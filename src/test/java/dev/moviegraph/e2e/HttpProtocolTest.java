package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * A request refused before its body is read (wrong Content-Type, Accept, method or path) still has its
     * body read: a server that answers and closes while the client is still sending makes the client's TCP
     * stack drop the answer to the reset. So the refusal arrives, and the connection stays open for the next.
     */
    @Test
    void aRequestRefusedBeforeItsBodyIsReadKeepsItsConnection() throws Exception {
        String chunk = "{\"query\":\"{ __typename }\"," + "\"padding\":\"" + "x".repeat(2_000) + "\"}";
        List<String> refusals = List.of(
                "POST /graphql HTTP/1.1\r\nContent-Type: json\r\nAccept: application/json\r\n",
                "POST /graphql HTTP/1.1\r\nContent-Type: application/json\r\nAccept: text/html\r\n",
                "PUT /graphql HTTP/1.1\r\nContent-Type: application/json\r\n",
                "POST /nowhere HTTP/1.1\r\nContent-Type: application/json\r\n");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (String head : refusals) {
                // The body in three chunks, the last one after the server has had time to answer.
                out.write(ascii(head + "Host: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"));
                for (int part = 0; part < 3; part++) {
                    String piece = chunk.substring(part * chunk.length() / 3, (part + 1) * chunk.length() / 3);
                    out.write(ascii(Integer.toHexString(piece.length()) + "\r\n" + piece + "\r\n"));
                    out.flush();
                    Thread.sleep(100);
                }
                out.write(ascii("0\r\n\r\n"));
                out.flush();
                int status = readResponse(in);
                assertTrue(status >= 400 && status < 500, head + "-> " + status);
            }
            out.write(ascii("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            out.flush();
            assertEquals(200, readResponse(in), "the connection still serves after " + refusals.size() + " refusals");
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.1 (\\d{3})");
    private static final Pattern LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    /** One response with a Content-Length body, read whole; its status. */
    private static int readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection after '" + head + "'");
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        Matcher status = STATUS.matcher(text);
        Matcher length = LENGTH.matcher(text);
        assertTrue(status.find() && length.find(), text);
        in.readNBytes(Integer.parseInt(length.group(1)));
        return Integer.parseInt(status.group(1));
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
        assertTrue(page.raw().body().contains("/_static/graphiql/3.2.0/graphiql.min.js"), "loads GraphiQL from the bundled jar");
        String csp = page.raw().headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.startsWith("default-src 'self'"), csp);
        for (String asset : new String[] {"/graphiql/app.js", "/graphiql/examples.js", "/graphiql/incremental.js",
                "/graphiql/panel.js", "/_static/graphiql/3.2.0/graphiql.min.js", "/_static/graphiql/3.2.0/graphiql.min.css",
                "/webjars/react/18.3.1/umd/react.production.min.js",
                "/webjars/react-dom/18.3.1/umd/react-dom.production.min.js"}) {
            assertEquals(200, client.get(asset, Map.of(), "*/*").status(), asset);
        }
        assertTrue(client.get("/graphiql/examples.js", Map.of(), "*/*").raw().body().contains("tt0111161"),
                "example queries are preloaded");
        // Only the bundle's two files, of a version number: not the rest of the jar (sources, maps).
        for (String hidden : new String[] {"/_static/graphiql/3.2.0/package.json", "/_static/graphiql/3.2.0/graphiql.js",
                "/_static/graphiql/..%2F..%2F/graphiql.min.js"}) {
            int status = client.get(hidden, Map.of(), "*/*").status();
            assertTrue(status == 404 || status == 400, hidden + ": " + status);
        }
        assertEquals(404, client.get("/graphiql/secret.txt", Map.of(), "*/*").status());
    }

    @Test
    void theFaviconGraphiqlLinksIsAnIconThatCachesKeep() {
        assertTrue(client.get("/graphiql", Map.of(), "text/html").raw().body().contains("href=\"/favicon.ico\""));
        Response icon = client.get("/favicon.ico", Map.of(), "image/*");
        assertEquals(200, icon.status());
        assertEquals("image/x-icon", icon.contentType());
        assertTrue(icon.raw().body().startsWith("\0\0\1\0"), "an ICO file's header");
        assertEquals("public, max-age=86400", icon.raw().headers().firstValue("Cache-Control").orElse(""));
    }

    @Test
    void healthSaysDynamoDbAnswers() {
        Response health = client.get("/health", Map.of(), "application/json");
        assertEquals(200, health.status());
        assertEquals("UP", health.body().path("dynamodb").asText());
    }
}
