import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;

/**
 * A minimal OpenID Connect provider for the benchmark: {@code Issuer PORT AUDIENCE TOKEN_FILE}. Serves its
 * discovery document and its key set (one RS256 key) and writes one signed access token, valid a day,
 * for subject {@code bench}, to TOKEN_FILE; prints "ready". Nimbus comes from the gateway's jar.
 */
public class Issuer {
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        String issuer = "http://127.0.0.1:" + port + "/bench";
        RSAKey key = new RSAKeyGenerator(2048).keyID("bench-1").generate();
        byte[] discovery = ("{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}").getBytes(StandardCharsets.UTF_8);
        byte[] jwks = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/bench/.well-known/openid-configuration", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, discovery.length);
            exchange.getResponseBody().write(discovery);
            exchange.close();
        });
        server.createContext("/bench/jwks", exchange -> {
            System.out.println("key set fetched");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            exchange.getResponseBody().write(jwks);
            exchange.close();
        });
        server.start();
        long now = System.currentTimeMillis();
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder().issuer(issuer).subject("bench").audience(List.of(a[1]))
                        .issueTime(new Date(now)).expirationTime(new Date(now + 86_400_000L)).build());
        token.sign(new RSASSASigner(key));
        Files.writeString(Path.of(a[2]), token.serialize());
        System.out.println("ready " + issuer);
    }
}
