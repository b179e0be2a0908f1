package dev.moviegraph.http;

import java.util.Locale;

/**
 * Content negotiation of GraphQL over HTTP: which of the two GraphQL response types the client takes for
 * an answer in one piece, whether it takes an answer in parts ({@code multipart/mixed}, for {@code @defer}),
 * and whether it asks for GraphQL over server-sent events ({@code text/event-stream}).
 */
final class MediaTypes {
    static final String GRAPHQL_RESPONSE = "application/graphql-response+json";
    static final String JSON = "application/json";
    static final String MULTIPART = "multipart/mixed";
    static final String EVENT_STREAM = "text/event-stream";

    private MediaTypes() {
    }

    /**
     * The response type for an Accept header: the GraphQL response type when the client ranks it at
     * least as high as JSON, JSON when only JSON (or a wildcard) is acceptable, JSON when there is no
     * header (legacy clients), null when neither is acceptable (406).
     */
    static String negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return JSON;
        }
        double graphql = 0;
        double json = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.trim().split(";", -1); // -1: ";" is [""], not [] (a 500)
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = quality(parts);
            switch (type) {
                case GRAPHQL_RESPONSE -> graphql = Math.max(graphql, q);
                case JSON, "application/*", "*/*" -> json = Math.max(json, q);
                default -> { }
            }
        }
        if (graphql > 0 && graphql >= json) {
            return GRAPHQL_RESPONSE;
        }
        return json > 0 ? JSON : null;
    }

    /** Whether the client takes an answer in parts: multipart/mixed, with any parameters (Apollo's deferSpec), q above 0. */
    static boolean acceptsMultipart(String accept) {
        return accept != null && quality(accept, MULTIPART) > 0;
    }

    /**
     * Whether the client asks for GraphQL over server-sent events (graphql-sse): text/event-stream ranked above
     * every JSON type it accepts, or as high and listed first. graphql-sse's client sends it alone.
     */
    static boolean prefersEventStream(String accept) {
        if (accept == null) {
            return false;
        }
        double best = 0;
        int bestAt = Integer.MAX_VALUE;
        double stream = 0;
        int streamAt = Integer.MAX_VALUE;
        String[] ranges = accept.split(",");
        for (int i = 0; i < ranges.length; i++) {
            String[] parts = ranges[i].trim().split(";", -1);
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = quality(parts);
            if (type.equals(EVENT_STREAM)) {
                stream = Math.max(stream, q);
                streamAt = Math.min(streamAt, i);
            } else if (type.equals(GRAPHQL_RESPONSE) || type.equals(JSON) || type.equals(MULTIPART)
                    || type.equals("application/*") || type.equals("*/*")) {
                if (q > best) { // on a tie the one listed first stays
                    best = q;
                    bestAt = i;
                }
            }
        }
        return stream > 0 && (stream > best || (stream == best && streamAt < bestAt));
    }

    /** The quality the Accept header gives {@code type} (its parameters other than q do not matter). */
    private static double quality(String accept, String type) {
        double q = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.trim().split(";", -1);
            if (parts[0].trim().toLowerCase(Locale.ROOT).equals(type)) {
                q = Math.max(q, quality(parts));
            }
        }
        return q;
    }

    /** Whether a request Content-Type is JSON (parameters such as charset=utf-8 allowed). */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", -1)[0].trim().toLowerCase(Locale.ROOT);
        return type.equals(JSON);
    }

    private static double quality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.startsWith("q=")) {
                try {
                    return Double.parseDouble(parameter.substring(2));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
