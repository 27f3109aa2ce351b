package dev.sift.data.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The expressions of one query of {@link EngineSql}: DuckDB's parse of a value (columns, constants, casts, operators,
 * function calls, CASE, subqueries, windows) as a Calcite node in the engine's form. Names are spelt, and subqueries
 * built, by the query the expression is in ({@link Scope}).
 */
final class EngineExpressions {
    private static final SqlParserPos P = SqlParserPos.ZERO;

    /** What an expression needs of the query it is in. */
    interface Scope {
        /** A name as the engine knows it. */
        String name(String written);

        SqlIdentifier ident(List<String> parts);

        SqlNode query(JsonNode node) throws QueryException;
    }

    private final Scope scope;
    private final EngineFunctions functions;
    private final SqlDialect dialect;
    /** The catalog's DATE columns by lower-case name. */
    private final Set<String> dateColumns;

    EngineExpressions(Scope scope, EngineFunctions functions, SqlDialect dialect, Set<String> dateColumns) {
        this.scope = scope;
        this.functions = functions;
        this.dialect = dialect;
        this.dateColumns = dateColumns;
    }

    /** ORDER BY items; DuckDB puts NULLs last whatever the direction, so that is said explicitly. */
    List<SqlNode> orders(JsonNode orders) throws QueryException {
        List<SqlNode> out = new ArrayList<>();
        for (JsonNode o : orders) {
            SqlNode e = expr(o.path("expression"));
            if ("DESCENDING".equals(o.path("type").asText())) {
                e = SqlStdOperatorTable.DESC.createCall(P, e);
            }
            boolean first = "NULLS_FIRST".equals(o.path("null_order").asText().replace(' ', '_'));
            out.add((first ? SqlStdOperatorTable.NULLS_FIRST : SqlStdOperatorTable.NULLS_LAST).createCall(P, e));
        }
        return out;
    }


    SqlNode optional(JsonNode e) throws QueryException {
        return e.isNull() || e.isMissingNode() ? null : expr(e);
    }

    List<SqlNode> exprs(JsonNode list) throws QueryException {
        List<SqlNode> out = new ArrayList<>();
        for (JsonNode e : list) {
            out.add(expr(e));
        }
        return out;
    }

    SqlNode aliased(SqlNode e, String alias) {
        return alias.isEmpty() ? e : SqlStdOperatorTable.AS.createCall(P, e, scope.ident(List.of(alias)));
    }

    SqlNode expr(JsonNode e) throws QueryException {
        return switch (e.path("class").asText()) {
            case "COLUMN_REF" -> scope.ident(texts(e.path("column_names")));
            case "CONSTANT" -> constant(e.path("value"));
            case "STAR" -> star(e);
            case "CAST" -> cast(e);
            case "FUNCTION" -> e.path("is_operator").asBoolean(false) ? operator(e) : function(e);
            case "COMPARISON" -> comparison(e);
            case "CONJUNCTION" -> conjunction(e);
            case "OPERATOR" -> operatorNode(e);
            case "CASE" -> caseExpr(e);
            // written out: Calcite's BETWEEN prints "BETWEEN ASYMMETRIC", which Spark SQL does not parse
            case "BETWEEN" -> EngineSqlText.of("({0} BETWEEN {1} AND {2})", expr(e.path("input")), expr(e.path("lower")),
                    expr(e.path("upper")));
            case "SUBQUERY" -> subquery(e);
            case "WINDOW" -> window(e);
            default -> throw unsupported("a " + e.path("class").asText().toLowerCase(Locale.ROOT) + " expression");
        };
    }

    private List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private SqlNode constant(JsonNode v) throws QueryException {
        if (v.path("is_null").asBoolean(false)) {
            return SqlLiteral.createNull(P);
        }
        JsonNode value = v.path("value");
        return switch (v.path("type").path("id").asText()) {
            case "INTEGER", "BIGINT", "HUGEINT", "SMALLINT", "TINYINT", "UBIGINT", "UINTEGER" ->
                    SqlLiteral.createExactNumeric(value.asText(), P);
            case "DECIMAL" -> SqlLiteral.createExactNumeric(new BigDecimal(new BigInteger(value.asText()),
                    v.path("type").path("type_info").path("scale").asInt()).toPlainString(), P);
            case "DOUBLE", "FLOAT" -> EngineSqlText.of("CAST(" + value.asText() + " AS " + functions.type("DOUBLE", 0, 0) + ")");
            case "VARCHAR" -> EngineSqlText.string(value.asText(), dialect == SqlDialect.SPARK);
            case "BOOLEAN" -> SqlLiteral.createBoolean(value.asBoolean(), P);
            default -> throw unsupported("a constant of type " + v.path("type").path("id").asText());
        };
    }

    private SqlNode star(JsonNode e) throws QueryException {
        if (!e.path("exclude_list").isEmpty() || !e.path("replace_list").isEmpty() || e.path("columns").asBoolean(false)
                || !e.path("qualified_exclude_list").isEmpty() || !e.path("rename_list").isEmpty()) {
            throw unsupported("* EXCLUDE, REPLACE, RENAME or COLUMNS(…)");
        }
        String relation = e.path("relation_name").asText("");
        return relation.isEmpty() ? SqlIdentifier.star(P)
                : SqlIdentifier.star(List.of(scope.name(relation), ""), P, List.of(P, P));
    }

    private SqlNode cast(JsonNode e) throws QueryException {
        JsonNode type = e.path("cast_type");
        String id = type.path("id").asText();
        JsonNode child = e.path("child");
        if (id.equals("BOOLEAN") && "CONSTANT".equals(child.path("class").asText())
                && child.path("value").path("value").isTextual()) { // TRUE and FALSE parse as CAST('t' AS BOOLEAN)
            return SqlLiteral.createBoolean(child.path("value").path("value").asText().equals("t"), P);
        }
        if (id.equals("INTEGER") && "trunc".equals(child.path("function_name").asText())) { // INTERVAL 3 MONTH's count
            return expr(child.path("children").get(0).path("child"));
        }
        int width = type.path("type_info").path("width").asInt(18);
        int scale = type.path("type_info").path("scale").asInt(3);
        if (e.path("try_cast").asBoolean(false)) {
            return functions.tryCast(expr(child), id, width, scale);
        }
        if ((id.equals("DATE") || id.equals("TIMESTAMP")) && "CONSTANT".equals(child.path("class").asText())) {
            return EngineSqlText.of(id + " " + "'" + child.path("value").path("value").asText().replace("'", "''") + "'");
        }
        return functions.cast(expr(child), id, width, scale);
    }

    private SqlNode operator(JsonNode e) throws QueryException {
        String op = e.path("function_name").asText();
        List<SqlNode> args = exprs(e.path("children"));
        if (args.size() == 1 && op.equals("-")) {
            return SqlStdOperatorTable.UNARY_MINUS.createCall(P, args.get(0));
        }
        if (args.size() != 2) {
            throw unsupported("the operator " + op);
        }
        SqlOperator calcite = switch (op) {
            case "+" -> SqlStdOperatorTable.PLUS;
            case "-" -> SqlStdOperatorTable.MINUS;
            case "*" -> SqlStdOperatorTable.MULTIPLY;
            case "%" -> SqlStdOperatorTable.PERCENT_REMAINDER;
            case "||" -> SqlStdOperatorTable.CONCAT;
            case "~~" -> SqlStdOperatorTable.LIKE;
            case "!~~" -> SqlStdOperatorTable.NOT_LIKE;
            case "~~*" -> SqlLibraryOperators.ILIKE;
            case "!~~*" -> SqlLibraryOperators.NOT_ILIKE;
            default -> null;
        };
        if (op.equals("/")) {
            return functions.divide(args.get(0), args.get(1));
        }
        if (calcite == null) {
            throw unsupported("the operator " + op);
        }
        return calcite.createCall(P, args.get(0), args.get(1));
    }

    private SqlNode function(JsonNode e) throws QueryException {
        String name = e.path("function_name").asText();
        if (name.startsWith("to_") && List.of("to_years", "to_months", "to_days", "to_hours", "to_minutes",
                "to_seconds").contains(name) && e.path("children").size() == 1) { // INTERVAL 3 MONTH
            String unit = name.substring(3, name.length() - 1).toUpperCase(Locale.ROOT);
            return EngineSqlText.of("(INTERVAL '1' " + unit + " * {0})", expr(e.path("children").get(0)));
        }
        if (!e.path("order_bys").path("orders").isEmpty()) {
            throw unsupported("ORDER BY inside " + name + "(…)");
        }
        if (!e.path("schema").asText("").isEmpty()) {
            throw unsupported("the function " + e.path("schema").asText() + "." + name);
        }
        List<EngineFunctions.Arg> args = new ArrayList<>();
        for (JsonNode c : e.path("children")) {
            args.add(new EngineFunctions.Arg(expr(c), constantText(c), isDate(c)));
        }
        return functions.call(name, args, e.path("distinct").asBoolean(false), optional(e.path("filter")));
    }

    private String constantText(JsonNode e) {
        return "CONSTANT".equals(e.path("class").asText()) && !e.path("value").path("is_null").asBoolean(false)
                ? e.path("value").path("value").asText() : null;
    }

    /** A DATE column of the catalog (not only as declared: the engine's type) or a date literal. */
    private boolean isDate(JsonNode e) {
        if ("CAST".equals(e.path("class").asText())) {
            return "DATE".equals(e.path("cast_type").path("id").asText());
        }
        if ("COLUMN_REF".equals(e.path("class").asText())) {
            List<String> parts = texts(e.path("column_names"));
            return dateColumns.contains(parts.get(parts.size() - 1).toLowerCase(Locale.ROOT));
        }
        return false;
    }

    private SqlNode comparison(JsonNode e) throws QueryException {
        SqlOperator op = switch (e.path("type").asText()) {
            case "COMPARE_EQUAL" -> SqlStdOperatorTable.EQUALS;
            case "COMPARE_NOTEQUAL" -> SqlStdOperatorTable.NOT_EQUALS;
            case "COMPARE_LESSTHAN" -> SqlStdOperatorTable.LESS_THAN;
            case "COMPARE_GREATERTHAN" -> SqlStdOperatorTable.GREATER_THAN;
            case "COMPARE_LESSTHANOREQUALTO" -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case "COMPARE_GREATERTHANOREQUALTO" -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
            case "COMPARE_DISTINCT_FROM" -> SqlStdOperatorTable.IS_DISTINCT_FROM;
            case "COMPARE_NOT_DISTINCT_FROM" -> SqlStdOperatorTable.IS_NOT_DISTINCT_FROM;
            default -> throw unsupported("the comparison " + e.path("type").asText());
        };
        return op.createCall(P, expr(e.path("left")), expr(e.path("right")));
    }

    private SqlNode conjunction(JsonNode e) throws QueryException {
        SqlOperator op = "CONJUNCTION_OR".equals(e.path("type").asText()) ? SqlStdOperatorTable.OR : SqlStdOperatorTable.AND;
        List<SqlNode> parts = exprs(e.path("children"));
        SqlNode out = parts.get(0);
        for (int i = 1; i < parts.size(); i++) {
            out = op.createCall(P, out, parts.get(i));
        }
        return out;
    }

    private SqlNode operatorNode(JsonNode e) throws QueryException {
        List<SqlNode> args = exprs(e.path("children"));
        return switch (e.path("type").asText()) {
            case "OPERATOR_NOT" -> SqlStdOperatorTable.NOT.createCall(P, args.get(0));
            case "OPERATOR_IS_NULL" -> SqlStdOperatorTable.IS_NULL.createCall(P, args.get(0));
            case "OPERATOR_IS_NOT_NULL" -> SqlStdOperatorTable.IS_NOT_NULL.createCall(P, args.get(0));
            case "OPERATOR_COALESCE" -> SqlStdOperatorTable.COALESCE.createCall(P, args);
            case "COMPARE_IN", "COMPARE_NOT_IN" -> ("COMPARE_IN".equals(e.path("type").asText())
                    ? SqlStdOperatorTable.IN : SqlStdOperatorTable.NOT_IN).createCall(P, args.get(0),
                    EngineFunctions.list(args.subList(1, args.size())));
            default -> throw unsupported("the operator " + e.path("type").asText());
        };
    }

    private SqlNode caseExpr(JsonNode e) throws QueryException {
        List<SqlNode> whens = new ArrayList<>();
        List<SqlNode> thens = new ArrayList<>();
        for (JsonNode check : e.path("case_checks")) {
            whens.add(expr(check.path("when_expr")));
            thens.add(expr(check.path("then_expr")));
        }
        return new SqlCase(P, null, EngineFunctions.list(whens), EngineFunctions.list(thens), optional(e.path("else_expr")));
    }

    private SqlNode subquery(JsonNode e) throws QueryException {
        SqlNode q = scope.query(e.path("subquery").path("node"));
        return switch (e.path("subquery_type").asText()) {
            case "SCALAR" -> q;
            case "EXISTS" -> SqlStdOperatorTable.EXISTS.createCall(P, q);
            case "NOT_EXISTS" -> SqlStdOperatorTable.NOT.createCall(P, SqlStdOperatorTable.EXISTS.createCall(P, q));
            case "ANY" -> {
                if (!"COMPARE_EQUAL".equals(e.path("comparison_type").asText())) {
                    throw unsupported("ANY with " + e.path("comparison_type").asText());
                }
                yield SqlStdOperatorTable.IN.createCall(P, expr(e.path("child")), q);
            }
            default -> throw unsupported(e.path("subquery_type").asText() + " subquery");
        };
    }

    private SqlNode window(JsonNode e) throws QueryException {
        boolean defaultFrame = "UNBOUNDED_PRECEDING".equals(e.path("start").asText())
                && "CURRENT_ROW_RANGE".equals(e.path("end").asText());
        if (!defaultFrame || e.path("ignore_nulls").asBoolean(false) || !e.path("filter_expr").isNull()
                || !e.path("arg_orders").isEmpty()) {
            throw unsupported("a window frame, IGNORE NULLS or FILTER in a window");
        }
        String name = e.path("function_name").asText();
        SqlNode call = switch (e.path("type").asText()) {
            case "WINDOW_ROW_NUMBER" -> SqlStdOperatorTable.ROW_NUMBER.createCall(P);
            case "WINDOW_RANK" -> SqlStdOperatorTable.RANK.createCall(P);
            case "WINDOW_RANK_DENSE" -> SqlStdOperatorTable.DENSE_RANK.createCall(P);
            case "WINDOW_AGGREGATE" -> {
                List<EngineFunctions.Arg> args = new ArrayList<>();
                for (JsonNode c : e.path("children")) {
                    args.add(new EngineFunctions.Arg(expr(c), constantText(c), isDate(c)));
                }
                yield functions.call(name, args, e.path("distinct").asBoolean(false), null);
            }
            default -> throw unsupported("the window function " + name);
        };
        SqlWindow w = new SqlWindow(P, null, null, EngineFunctions.list(exprs(e.path("partitions"))),
                EngineFunctions.list(orders(e.path("orders"))), SqlLiteral.createBoolean(false, P), null, null, null);
        return SqlStdOperatorTable.OVER.createCall(P, call, w);
    }

    private QueryException unsupported(String construct) {
        return functions.unsupported(construct);
    }
}
