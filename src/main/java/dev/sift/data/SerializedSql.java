package dev.sift.data;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's verdict on a text, from its parser's serialized statement ({@code json_serialize_sql}) {@code text}: the
 * error fields, how many statements, the functions it calls, its joins and how deeply it nests. The verdict is read
 * as a stream of tokens; the JSON tree, which cost a fifth of the parse, is read only when a check needs it
 * ({@link #json}).
 */
record SerializedSql(boolean error, String errorType, String errorMessage, int statements, List<String> functions,
        int joins, int depth, String text) {
    private static final Pattern FUNCTION_NAME = Pattern.compile("\"function_name\":\"([^\"]+)\"");
    private static final Pattern JOIN = Pattern.compile("\"type\":\"JOIN\"");

    /** Reads the verdict of DuckDB's serialized statement {@code s}. */
    static SerializedSql read(String s) throws QueryException {
        boolean error = false;
        String errorType = null;
        String errorMessage = null;
        int statements = 0;
        try (JsonParser p = HugeValues.JSON.getFactory().createParser(s)) { // the whole text, under the tree's limits
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not an object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "error" -> error = value == JsonToken.VALUE_TRUE;
                    case "error_type" -> errorType = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "error_message" -> errorMessage = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "statements" -> statements = value == JsonToken.START_ARRAY ? elements(p) : skip(p);
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) { // nested beyond what the reader takes: only a statement far past the depth limit
            throw new QueryException(QueryException.Kind.INVALID, SqlGuard.TOO_DEEP);
        }
        Set<String> functions = new LinkedHashSet<>();
        for (Matcher m = FUNCTION_NAME.matcher(s); m.find(); ) {
            functions.add(m.group(1));
        }
        int joins = 0;
        for (Matcher m = JOIN.matcher(s); m.find(); ) {
            joins++;
        }
        return new SerializedSql(error, errorType, errorMessage, statements, List.copyOf(functions), joins, nesting(s), s);
    }

    /** The serialized statement as a JSON tree. */
    JsonNode json() throws QueryException {
        return tree(text);
    }

    /** A serialized statement as a JSON tree. */
    static JsonNode tree(String serialized) throws QueryException {
        try {
            return HugeValues.JSON.readTree(serialized);
        } catch (IOException e) { // nested beyond what the reader takes: only a statement far past the depth limit
            throw new QueryException(QueryException.Kind.INVALID, SqlGuard.TOO_DEEP);
        }
    }

    /** The elements of the array the parser stands at the start of, each skipped whole. */
    private static int elements(JsonParser p) throws IOException {
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            p.skipChildren();
            n++;
        }
        return n;
    }

    private static int skip(JsonParser p) throws IOException {
        p.skipChildren();
        return 0;
    }

    /** How deeply the JSON text nests objects and arrays (brackets inside strings do not count). */
    static int nesting(String json) {
        int depth = 0;
        int deepest = 0;
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                deepest = Math.max(deepest, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return deepest;
    }
}
