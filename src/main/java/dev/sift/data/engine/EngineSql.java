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
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.SqlWriterConfig;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.dialect.SparkSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

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
 * engine's form (the clauses here, the expressions in {@link EngineExpressions}). Orderings state DuckDB's NULLS LAST,
 * which both engines order otherwise by default. Whatever has no form with the same meaning on the engine (QUALIFY,
 * lists, lambdas, a function not in the catalogue) is refused with an error naming it, so the engine never gets SQL
 * that means something else.
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
    private final class Build implements EngineExpressions.Scope {
        private final JsonNode root;
        private final Map<String, String> declared = new HashMap<>();

        private final EngineExpressions ex;

        Build(JsonNode root) {
            this.root = root;
            declare(root);
            this.ex = new EngineExpressions(this, functions, dialect, dateColumns);
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
        @Override
        public String name(String written) {
            String lower = written.toLowerCase(Locale.ROOT);
            return catalog.getOrDefault(lower, declared.getOrDefault(lower, written));
        }

        @Override
        public SqlIdentifier ident(List<String> parts) {
            return new SqlIdentifier(parts.stream().map(this::name).toList(), P);
        }

        // ---- queries ----

        @Override
        public SqlNode query(JsonNode node) throws QueryException {
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
                items.add(ex.aliased(ex.expr(e), e.path("alias").asText("")));
            }
            SqlNodeList groupBy = null;
            if (!node.path("group_expressions").isEmpty()) {
                if (node.path("group_sets").size() > 1) {
                    throw unsupported("GROUPING SETS, ROLLUP and CUBE");
                }
                groupBy = EngineFunctions.list(ex.exprs(node.path("group_expressions")));
            }
            Modifiers m = modifiers(node.path("modifiers"));
            JsonNode from = node.path("from_table");
            return new SqlSelect(P, m.distinct ? SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(P)) : null,
                    EngineFunctions.list(items), from.isMissingNode() || from.isNull() || "EMPTY".equals(from.path("type").asText())
                    ? null : table(from), ex.optional(node.path("where_clause")), groupBy, ex.optional(node.path("having")),
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
                    case "ORDER_MODIFIER" -> orderBy = EngineFunctions.list(ex.orders(m.path("orders")));
                    case "LIMIT_MODIFIER" -> {
                        limit = ex.optional(m.path("limit"));
                        offset = ex.optional(m.path("offset"));
                    }
                    default -> throw unsupported(m.path("type").asText().toLowerCase(Locale.ROOT).replace('_', ' '));
                }
            }
            return new Modifiers(distinct, orderBy, limit, offset);
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
                    JoinConditionType.ON.symbol(P), ex.expr(ref.path("condition")));
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
