package dev.moviegraph.engine.value;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;

import java.io.IOException;
import java.util.Map;

/**
 * An item written straight to the answer's JSON as it is serialized, with no tree of nodes built first:
 * building one node per attribute and per type was half of a Query's time.
 */
public final class WireItem implements JsonSerializable {
    private final Map<String, Value> item;

    private WireItem(Map<String, Value> item) {
        this.item = item;
    }

    public static WireItem of(Map<String, Value> item) {
        return new WireItem(item);
    }

    @Override
    public void serialize(JsonGenerator out, SerializerProvider serializers) throws IOException {
        writeItem(out, item);
    }

    @Override
    public void serializeWithType(JsonGenerator out, SerializerProvider serializers, TypeSerializer type)
            throws IOException {
        writeItem(out, item);
    }

    private static void writeItem(JsonGenerator out, Map<String, Value> item) throws IOException {
        out.writeStartObject();
        for (Map.Entry<String, Value> attribute : item.entrySet()) {
            out.writeFieldName(attribute.getKey());
            writeValue(out, attribute.getValue());
        }
        out.writeEndObject();
    }

    private static void writeValue(JsonGenerator out, Value value) throws IOException {
        out.writeStartObject();
        if (value instanceof Value.S s) {
            out.writeStringField("S", s.value());
        } else if (value instanceof Value.N n) {
            out.writeStringField("N", n.text());
        } else if (value instanceof Value.B b) {
            out.writeStringField("B", b.value().base64());
        } else if (value instanceof Value.Bool b) {
            out.writeBooleanField("BOOL", b.value());
        } else if (value instanceof Value.Null) {
            out.writeBooleanField("NULL", true);
        } else if (value instanceof Value.L l) {
            out.writeArrayFieldStart("L");
            for (Value element : l.values()) {
                writeValue(out, element);
            }
            out.writeEndArray();
        } else if (value instanceof Value.M m) {
            out.writeFieldName("M");
            writeItem(out, m.values());
        } else if (value instanceof Value.SS ss) {
            out.writeArrayFieldStart("SS");
            for (String member : ss.values()) {
                out.writeString(member);
            }
            out.writeEndArray();
        } else if (value instanceof Value.NS ns) {
            out.writeArrayFieldStart("NS");
            for (Value.N member : ns.values()) {
                out.writeString(member.text());
            }
            out.writeEndArray();
        } else if (value instanceof Value.BS bs) {
            out.writeArrayFieldStart("BS");
            for (Bytes member : bs.values()) {
                out.writeString(member.base64());
            }
            out.writeEndArray();
        }
        out.writeEndObject();
    }
}
