package dev.moviegraph.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the provider's OpenID Connect discovery document and takes from it where the provider publishes its
 * signing keys ({@code jwks_uri}), after checking that the document speaks for the configured issuer: a
 * document that names another issuer would hand the server someone else's keys.
 */
final class Discovery {
    private final OidcSettings settings;
    private final HttpClient http;
    private final ObjectMapper json;

    Discovery(OidcSettings settings, HttpClient http, ObjectMapper json) {
        this.settings = settings;
        this.http = http;
        this.json = json;
    }

    /** The address of the provider's keys. */
    URI jwksUri() throws ProviderFailure {
        URI address = settings.discoveryUri();
        JsonNode document = parse(fetch(address), address);
        String issuer = document.path("issuer").asText(null);
        if (!settings.issuer().toString().equals(issuer)) {
            throw new ProviderFailure("The discovery document at " + address + " names the issuer '" + issuer
                    + "', not the configured '" + settings.issuer() + "': configure the issuer exactly as the "
                    + "provider names it");
        }
        String keys = document.path("jwks_uri").asText(null);
        if (keys == null || keys.isBlank()) {
            throw new ProviderFailure("The discovery document at " + address + " has no jwks_uri");
        }
        URI jwks;
        try {
            jwks = new URI(keys);
        } catch (java.net.URISyntaxException e) {
            throw new ProviderFailure("The discovery document at " + address + " has a jwks_uri that is no URL: "
                    + keys);
        }
        String problem = OidcSettings.urlProblem(jwks);
        if (problem != null) {
            throw new ProviderFailure("The jwks_uri '" + jwks + "' of " + address + " " + problem);
        }
        return jwks;
    }

    private String fetch(URI address) throws ProviderFailure {
        HttpRequest request = HttpRequest.newBuilder(address)
                .timeout(settings.timeout())
                .header("Accept", "application/json")
                .GET()
                .build();
        CompletableFuture<HttpResponse<String>> call = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> response;
        try {
            // The request's own timeout ends the wait for the headers; this one also bounds a body that
            // trickles in, so a provider that stalls can never hold a request longer than the timeout.
            response = call.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new ProviderFailure("No answer from " + address + " within " + settings.timeout().toMillis()
                    + " ms");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new ProviderFailure("Interrupted while reading " + address);
        } catch (ExecutionException e) {
            throw new ProviderFailure("Could not read " + address + ": " + describe(e.getCause()));
        }
        if (response.statusCode() != 200) {
            throw new ProviderFailure("The discovery document at " + address + " answered HTTP "
                    + response.statusCode());
        }
        return response.body();
    }

    private JsonNode parse(String body, URI address) throws ProviderFailure {
        try {
            JsonNode document = json.readTree(body);
            if (document == null || !document.isObject()) {
                throw new ProviderFailure("The discovery document at " + address + " is not a JSON object");
            }
            return document;
        } catch (IOException e) {
            throw new ProviderFailure("The discovery document at " + address + " is not JSON");
        }
    }

    private static String describe(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        String message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
