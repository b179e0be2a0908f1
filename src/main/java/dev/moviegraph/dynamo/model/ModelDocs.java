package dev.moviegraph.dynamo.model;

import static dev.moviegraph.dynamo.model.TableModel.*;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The two tables of docs/design/model.md, derived from the {@link TableModel} declarations. */
public final class ModelDocs {
    private ModelDocs() {
    }

    /** The item table of docs/design.md, derived from the declarations. */
    public static String itemsTable() {
        return itemsTable(ENTITIES);
    }

    static String itemsTable(List<Entity<?>> entities) {
        StringBuilder table = new StringBuilder("| Item | `type` | `pk` | `sk` | `lsi1sk` | `gsi3pk` | `gsi3sk` | `gsi4pk` | `gsi5pk` | `gsi6pk` | `gsi8pk` | Attributes | Copies |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Entity<?> entity : entities) {
            Set<String> copied = new LinkedHashSet<>();
            entity.copies().forEach(copy -> copied.addAll(copy.attributes().keySet()));
            List<String> own = new ArrayList<>(entity.attributes());
            own.removeAll(copied);
            if (entity.isVersioned()) {
                own.add(VERSION);
            }
            List<String> copies = entity.copies().stream().map(copy -> copy.attributes().entrySet().stream()
                    .map(e -> "`" + e.getKey() + "` = " + copy.source().type() + "." + e.getValue())
                    .collect(Collectors.joining(", ")) + " (`" + copy.versionAttribute() + "`)").toList();
            table.append("| ").append(entity.recordType().getSimpleName())
                    .append(" | `").append(entity.type()).append('`');
            for (String key : List.of(PK, SK, LSI1_SK, GSI3_PK, GSI3_SK, GSI4_PK, GSI5_PK, GSI6_PK, GSI8_PK)) {
                KeyTemplate template = entity.template(key);
                table.append(" | ").append(template == null ? "" : "`" + template.text() + "`");
            }
            table.append(" | ").append(own.stream().map(a -> "`" + a + "`").collect(Collectors.joining(", ")))
                    .append(" | ").append(String.join("; ", copies)).append(" |\n");
        }
        return table.toString();
    }

    /** The access-pattern table of docs/design.md, derived from the collections and {@link Access}. */
    public static String patternsTable() {
        StringBuilder table = new StringBuilder("| Pattern | Serves | Operation | Index | Key template |\n")
                .append("|---|---|---|---|---|\n");
        for (dev.moviegraph.catalog.AccessPattern pattern : accessPatterns()) {
            table.append("| `").append(pattern.name()).append("` | ").append(pattern.serves())
                    .append(" | ").append(pattern.operation()).append(" | ").append(pattern.index())
                    .append(" | `").append(pattern.keyTemplate().replace("|", "\\|")).append("` |\n");
        }
        return table.toString();
    }
}
