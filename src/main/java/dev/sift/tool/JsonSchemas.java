package dev.sift.tool;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.reflect.RecordComponent;

/** JSON Schema of a tool's argument record, for models that take native function definitions. */
public final class JsonSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a catalog of {@link #signature}s says once: an argument without a type is a string. */
    public static final String UNTYPED = "(Arguments are strings unless typed.)";

    private JsonSchemas() { }

    public static ObjectNode of(Class<? extends Record> args) {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (RecordComponent c : args.getRecordComponents()) {
            Arg a = ArgsBinder.arg(c);
            String type = ArgsBinder.typeName(c);
            ObjectNode p = props.putObject(c.getName());
            if (type.equals("string[]")) {
                p.put("type", "array").putObject("items").put("type", "string");
            } else {
                p.put("type", type);
            }
            p.put("description", a.value());
            if (a.required()) {
                required.add(c.getName());
            }
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /**
     * The compact signature used in prompts: {@code show_frame(frame, limit?: integer)}. A string argument, the
     * commonest kind, goes untyped ({@link #UNTYPED} says so once above the catalog), so a prompt does not repeat
     * ": string" for most arguments of every tool.
     */
    public static String signature(ToolSpec spec) {
        StringBuilder b = new StringBuilder(spec.name()).append('(');
        RecordComponent[] cs = spec.args().getRecordComponents();
        for (int i = 0; i < cs.length; i++) {
            String type = ArgsBinder.typeName(cs[i]);
            b.append(i == 0 ? "" : ", ").append(cs[i].getName()).append(ArgsBinder.arg(cs[i]).required() ? "" : "?")
                    .append(type.equals("string") ? "" : ": " + type);
        }
        return b.append(')').toString();
    }
}
