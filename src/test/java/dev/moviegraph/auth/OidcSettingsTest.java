package dev.moviegraph.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** OidcSettings: the defaults, and each refusal saying what to set instead. */
class OidcSettingsTest {

    private static String refusal(String issuer, String audience) {
        return assertThrows(IllegalArgumentException.class, () -> OidcSettings.of(issuer, audience)).getMessage();
    }

    @Test
    void defaultsAreTheRolesClaimSixtySecondsOfSkewAndThreeSecondsOfTimeout() {
        OidcSettings settings = OidcSettings.of("https://login.example.com/realms/movies", "moviegraph-api");

        assertEquals(URI.create("https://login.example.com/realms/movies"), settings.issuer());
        assertEquals("moviegraph-api", settings.audience());
        assertEquals("roles", settings.rolesClaim());
        assertEquals(Duration.ofSeconds(60), settings.clockSkew());
        assertEquals(Duration.ofSeconds(3), settings.timeout());
    }

    @Test
    void theDiscoveryDocumentIsUnderTheIssuerWithoutItsTrailingSlash() {
        assertEquals(URI.create("https://login.example.com/realms/movies/.well-known/openid-configuration"),
                OidcSettings.of("https://login.example.com/realms/movies/", "api").discoveryUri());
    }

    @Test
    void plainHttpIsAcceptedOnlyForThisMachine() {
        OidcSettings.of("http://localhost:8180/realms/movies", "api");
        OidcSettings.of("http://127.0.0.1:8180", "api");

        String message = refusal("http://login.example.com", "api");

        assertTrue(message.contains("https") && message.contains("localhost"), message);
    }

    @Test
    void anIssuerThatIsNoAbsoluteHttpsUrlIsRefused() {
        assertTrue(refusal("login.example.com", "api").contains("absolute URL"));
        assertTrue(refusal("ftp://login.example.com", "api").contains("https"));
        assertTrue(refusal("https://login example.com", "api").contains("not a URL"));
        assertTrue(refusal("", "api").contains("issuer is empty"));
        assertTrue(refusal("https://login.example.com?tenant=1", "api").contains("query"));
    }

    @Test
    void aBlankAudienceIsRefused() {
        String message = refusal("https://login.example.com", " ");

        assertTrue(message.contains("audience"), message);
    }

    @Test
    void aNegativeClockSkewOrZeroTimeoutIsRefused() {
        OidcSettings settings = OidcSettings.of("https://login.example.com", "api");

        assertThrows(IllegalArgumentException.class, () -> settings.withClockSkew(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> settings.withTimeout(Duration.ZERO));
    }
}
