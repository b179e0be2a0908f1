package dev.moviegraph.http;

import dev.moviegraph.graphql.TraceMode;
import dev.moviegraph.graphql.caching.CachePolicy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The HTTP caching headers of /graphql answers. {@code Vary} names every request header an answer
 * depends on: Accept (the media type), Accept-Encoding (Javalin gzips bodies of 1,500 bytes and more
 * for clients that accept it, and says nothing of it), Moviegraph-Trace (a trace or plan is another
 * answer) and, with CORS on, Origin (the Access-Control-Allow-Origin header). {@code Cache-Control} is
 * the answer's {@link CachePolicy}, private when the request carried Authorization. The {@code ETag} is a
 * weak validator over the uncompressed body and its media type, so it stays the same whether Javalin
 * compresses the body or not (a strong one would have to differ by encoding).
 */
final class CacheHeaders {
    static final String NO_STORE = "no-store";

    private final String vary;

    CacheHeaders(boolean cors) {
        this.vary = "Accept, Accept-Encoding, " + TraceMode.HEADER + (cors ? ", Origin" : "");
    }

    String vary() {
        return vary;
    }

    /** Apollo Server's header: {@code max-age=N, public|private}, or no-store when it may not be kept. */
    static String cacheControl(CachePolicy policy, String authorization) {
        if (!policy.cacheable()) {
            return NO_STORE;
        }
        boolean priv = policy.priv() || (authorization != null && !authorization.isBlank());
        return "max-age=" + policy.maxAge() + ", " + (priv ? "private" : "public");
    }

    static String etag(String mediaType, byte[] body) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(mediaType.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            byte[] digest = sha.digest(body);
            return "W/\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 27) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java has SHA-256", e);
        }
    }

    /** If-None-Match's weak comparison (RFC 9110, 13.1.2): any listed tag, W/ or not, or *. */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        String opaque = opaque(etag);
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*") || opaque(tag).equals(opaque)) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
