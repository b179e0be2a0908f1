package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.partiql.Ast.Path;

import java.util.List;

/**
 * One statement as a request of one of the engine's operations: {@code request} is that operation's JSON
 * body (TableName, Key or Item, expressions with their placeholders), ready to be sent or to be put into a
 * transaction. {@code projection} is the SELECT's paths, whose values an answer's items show under each
 * path's last name; empty for {@code *}.
 */
record Plan(Operation operation, String table, ObjectNode request, List<Path> projection) {
    enum Operation {
        GET, QUERY, SCAN, PUT, UPDATE, DELETE;

        boolean reads() {
            return this == GET || this == QUERY || this == SCAN;
        }
    }

    Plan {
        projection = List.copyOf(projection);
    }
}
