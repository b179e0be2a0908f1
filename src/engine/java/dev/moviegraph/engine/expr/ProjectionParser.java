package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parser of ProjectionExpression text ({@code path} as in {@link Reader}):
 *
 * <pre>
 * projection ::= path ( ',' path )*
 * </pre>
 *
 * No two paths may overlap ({@code a, a.b}) or conflict ({@code a.b, a[0]}).
 */
final class ProjectionParser {
    // The order DynamoDB reports the errors of a projection in.
    private static final List<Problems.Kind> ORDER = List.of(Problems.Kind.RESERVED, Problems.Kind.UNDEFINED_NAME,
            Problems.Kind.OVERLAP, Problems.Kind.CONFLICT);

    private ProjectionParser() {
    }

    static Projection parse(String text, Placeholders placeholders) {
        Reader.requireText(text, "ProjectionExpression");
        Tokens tokens = new Tokens(text, "ProjectionExpression");
        Problems problems = new Problems("ProjectionExpression", ORDER);
        // A projection has no keywords and no values: ':v' is a syntax error where a path is wanted.
        Reader reader = new Reader(tokens, problems, placeholders, Set.of(),
                Problems.Kind.UNDEFINED_NAME, Problems.Kind.UNDEFINED_NAME);
        List<Path> paths = new ArrayList<>();
        do {
            paths.add(reader.path());
        } while (tokens.accept(","));
        Path.noteClashes(paths, problems);
        reader.finish();
        return new Parsed(paths);
    }

    /** A parsed projection. */
    static final class Parsed implements Projection {
        private final Set<String> topLevelNames;
        private final Projector projector;

        Parsed(List<Path> paths) {
            Set<String> names = new LinkedHashSet<>();
            for (Path path : paths) {
                names.add(path.top());
            }
            this.topLevelNames = Collections.unmodifiableSet(names);
            this.projector = new Projector(paths);
        }

        @Override
        public Map<String, Value> apply(Map<String, Value> item) {
            return projector.project(item);
        }

        @Override
        public Set<String> topLevelNames() {
            return topLevelNames;
        }
    }
}
