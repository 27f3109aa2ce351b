package dev.sift.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's verdict on a text, from its parser's serialized statement ({@code json_serialize_sql}): the error fields,
 * how many statements, the functions it calls, its joins, how deeply it nests and whether it names a table like a file
 * path. The text is read once, as a tree that one walk reads all of these from; the same tree serves the checks that
 * need more ({@link HugeValues}) and the result's byte budget ({@link StoredLengths}), so no statement's parse is read
 * twice.
 */
record SerializedSql(boolean error, String errorType, String errorMessage, int statements, List<String> functions,
        int joins, int depth, boolean pathTable, JsonNode tree) {

    /** Reads the verdict of DuckDB's serialized statement {@code s}. */
    static SerializedSql read(String s) throws QueryException {
        JsonNode tree = tree(s);
        if (!tree.isObject()) {
            throw new QueryException(QueryException.Kind.INVALID, SqlGuard.TOO_DEEP); // as the reader's own failure
        }
        Walk walk = new Walk();
        int depth = walk.container(tree);
        JsonNode statements = tree.path("statements");
        return new SerializedSql(tree.path("error").booleanValue(), tree.path("error_type").textValue(),
                tree.path("error_message").textValue(), statements.isArray() ? statements.size() : 0,
                List.copyOf(walk.functions), walk.joins, depth, walk.pathTable, tree);
    }

    /** A serialized statement as a JSON tree. */
    static JsonNode tree(String serialized) throws QueryException {
        try {
            return HugeValues.JSON.readTree(serialized);
        } catch (IOException e) { // nested beyond what the reader takes: only a statement far past the depth limit
            throw new QueryException(QueryException.Kind.INVALID, SqlGuard.TOO_DEEP);
        }
    }

    /**
     * Whether a table name reads a file: DuckDB reads {@code FROM 'x.csv'} as that file, so a name with a path
     * separator or a dot counts, and so does one with a character JSON escapes (a quote, a backslash, a control
     * character), as the pattern over the serialized text this replaces counted those.
     */
    static boolean pathLike(String tableName) {
        for (int i = 0; i < tableName.length(); i++) {
            char c = tableName.charAt(i);
            if (c == '/' || c == '\\' || c == '.' || c == '"' || c < 0x20) {
                return true;
            }
        }
        return false;
    }

    /** What one walk over the tree collects. */
    private static final class Walk {
        final Set<String> functions = new LinkedHashSet<>();
        int joins;
        boolean pathTable;

        /** Visits an object or array and returns how deeply it nests (1 for one without containers inside). */
        int container(JsonNode node) {
            int deepest = 0;
            if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    JsonNode value = field.getValue();
                    if (value.isContainerNode()) {
                        deepest = Math.max(deepest, container(value));
                    } else if (value.isTextual()) {
                        text(field.getKey(), value.textValue());
                    }
                }
            } else {
                for (JsonNode element : node) {
                    if (element.isContainerNode()) {
                        deepest = Math.max(deepest, container(element));
                    }
                }
            }
            return deepest + 1;
        }

        private void text(String field, String value) {
            switch (field) {
                case "function_name" -> {
                    if (!value.isEmpty()) {
                        functions.add(value);
                    }
                }
                case "type" -> joins += value.equals("JOIN") ? 1 : 0;
                case "table_name" -> pathTable |= pathLike(value);
                default -> { }
            }
        }
    }
}
