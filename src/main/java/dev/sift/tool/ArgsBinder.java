package dev.sift.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Binds a planner's JSON arguments to a tool's argument record. Strict: an unknown argument is an error
 * (never silently ignored), a missing required one too; documented aliases are accepted. Supported
 * component types: String, Integer, Long, Double, Boolean, List&lt;String&gt;, JsonNode.
 */
public final class ArgsBinder {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ToolSpec spec;
    private final RecordComponent[] components;
    private final Arg[] args;
    private final Map<String, RecordComponent> byName = new HashMap<>();
    private final Constructor<? extends Record> constructor;
    private final java.lang.reflect.Method[] accessors;

    /** The binder of {@code spec}'s argument record: the record's reflection is read once, here. */
    public ArgsBinder(ToolSpec spec) {
        this.spec = spec;
        Class<? extends Record> type = spec.args();
        this.components = type.getRecordComponents();
        this.args = new Arg[components.length];
        this.accessors = new java.lang.reflect.Method[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            args[i] = arg(c);
            byName.put(c.getName(), c);
            for (String alias : args[i].aliases()) {
                byName.put(alias, c);
            }
            accessors[i] = c.getAccessor();
            accessors[i].setAccessible(true);
        }
        try {
            this.constructor = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new));
            constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("Cannot construct " + type.getSimpleName(), e);
        }
    }

    /** Binds once, reading the record's reflection for this call alone (tools bound often keep an {@link ArgsBinder}). */
    public static <A extends Record> A bind(ToolSpec spec, JsonNode args) throws ToolCallException {
        return new ArgsBinder(spec).bind(args);
    }

    /** The number of arguments. */
    int size() {
        return components.length;
    }

    /** The description of argument {@code i}, in the record's order. */
    Arg arg(int i) {
        return args[i];
    }

    /** The value of argument {@code i} in a record this binder made. */
    Object value(Record bound, int i) {
        try {
            return accessors[i].invoke(bound);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Binds the planner's JSON arguments; the exception text is for the planner. */
    public <A extends Record> A bind(JsonNode json) throws ToolCallException {
        @SuppressWarnings("unchecked")
        Class<A> type = (Class<A>) spec.args();
        JsonNode in = json == null || json.isNull() || json.isMissingNode() ? JSON.createObjectNode() : json;
        if (!in.isObject()) {
            throw new ToolCallException(spec.name() + " takes a JSON object of arguments, got " + in.getNodeType()
                    .toString().toLowerCase() + ". Arguments: " + describe(type) + ".");
        }
        Map<RecordComponent, JsonNode> given = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            RecordComponent c = byName.get(field.getKey());
            if (c == null) {
                throw new ToolCallException(spec.name() + " has no argument '" + field.getKey() + "'. Its arguments are: "
                        + describe(type) + "." + dev.sift.data.Names.didYouMean(field.getKey(),
                        Arrays.stream(components).map(RecordComponent::getName).toList()));
            }
            if (given.containsKey(c)) {
                throw new ToolCallException(spec.name() + " got argument '" + c.getName() + "' twice (under an alias).");
            }
            if (!field.getValue().isNull()) {
                given.put(c, field.getValue());
            }
        }
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            JsonNode v = given.get(c);
            if (v == null) {
                if (args[i].required()) {
                    throw new ToolCallException(spec.name() + " needs argument '" + c.getName() + "' (" + args[i].value()
                            + "). Arguments: " + describe(type) + ".");
                }
                continue;
            }
            values[i] = convert(spec.name(), c, v);
        }
        try {
            return type.cast(constructor.newInstance(values));
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException iae) {
                throw new ToolCallException(spec.name() + ": " + iae.getMessage());
            }
            throw new IllegalStateException("Cannot construct " + type.getSimpleName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot construct " + type.getSimpleName(), e);
        }
    }

    private static Object convert(String tool, RecordComponent c, JsonNode v) throws ToolCallException {
        Class<?> t = c.getType();
        String where = tool + " argument '" + c.getName() + "'";
        if (t == String.class) {
            if (v.isValueNode()) {
                return v.asText();
            }
            throw new ToolCallException(where + " must be a string, got " + v.getNodeType().toString().toLowerCase() + ".");
        }
        if (t == Integer.class || t == Long.class) {
            if (v.isIntegralNumber() || (v.isTextual() && v.asText().trim().matches("-?\\d{1,18}"))) {
                long n = v.isTextual() ? Long.parseLong(v.asText().trim()) : v.asLong();
                return t == Integer.class ? (Object) Math.toIntExact(n) : (Object) n;
            }
            throw new ToolCallException(where + " must be a whole number, got " + v + ".");
        }
        if (t == Double.class) {
            if (v.isNumber() || (v.isTextual() && v.asText().trim().matches("-?\\d+(\\.\\d+)?"))) {
                return v.isTextual() ? Double.parseDouble(v.asText().trim()) : v.asDouble();
            }
            throw new ToolCallException(where + " must be a number, got " + v + ".");
        }
        if (t == Boolean.class) {
            if (v.isBoolean() || (v.isTextual() && v.asText().matches("true|false"))) {
                return v.isBoolean() ? v.asBoolean() : Boolean.parseBoolean(v.asText());
            }
            throw new ToolCallException(where + " must be true or false, got " + v + ".");
        }
        if (t == List.class) {
            if (v.isTextual()) {
                return List.of(v.asText()); // one name where a list was expected is unambiguous
            }
            if (v.isArray()) {
                List<String> out = new ArrayList<>();
                for (JsonNode e : v) {
                    if (!e.isValueNode() || e.isNull()) {
                        throw new ToolCallException(where + " must be a list of strings, got " + v + ".");
                    }
                    out.add(e.asText());
                }
                return List.copyOf(out);
            }
            throw new ToolCallException(where + " must be a list of strings, got " + v + ".");
        }
        if (t == JsonNode.class) {
            return v;
        }
        throw new IllegalStateException("Unsupported argument type " + t + " in " + tool);
    }

    public static Arg arg(RecordComponent c) {
        Arg a = c.getAnnotation(Arg.class);
        if (a == null) {
            throw new IllegalStateException("Argument '" + c.getName() + "' of " + c.getDeclaringRecord().getSimpleName()
                    + " has no @Arg description");
        }
        return a;
    }

    /** "sql (string, required), label (string)". */
    static String describe(Class<? extends Record> type) {
        List<String> parts = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            parts.add(c.getName() + " (" + typeName(c) + (arg(c).required() ? ", required" : "") + ")");
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    static String typeName(RecordComponent c) {
        Class<?> t = c.getType();
        if (t == String.class) {
            return "string";
        }
        if (t == Integer.class || t == Long.class) {
            return "integer";
        }
        if (t == Double.class) {
            return "number";
        }
        if (t == Boolean.class) {
            return "boolean";
        }
        if (t == List.class) {
            Type g = c.getGenericType();
            if (g instanceof ParameterizedType p && p.getActualTypeArguments()[0] == String.class) {
                return "string[]";
            }
            throw new IllegalStateException("Only List<String> is supported, in " + c);
        }
        if (t == JsonNode.class) {
            return "object";
        }
        throw new IllegalStateException("Unsupported argument type " + t + " of " + c);
    }
}
