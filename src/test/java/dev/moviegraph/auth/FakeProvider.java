package dev.moviegraph.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenID Connect provider the test controls, on the JDK's HTTP server: its discovery document and its
 * keys (which the test can rotate or break), with a count of every request for each, so a test can say
 * exactly how many calls verifying made.
 */
final class FakeProvider implements AutoCloseable {
    static final String AUDIENCE = "moviegraph-api";

    private final HttpServer server;
    private final List<JWK> published = new CopyOnWriteArrayList<>();
    private final AtomicInteger discoveryRequests = new AtomicInteger();
    private final AtomicInteger keyRequests = new AtomicInteger();
    private volatile int discoveryStatus = 200;
    private volatile String issuerInDocument;
    private volatile String jwksUri;
    private volatile String jwksBody;
    private volatile int keysStatus = 200;

    FakeProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/.well-known/openid-configuration", this::discovery);
        server.createContext("/jwks", this::keys);
        server.start();
        issuerInDocument = issuer();
        jwksUri = issuer() + "/jwks";
    }

    String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Settings for this provider, with a timeout well above the default: a shared machine can be slow. */
    OidcSettings settings() {
        return OidcSettings.of(issuer(), AUDIENCE).withTimeout(Duration.ofSeconds(15));
    }

    int discoveryRequests() {
        return discoveryRequests.get();
    }

    int keyRequests() {
        return keyRequests.get();
    }

    /** Starts publishing this key (beside those published already). */
    <K extends JWK> K publish(K key) {
        published.add(key);
        return key;
    }

    void answerDiscoveryWith(int status) {
        discoveryStatus = status;
    }

    void nameIssuerInDocument(String issuer) {
        issuerInDocument = issuer;
    }

    void pointKeysTo(String uri) {
        jwksUri = uri;
    }

    /** Answer the key set's requests with this status (200 to serve it again). */
    void answerKeysWith(int status) {
        keysStatus = status;
    }

    /** Serve this text instead of the published keys. */
    void answerKeysWith(String body) {
        jwksBody = body;
    }

    static RSAKey newRsaKey(String kid) throws JOSEException {
        return new RSAKeyGenerator(2048).keyID(kid).generate();
    }

    static ECKey newEcKey(String kid) throws JOSEException {
        return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    }

    /** Claims this provider's tokens for this API carry: subject, audience, an hour of validity. */
    JWTClaimsSet.Builder claims(String subject) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder()
                .issuer(issuer())
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
    }

    /** A compact token signed with the key (RS256 for RSA keys, ES256 for EC keys). */
    static String sign(JWK key, JWTClaimsSet claims) throws JOSEException {
        boolean rsa = key instanceof RSAKey;
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(rsa ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256)
                .keyID(key.getKeyID()).build(), claims);
        jwt.sign(rsa ? new RSASSASigner((RSAKey) key) : new ECDSASigner((ECKey) key));
        return jwt.serialize();
    }

    private void discovery(HttpExchange exchange) throws IOException {
        discoveryRequests.incrementAndGet();
        String body = "{\"issuer\":\"" + issuerInDocument + "\",\"jwks_uri\":\"" + jwksUri + "\","
                + "\"id_token_signing_alg_values_supported\":[\"RS256\",\"ES256\"]}";
        respond(exchange, discoveryStatus, discoveryStatus == 200 ? body : "unavailable");
    }

    private void keys(HttpExchange exchange) throws IOException {
        keyRequests.incrementAndGet();
        String body = jwksBody != null ? jwksBody : new JWKSet(List.copyOf(published)).toString(true);
        respond(exchange, keysStatus, keysStatus == 200 ? body : "unavailable");
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
