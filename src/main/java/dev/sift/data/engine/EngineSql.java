package dev.sift.data.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.SqlWriterConfig;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.dialect.SparkSqlDialect;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sift's own SQL, written once in DuckDB's dialect, as an engine runs it. DuckDB's parser reads it (its
 * {@code json_serialize_sql} tree: the reference parse of the one language Sift writes); the tree is rebuilt as
 * Calcite's {@code SqlNode} tree with DuckDB's functions and types in the engine's form ({@link EngineFunctions}) and
 * every name spelt as the engine's catalog spells it (DuckDB matches names in any case; PostgreSQL folds an unquoted
 * {@code A1} to {@code a1}), and Calcite's {@code SqlDialect} prints it: every identifier quoted, clauses in the
 * engine's form. Orderings state DuckDB's NULLS LAST, which both engines order otherwise by default. Whatever has no
 * form with the same meaning on the engine (QUALIFY, lists, lambdas, a function not in the catalogue) is refused with
 * an error naming it, so the engine never gets SQL that means something else.
 */
final class EngineSql implements AutoCloseable {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final SqlParserPos P = SqlParserPos.ZERO;

    private final SqlDialect dialect;
    private final org.apache.calcite.sql.SqlDialect printer;
    private final EngineFunctions functions;
    /** Every table and column name of the catalog by its lower-case form, and the DATE columns. */
    private final Map<String, String> catalog = new HashMap<>();
    private final java.util.Set<String> dateColumns = new java.util.HashSet<>();
    /** An in-memory DuckDB whose parser reads the SQL; opened on first use. */
    private java.sql.Connection duckdb;

    EngineSql(SqlDialect dialect, List<TableInfo> tables) {
        this.dialect = dialect;
        this.printer = dialect == SqlDialect.SPARK ? SparkSqlDialect.DEFAULT : PostgresqlSqlDialect.DEFAULT;
        this.functions = new EngineFunctions(dialect);
        for (TableInfo t : tables) {
            catalog.putIfAbsent(t.name().toLowerCase(Locale.ROOT), t.name());
            for (ColumnInfo c : t.columns()) {
                catalog.putIfAbsent(c.name().toLowerCase(Locale.ROOT), c.name());
                if (c.type().equalsIgnoreCase("DATE")) {
                    dateColumns.add(c.name().toLowerCase(Locale.ROOT));
                }
            }
        }
    }

    /** The engine's SQL for one DuckDB query. */
    String render(String duckdbSql) throws QueryException {
        JsonNode parse;
        try {
            if (duckdb == null) {
                duckdb = java.sql.DriverManager.getConnection("jdbc:duckdb:");
            }
            try (java.sql.PreparedStatement ps = duckdb.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
                ps.setString(1, duckdbSql);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    parse = JSON.readTree(rs.getString(1));
                }
            }
        } catch (java.sql.SQLException | java.io.IOException e) {
            throw new IllegalStateException("DuckDB's parser could not be asked about a query", e);
        }
        return render(parse);
    }

    /** The engine's SQL for DuckDB's parse ({@code json_serialize_sql}) of one query. */
    String render(JsonNode parse) throws QueryException {
        if (parse.path("error").asBoolean(false)) {
            throw new QueryException(QueryException.Kind.INVALID, "Not a DuckDB query: "
                    + parse.path("error_message").asText() + ".");
        }
        if (parse.path("statements").size() != 1) {
            throw new QueryException(QueryException.Kind.INVALID, "Send exactly one query.");
        }
        return new Build(parse.path("statements").get(0).path("node")).sql();
    }

    /** One rendering: the names declared in the query (aliases, CTEs) spelt as first written. */
    private final class Build {
        private final JsonNode root;
        private final Map<String, String> declared = new HashMap<>();

        Build(JsonNode root) {
            this.root = root;
            declare(root);
        }

        String sql() throws QueryException {
            SqlWriterConfig.LineFolding wide = SqlWriterConfig.LineFolding.WIDE;
            return query(root).toSqlString(c -> c.withDialect(printer).withAlwaysUseParentheses(false)
                    .withSelectListItemsOnSeparateLines(false).withIndentation(0).withClauseStartsLine(false)
                    .withClauseEndsLine(false).withLineFolding(wide).withSelectFolding(wide).withFromFolding(wide)
                    .withWhereFolding(wide).withGroupByFolding(wide).withHavingFolding(wide).withOrderByFolding(wide)
                    .withOverFolding(wide).withWindowFolding(wide).withLineLength(Integer.MAX_VALUE)
                    .withCaseClausesOnNewLines(false).withWindowNewline(false)
                    .withSubQueryStyle(org.apache.calcite.sql.SqlWriter.SubQueryStyle.BLACK)).getSql();
        }

        private void declare(JsonNode node) {
            if (node.isObject()) {
                String alias = node.path("alias").asText("");
                if (!alias.isEmpty()) {
                    declared.putIfAbsent(alias.toLowerCase(Locale.ROOT), alias);
                }
                node.path("cte_map").path("map").forEach(e -> declared.putIfAbsent(e.path("key").asText()
                        .toLowerCase(Locale.ROOT), e.path("key").asText()));
                node.path("column_name_alias").forEach(a -> declared.putIfAbsent(a.asText().toLowerCase(Locale.ROOT), a.asText()));
                node.fields().forEachRemaining(f -> declare(f.getValue()));
            } else if (node.isArray()) {
                node.forEach(this::declare);
            }
        }

        /** A name as the engine knows it: the catalog's spelling, else the query's first spelling. */
        private String name(String written) {
            String lower = written.toLowerCase(Locale.ROOT);
            return catalog.getOrDefault(lower, declared.getOrDefault(lower, written));
        }

        private SqlIdentifier ident(List<String> parts) {
            return new SqlIdentifier(parts.stream().map(this::name).toList(), P);
        }

        // ---- queries ----

        private SqlNode query(JsonNode node) throws QueryException {
            SqlNode body = switch (node.path("type").asText()) {
                case "SELECT_NODE" -> select(node);
                case "SET_OPERATION_NODE" -> setOperation(node);
                default -> throw unsupported(node.path("type").asText().toLowerCase(Locale.ROOT).replace('_', ' '));
            };
            JsonNode ctes = node.path("cte_map").path("map");
            if (ctes.isEmpty()) {
                return body;
            }
            List<SqlNode> items = new ArrayList<>();
            for (JsonNode cte : ctes) {
                List<SqlNode> columns = new ArrayList<>();
                for (JsonNode a : cte.path("value").path("aliases")) {
                    columns.add(ident(List.of(a.asText())));
                }
                items.add(new SqlWithItem(P, ident(List.of(cte.path("key").asText())),
                        columns.isEmpty() ? null : EngineFunctions.list(columns), query(cte.path("value").path("query").path("node"))));
            }
            return new SqlWith(P, EngineFunctions.list(items), body);
        }

        private SqlNode select(JsonNode node) throws QueryException {
            for (String clause : List.of("qualify", "sample")) {
                if (!node.path(clause).isNull() && !node.path(clause).isMissingNode()) {
                    throw unsupported(clause.equals("sample") ? "USING SAMPLE" : "QUALIFY");
                }
            }
            if (!"STANDARD_HANDLING".equals(node.path("aggregate_handling").asText("STANDARD_HANDLING"))) {
                throw unsupported("GROUP BY ALL");
            }
            List<SqlNode> items = new ArrayList<>();
            for (JsonNode e : node.path("select_list")) {
                items.add(aliased(expr(e), e.path("alias").asText("")));
            }
            SqlNodeList groupBy = null;
            if (!node.path("group_expressions").isEmpty()) {
                if (node.path("group_sets").size() > 1) {
                    throw unsupported("GROUPING SETS, ROLLUP and CUBE");
                }
                groupBy = EngineFunctions.list(exprs(node.path("group_expressions")));
            }
            Modifiers m = modifiers(node.path("modifiers"));
            JsonNode from = node.path("from_table");
            return new SqlSelect(P, m.distinct ? SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(P)) : null,
                    EngineFunctions.list(items), from.isMissingNode() || from.isNull() || "EMPTY".equals(from.path("type").asText())
                    ? null : table(from), optional(node.path("where_clause")), groupBy, optional(node.path("having")),
                    null, null, m.orderBy, m.offset, m.limit, null);
        }

        private SqlNode setOperation(JsonNode node) throws QueryException {
            String type = node.path("setop_type").asText();
            boolean all = node.path("setop_all").asBoolean(false);
            SqlOperator op = switch (type) {
                case "UNION" -> all ? SqlStdOperatorTable.UNION_ALL : SqlStdOperatorTable.UNION;
                case "EXCEPT" -> all ? SqlStdOperatorTable.EXCEPT_ALL : SqlStdOperatorTable.EXCEPT;
                case "INTERSECT" -> all ? SqlStdOperatorTable.INTERSECT_ALL : SqlStdOperatorTable.INTERSECT;
                default -> throw unsupported(type.replace('_', ' '));
            };
            List<JsonNode> parts = new ArrayList<>();
            node.path("children").forEach(parts::add);
            if (parts.isEmpty()) {
                parts.add(node.path("left"));
                parts.add(node.path("right"));
            }
            SqlNode out = query(parts.get(0));
            for (int i = 1; i < parts.size(); i++) {
                out = op.createCall(P, out, query(parts.get(i)));
            }
            Modifiers m = modifiers(node.path("modifiers"));
            if (m.distinct) {
                throw unsupported("DISTINCT over a set operation");
            }
            return m.orderBy == null && m.limit == null && m.offset == null ? out
                    : new SqlOrderBy(P, out, m.orderBy == null ? SqlNodeList.EMPTY : m.orderBy, m.offset, m.limit);
        }

        private record Modifiers(boolean distinct, SqlNodeList orderBy, SqlNode limit, SqlNode offset) { }

        private Modifiers modifiers(JsonNode mods) throws QueryException {
            boolean distinct = false;
            SqlNodeList orderBy = null;
            SqlNode limit = null;
            SqlNode offset = null;
            for (JsonNode m : mods) {
                switch (m.path("type").asText()) {
                    case "DISTINCT_MODIFIER" -> {
                        if (!m.path("distinct_on_targets").isEmpty()) {
                            throw unsupported("DISTINCT ON");
                        }
                        distinct = true;
                    }
                    case "ORDER_MODIFIER" -> orderBy = EngineFunctions.list(orders(m.path("orders")));
                    case "LIMIT_MODIFIER" -> {
                        limit = optional(m.path("limit"));
                        offset = optional(m.path("offset"));
                    }
                    default -> throw unsupported(m.path("type").asText().toLowerCase(Locale.ROOT).replace('_', ' '));
                }
            }
            return new Modifiers(distinct, orderBy, limit, offset);
        }

        /** ORDER BY items; DuckDB puts NULLs last whatever the direction, so that is said explicitly. */
        private List<SqlNode> orders(JsonNode orders) throws QueryException {
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

        // ---- FROM ----

        private SqlNode table(JsonNode ref) throws QueryException {
            SqlNode t = switch (ref.path("type").asText()) {
                case "BASE_TABLE" -> {
                    if (!ref.path("catalog_name").asText("").isEmpty()) {
                        throw unsupported("a table of another catalog (" + ref.path("catalog_name").asText() + ")");
                    }
                    String schema = ref.path("schema_name").asText("");
                    yield ident(schema.isEmpty() ? List.of(ref.path("table_name").asText())
                            : List.of(schema, ref.path("table_name").asText()));
                }
                case "SUBQUERY" -> query(ref.path("subquery").path("node"));
                case "JOIN" -> join(ref);
                default -> throw unsupported(ref.path("type").asText().toLowerCase(Locale.ROOT).replace('_', ' ')
                        + " in FROM");
            };
            String alias = ref.path("alias").asText("");
            List<SqlNode> columns = new ArrayList<>();
            for (JsonNode c : ref.path("column_name_alias")) {
                columns.add(ident(List.of(c.asText())));
            }
            if (alias.isEmpty()) {
                if (!columns.isEmpty()) {
                    throw unsupported("column aliases without a table alias");
                }
                return t;
            }
            List<SqlNode> operands = new ArrayList<>(List.of(t, ident(List.of(alias))));
            operands.addAll(columns);
            return SqlStdOperatorTable.AS.createCall(P, operands);
        }

        private SqlNode join(JsonNode ref) throws QueryException {
            String refType = ref.path("ref_type").asText("REGULAR");
            SqlNode left = table(ref.path("left"));
            SqlNode right = table(ref.path("right"));
            if (refType.equals("CROSS")) {
                return new SqlJoin(P, left, SqlLiteral.createBoolean(false, P), JoinType.CROSS.symbol(P), right,
                        JoinConditionType.NONE.symbol(P), null);
            }
            if (!refType.equals("REGULAR")) {
                throw unsupported(refType + " JOIN");
            }
            JoinType type = switch (ref.path("join_type").asText()) {
                case "INNER" -> JoinType.INNER;
                case "LEFT" -> JoinType.LEFT;
                case "RIGHT" -> JoinType.RIGHT;
                case "OUTER" -> JoinType.FULL;
                default -> throw unsupported(ref.path("join_type").asText() + " JOIN");
            };
            if (!ref.path("using_columns").isEmpty()) {
                List<SqlNode> using = new ArrayList<>();
                for (JsonNode c : ref.path("using_columns")) {
                    using.add(ident(List.of(c.asText())));
                }
                return new SqlJoin(P, left, SqlLiteral.createBoolean(false, P), type.symbol(P), right,
                        JoinConditionType.USING.symbol(P), EngineFunctions.list(using));
            }
            return new SqlJoin(P, left, SqlLiteral.createBoolean(false, P), type.symbol(P), right,
                    JoinConditionType.ON.symbol(P), expr(ref.path("condition")));
        }

        // ---- expressions ----

        private SqlNode optional(JsonNode e) throws QueryException {
            return e.isNull() || e.isMissingNode() ? null : expr(e);
        }

        private List<SqlNode> exprs(JsonNode list) throws QueryException {
            List<SqlNode> out = new ArrayList<>();
            for (JsonNode e : list) {
                out.add(expr(e));
            }
            return out;
        }

        private SqlNode aliased(SqlNode e, String alias) {
            return alias.isEmpty() ? e : SqlStdOperatorTable.AS.createCall(P, e, ident(List.of(alias)));
        }

        private SqlNode expr(JsonNode e) throws QueryException {
            return switch (e.path("class").asText()) {
                case "COLUMN_REF" -> ident(texts(e.path("column_names")));
                case "CONSTANT" -> constant(e.path("value"));
                case "STAR" -> star(e);
                case "CAST" -> cast(e);
                case "FUNCTION" -> e.path("is_operator").asBoolean(false) ? operator(e) : function(e);
                case "COMPARISON" -> comparison(e);
                case "CONJUNCTION" -> conjunction(e);
                case "OPERATOR" -> operatorNode(e);
                case "CASE" -> caseExpr(e);
                case "BETWEEN" -> SqlStdOperatorTable.BETWEEN.createCall(P, expr(e.path("input")), expr(e.path("lower")),
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
                    : SqlIdentifier.star(List.of(name(relation), ""), P, List.of(P, P));
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
            SqlNode q = query(e.path("subquery").path("node"));
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

    @Override
    public void close() {
        if (duckdb != null) {
            try {
                duckdb.close();
            } catch (java.sql.SQLException ignored) {
                // an in-memory parser holds nothing
            }
            duckdb = null;
        }
    }
}
