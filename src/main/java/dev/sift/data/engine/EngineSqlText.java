package dev.sift.data.engine;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/**
 * A piece of engine SQL Calcite has no node for (PostgreSQL's {@code (array_agg(…))[1]}, a string literal spelt
 * the engine's way), printed from a pattern whose {@code {0}}, {@code {1}} … are the operands, each printed by
 * Calcite in parentheses where it is an expression of operators.
 */
final class EngineSqlText extends SqlSpecialOperator {
    private final String pattern;

    private EngineSqlText(String pattern) {
        super("ENGINE_SQL", SqlKind.OTHER_FUNCTION, 200); // binds tighter than any operator: printed as it is
        this.pattern = pattern;
    }

    /** The pattern with its operands in place. */
    static SqlNode of(String pattern, SqlNode... operands) {
        return new EngineSqlText(pattern).createCall(SqlParserPos.ZERO, operands);
    }

    /** A string literal as the engine reads it: PostgreSQL doubles quotes; Spark also escapes backslashes. */
    static SqlNode string(String value, boolean backslashEscapes) {
        String body = backslashEscapes ? value.replace("\\", "\\\\").replace("'", "\\'") : value.replace("'", "''");
        return of("'" + body.replace("{", "{{") + "'");
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
        List<SqlNode> operands = call.getOperandList();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '{' && i + 1 < pattern.length() && pattern.charAt(i + 1) == '{') {
                text.append('{');
                i++;
            } else if (c == '{') {
                int close = pattern.indexOf('}', i);
                flush(writer, text);
                operands.get(Integer.parseInt(pattern.substring(i + 1, close))).unparse(writer, 100, 100);
                i = close;
            } else {
                text.append(c);
            }
        }
        flush(writer, text);
        writer.setNeedWhitespace(true);
    }

    /**
     * Prints text so that the writer's spacing fits it: without its leading blanks (the writer puts one where a token
     * needs it), a leading ')' or ',' and a trailing '(' alone (no blank before the one, none after the other).
     */
    private static void flush(SqlWriter writer, StringBuilder text) {
        String t = text.toString().stripLeading();
        text.setLength(0);
        int i = 0;
        while (i < t.length() && (t.charAt(i) == ')' || t.charAt(i) == ',')) {
            writer.print(String.valueOf(t.charAt(i++)));
        }
        t = t.substring(i).stripLeading();
        boolean open = t.endsWith("(") && t.length() > 1;
        if (!t.isEmpty()) {
            writer.print(open ? t.substring(0, t.length() - 1) : t);
        }
        if (open) {
            writer.print("(");
        }
    }
}
