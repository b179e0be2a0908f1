package dev.moviegraph.auth;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A viewer's roles, read from the claim the settings name. Providers differ: a JSON array of strings
 * ({@code roles}, {@code cognito:groups}), one string of names split by spaces or commas ({@code scope}-like
 * claims), or an array inside an object ({@code realm_access.roles} in Keycloak). Names are compared in
 * lower case, so {@code Editor} from the provider is {@link Viewer#EDITOR}.
 */
final class Roles {
    private Roles() {
    }

    /**
     * The roles the claims list under {@code claimName}; a name with dots that is no top-level claim is
     * followed as a path through nested objects. Empty when the claim is missing or of another shape.
     */
    static Set<String> of(Map<String, Object> claims, String claimName) {
        Object value = claims.get(claimName);
        if (value == null && !claims.containsKey(claimName) && claimName.indexOf('.') >= 0) {
            value = follow(claims, claimName.split("\\.", -1));
        }
        Set<String> roles = new LinkedHashSet<>();
        if (value instanceof Collection<?>) {
            for (Object element : (Collection<?>) value) {
                if (element instanceof String) {
                    add(roles, (String) element);
                }
            }
        } else if (value instanceof String) {
            for (String name : ((String) value).split("[\\s,]+")) {
                add(roles, name);
            }
        }
        return Set.copyOf(roles);
    }

    private static Object follow(Map<String, Object> claims, String[] path) {
        Object current = claims;
        for (String step : path) {
            if (!(current instanceof Map<?, ?>)) {
                return null;
            }
            current = ((Map<?, ?>) current).get(step);
        }
        return current;
    }

    private static void add(Set<String> roles, String name) {
        String role = name.strip().toLowerCase(Locale.ROOT);
        if (!role.isEmpty()) {
            roles.add(role);
        }
    }
}
