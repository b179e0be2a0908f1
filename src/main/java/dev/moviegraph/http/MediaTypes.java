package dev.moviegraph.http;

import java.util.Locale;

/** Content negotiation of GraphQL over HTTP: which of the two GraphQL response types the client takes. */
final class MediaTypes {
    static final String GRAPHQL_RESPONSE = "application/graphql-response+json";
    static final String JSON = "application/json";

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
