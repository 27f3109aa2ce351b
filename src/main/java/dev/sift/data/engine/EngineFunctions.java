package dev.sift.data.engine;

import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's functions and types as PostgreSQL and Spark SQL write them, with DuckDB's meaning: a call the engines
 * share passes as it is; one they spell or mean differently gets the engine's form (PostgreSQL's {@code
 * percentile_cont(0.5) WITHIN GROUP} for {@code median}, DuckDB's whole-unit rule of {@code date_sub} written out,
 * {@code regexp_extract}'s empty string when nothing matches); anything else is refused naming the function, so no
 * engine is sent SQL that would mean something else there.
 */
final class EngineFunctions {
    private static final SqlParserPos P = SqlParserPos.ZERO;
    /** Aggregates and scalars with the same name, arguments and result on DuckDB, PostgreSQL and Spark SQL. */
    private static final Set<String> SHARED = Set.of("count", "sum", "min", "max", "avg", "stddev", "stddev_samp",
            "stddev_pop", "variance", "var_samp", "var_pop", "corr", "covar_samp", "covar_pop", "bool_and", "bool_or",
            "nullif", "abs", "lower", "upper", "length", "concat", "concat_ws", "replace", "greatest", "least", "sqrt",
            "ln", "exp", "floor", "ceil", "ceiling", "sign", "power", "left", "right", "substring");
    private static final Set<String> PARTS = Set.of("year", "quarter", "month", "day", "hour", "minute");

    private final SqlDialect dialect;

    EngineFunctions(SqlDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * An argument: the engine's node, the text of a constant argument (a unit such as {@code 'year'}, a group number)
     * or null, and whether it is a date (a DATE column or a date literal).
     */
    record Arg(SqlNode node, String constant, boolean date) { }

    /** One call of DuckDB function {@code name}; {@code filter} (or null) is its FILTER condition. */
    SqlNode call(String name, List<Arg> in, boolean distinct, SqlNode filter) throws QueryException {
        String n = name.toLowerCase(Locale.ROOT);
        List<SqlNode> args = in.stream().map(Arg::node).toList();
        String unit = in.isEmpty() || in.get(0).constant() == null ? ""
                : in.get(0).constant().toLowerCase(Locale.ROOT).replaceFirst("s$", "");
        SqlNode out = switch (n) {
            case "count_star" -> SqlStdOperatorTable.COUNT.createCall(P, org.apache.calcite.sql.SqlIdentifier.star(P));
            case "stddev", "stddev_samp", "variance", "var_samp", "sum", "avg", "min", "max", "count", "corr",
                 "stddev_pop", "var_pop", "covar_samp", "covar_pop", "bool_and", "bool_or" -> fn(n, distinct, args);
            case "median" -> quantile(args.get(0), EngineSqlText.of("0.5"));
            case "quantile_cont" -> args.size() == 2 ? quantile(args.get(0), args.get(1)) : null;
            case "arg_max", "arg_min", "max_by", "min_by" -> argExtreme(n.startsWith("arg_max") || n.equals("max_by"),
                    args, filter);
            case "string_agg" -> stringAgg(args);
            case "round" -> round(args);
            case "pow" -> fn("power", false, args);
            case "ifnull" -> SqlStdOperatorTable.COALESCE.createCall(P, args);
            case "ltrim", "rtrim" -> args.size() == 1 ? fn(n, false, args) : SqlStdOperatorTable.TRIM.createCall(P,
                    (n.equals("ltrim") ? SqlTrimFunction.Flag.LEADING : SqlTrimFunction.Flag.TRAILING).symbol(P),
                    args.get(1), args.get(0));
            case "trim" -> args.size() == 1 ? fn(n, false, args) : SqlStdOperatorTable.TRIM.createCall(P,
                    SqlTrimFunction.Flag.BOTH.symbol(P), args.get(1), args.get(0));
            case "year", "quarter", "month", "day", "hour", "minute" -> part(n, args.get(0));
            case "date_part", "datepart" -> PARTS.contains(unit) && args.size() == 2 ? part(unit, args.get(1)) : null;
            case "datediff", "date_diff" -> args.size() == 3 ? boundaries(unit, args.get(1), args.get(2)) : null;
            case "datesub", "date_sub" -> args.size() != 3 ? null : in.get(1).date() && in.get(2).date()
                    ? completeUnits(unit, args.get(1), args.get(2)) : elapsed(unit, args.get(1), args.get(2));
            case "date_trunc", "datetrunc" -> args.size() == 2 && in.get(1).date() && Set.of("year", "quarter", "month").contains(unit)
                    ? EngineSqlText.of("CAST(date_trunc('" + unit + "', {0}) AS DATE)", args.get(1)) : null;
            case "regexp_extract" -> regexpExtract(in);
            case "regexp_matches" -> args.size() == 2 ? EngineSqlText.of(dialect == SqlDialect.SPARK ? "({0} RLIKE {1})"
                    : "({0} ~ {1})", args.get(0), args.get(1)) : null;
            case "contains" -> dialect == SqlDialect.SPARK ? fn(n, false, args)
                    : EngineSqlText.of("(strpos({0}, {1}) > 0)", args.get(0), args.get(1));
            case "starts_with", "prefix" -> fn(dialect == SqlDialect.SPARK ? "startswith" : "starts_with", false, args);
            default -> SHARED.contains(n) ? fn(n, distinct, args) : null;
        };
        if (out == null) {
            throw unsupported("DuckDB's function " + name + (n.startsWith("date") || n.startsWith("regexp")
                    ? " in this form" : ""));
        }
        if (filter != null && !n.startsWith("arg_") && !n.endsWith("_by")) {
            out = SqlStdOperatorTable.FILTER.createCall(P, out, filter);
        }
        return out;
    }

    /** A type of DuckDB's CAST in the engine's spelling; refused when the engine has no equal type. */
    String type(String duckType, int width, int scale) throws QueryException {
        boolean spark = dialect == SqlDialect.SPARK;
        String name = switch (duckType) {
            case "VARCHAR" -> spark ? "STRING" : "VARCHAR";
            case "DOUBLE" -> spark ? "DOUBLE" : "DOUBLE PRECISION";
            case "FLOAT" -> spark ? "FLOAT" : "REAL";
            case "INTEGER" -> spark ? "INT" : "INTEGER";
            case "BIGINT", "SMALLINT", "BOOLEAN", "DATE", "TIMESTAMP" -> duckType;
            case "TINYINT" -> spark ? "TINYINT" : "SMALLINT";
            case "HUGEINT" -> spark ? "DECIMAL(38, 0)" : "NUMERIC(38, 0)";
            case "DECIMAL" -> (spark ? "DECIMAL(" : "NUMERIC(") + width + ", " + scale + ")";
            default -> null;
        };
        if (name == null) {
            throw unsupported("the type " + duckType);
        }
        return name;
    }

    /**
     * DuckDB's TRY_CAST to a number. Spark has try_cast; PostgreSQL casts text that has a number's form and gives NULL
     * otherwise. To DOUBLE and FLOAT, 'nan', 'inf' and 'infinity' (any case, signed) are NaN and the infinities as in
     * DuckDB; to DECIMAL and the integers they are NULL.
     */
    SqlNode tryCast(SqlNode value, String duckType, int width, int scale) throws QueryException {
        String to = type(duckType, width, scale);
        if (dialect == SqlDialect.SPARK) {
            return EngineSqlText.of("try_cast({0} AS " + to + ")", value);
        }
        String form = switch (duckType) {
            case "DOUBLE", "FLOAT", "DECIMAL", "HUGEINT" -> "^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$";
            case "INTEGER", "BIGINT", "SMALLINT", "TINYINT" -> "^\\s*[-+]?[0-9]+\\s*$";
            default -> null;
        };
        if (form == null) {
            throw unsupported("TRY_CAST to " + duckType);
        }
        String number = "CASE WHEN CAST({0} AS TEXT) ~ '" + form + "' THEN CAST(CAST({0} AS TEXT) AS " + to + ")";
        if (duckType.equals("DOUBLE") || duckType.equals("FLOAT")) { // DuckDB reads nan, inf and infinity in any case and sign
            number += " WHEN CAST({0} AS TEXT) ~* '^\\s*[-+]?nan\\s*$' THEN CAST('NaN' AS " + to + ")"
                    + " WHEN CAST({0} AS TEXT) ~* '^\\s*[+]?inf(inity)?\\s*$' THEN CAST('Infinity' AS " + to + ")"
                    + " WHEN CAST({0} AS TEXT) ~* '^\\s*-inf(inity)?\\s*$' THEN CAST('-Infinity' AS " + to + ")";
        }
        return EngineSqlText.of(number + " END", value);
    }

    /** A CAST; to an integer type a fraction rounds half away from zero as in DuckDB (Spark truncates, PostgreSQL's DOUBLE rounds to even). */
    SqlNode cast(SqlNode value, String duckType, int width, int scale) throws QueryException {
        String to = type(duckType, width, scale);
        if (Set.of("INTEGER", "BIGINT", "SMALLINT", "TINYINT").contains(duckType)) {
            return EngineSqlText.of("CAST(" + (dialect == SqlDialect.SPARK ? "round({0})" : "round(CAST({0} AS NUMERIC))")
                    + " AS " + to + ")", value);
        }
        return EngineSqlText.of("CAST({0} AS " + to + ")", value);
    }

    /** {@code a / b}: DuckDB divides as DOUBLE, PostgreSQL keeps integers integral (7 / 2 = 3). */
    SqlNode divide(SqlNode a, SqlNode b) {
        return dialect == SqlDialect.SPARK ? SqlStdOperatorTable.DIVIDE.createCall(P, a, b)
                : EngineSqlText.of("(CAST({0} AS DOUBLE PRECISION) / {1})", a, b);
    }

    private static SqlNode cast(SqlNode value, String type) {
        return EngineSqlText.of("CAST({0} AS " + type + ")", value);
    }

    private static SqlNode fn(String name, boolean distinct, List<SqlNode> args) {
        SqlFunction f = new SqlFunction(name.toUpperCase(Locale.ROOT), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null,
                OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM);
        return f.createCall(distinct ? SqlSelectKeyword.DISTINCT.symbol(P) : null, P, args.toArray(new SqlNode[0]));
    }

    private SqlNode quantile(SqlNode value, SqlNode fraction) {
        return dialect == SqlDialect.SPARK ? EngineSqlText.of("percentile({0}, {1})", value, fraction)
                : EngineSqlText.of("percentile_cont({1}) WITHIN GROUP (ORDER BY {0})", value, fraction);
    }

    /** DuckDB's arg_max: the value at the largest key, over rows where neither is NULL (ties: any of them). */
    private SqlNode argExtreme(boolean max, List<SqlNode> args, SqlNode filter) {
        SqlNode where = filter == null ? EngineSqlText.of("TRUE") : filter;
        if (dialect == SqlDialect.SPARK) {
            return EngineSqlText.of((max ? "max_by" : "min_by") + "({0}, {1}) FILTER (WHERE {0} IS NOT NULL AND {1} IS NOT NULL"
                    + " AND {2})", args.get(0), args.get(1), where);
        }
        return EngineSqlText.of("(array_agg({0} ORDER BY {1} " + (max ? "DESC" : "ASC") + ") FILTER (WHERE {0} IS NOT NULL"
                + " AND {1} IS NOT NULL AND {2}))[1]", args.get(0), args.get(1), where);
    }

    private SqlNode stringAgg(List<SqlNode> args) {
        SqlNode sep = args.size() > 1 ? args.get(1) : EngineSqlText.string(",", dialect == SqlDialect.SPARK);
        return dialect == SqlDialect.SPARK ? EngineSqlText.of("array_join(collect_list({0}), {1})", args.get(0), sep)
                : EngineSqlText.of("string_agg(CAST({0} AS TEXT), {1})", args.get(0), sep);
    }

    /** DuckDB rounds half away from zero; PostgreSQL does so only for NUMERIC (a DOUBLE rounds half to even). */
    private SqlNode round(List<SqlNode> args) {
        if (dialect == SqlDialect.SPARK) {
            return fn("round", false, args);
        }
        List<SqlNode> numeric = new ArrayList<>(args);
        numeric.set(0, cast(args.get(0), "NUMERIC"));
        return fn("round", false, numeric);
    }

    private SqlNode part(String unit, SqlNode value) {
        return dialect == SqlDialect.SPARK ? fn(unit, false, List.of(value))
                : EngineSqlText.of("CAST(EXTRACT(" + unit.toUpperCase(Locale.ROOT) + " FROM {0}) AS BIGINT)", value);
    }

    /**
     * DuckDB's date_diff: unit boundaries crossed between two moments, a BIGINT (PostgreSQL's date difference and
     * Spark's datediff are 32-bit: a day count scaled into a sort key would overflow there).
     */
    private SqlNode boundaries(String unit, SqlNode from, SqlNode to) throws QueryException {
        return switch (unit) {
            case "day" -> dialect == SqlDialect.SPARK
                    ? EngineSqlText.of("CAST(datediff(CAST({1} AS DATE), CAST({0} AS DATE)) AS BIGINT)", from, to)
                    : EngineSqlText.of("CAST(CAST({1} AS DATE) - CAST({0} AS DATE) AS BIGINT)", from, to);
            case "month" -> EngineSqlText.of("((" + ex("year", "{1}") + " - " + ex("year", "{0}") + ") * 12 + "
                    + ex("month", "{1}") + " - " + ex("month", "{0}") + ")", from, to);
            case "year" -> EngineSqlText.of("(" + ex("year", "{1}") + " - " + ex("year", "{0}") + ")", from, to);
            default -> throw unsupported("date_diff('" + unit + "', …)");
        };
    }

    /**
     * DuckDB's date_sub between two dates: whole units passed, where a month is complete when the end's day is not
     * before the start's or the end is the last day of its month (1952-02-29 to 1999-02-28 is 47 years); negative when
     * the end comes first. Written out because PostgreSQL's age() and Spark's months_between count month ends otherwise.
     */
    private SqlNode completeUnits(String unit, SqlNode from, SqlNode to) throws QueryException {
        if (unit.equals("day")) {
            return boundaries("day", from, to);
        }
        if (!unit.equals("month") && !unit.equals("year")) {
            throw unsupported("date_sub('" + unit + "', …)");
        }
        String months = "CASE WHEN {1} >= {0} THEN " + months("{0}", "{1}") + " ELSE -" + months("{1}", "{0}") + " END";
        String whole = unit.equals("year") ? (dialect == SqlDialect.SPARK ? "CAST((" + months + ") / 12 AS BIGINT)"
                : "TRUNC((" + months + ") / 12)") : months;
        return EngineSqlText.of("CAST(" + whole + " AS BIGINT)", from, to);
    }

    /**
     * DuckDB's date_sub over timestamps in a unit of fixed length (day, hour, minute, second): the whole units elapsed,
     * truncated toward zero (12:00 to 11:00 the next day is 0 days, 23 hours). Null for the calendar units.
     */
    private SqlNode elapsed(String unit, SqlNode from, SqlNode to) {
        Integer seconds = Map.of("day", 86_400, "hour", 3_600, "minute", 60, "second", 1).get(unit);
        if (seconds == null) {
            return null;
        }
        return dialect == SqlDialect.SPARK
                ? EngineSqlText.of("CAST((unix_seconds(CAST({1} AS TIMESTAMP)) - unix_seconds(CAST({0} AS TIMESTAMP))) / "
                        + seconds + " AS BIGINT)", from, to)
                : EngineSqlText.of("CAST(TRUNC(EXTRACT(EPOCH FROM (CAST({1} AS TIMESTAMP) - CAST({0} AS TIMESTAMP))) / "
                        + seconds + ") AS BIGINT)", from, to);
    }

    private String months(String start, String end) {
        String lastDay = dialect == SqlDialect.SPARK ? "last_day(" + end + ")"
                : "CAST(date_trunc('month', " + end + ") + INTERVAL '1 month' - INTERVAL '1 day' AS DATE)";
        return "((" + ex("year", end) + " - " + ex("year", start) + ") * 12 + " + ex("month", end) + " - " + ex("month", start)
                + " - CASE WHEN " + ex("day", end) + " < " + ex("day", start) + " AND " + end + " <> " + lastDay
                + " THEN 1 ELSE 0 END)";
    }

    private String ex(String unit, String value) {
        return dialect == SqlDialect.SPARK ? unit + "(" + value + ")"
                : "CAST(EXTRACT(" + unit.toUpperCase(Locale.ROOT) + " FROM " + value + ") AS BIGINT)";
    }

    /** regexp_extract gives the group's text, or '' when the pattern does not match (NULL only for NULL input). */
    private SqlNode regexpExtract(List<Arg> in) throws QueryException {
        List<SqlNode> args = in.stream().map(Arg::node).toList();
        String group = args.size() > 2 ? String.valueOf(in.get(2).constant()) : "0";
        if (args.size() < 2 || !group.matches("[0-9]+") || args.size() > 3) {
            throw unsupported("regexp_extract with a group that is not a number");
        }
        if (dialect == SqlDialect.SPARK) {
            return EngineSqlText.of("regexp_extract({0}, {1}, " + group + ")", args.get(0), args.get(1));
        }
        return EngineSqlText.of("CASE WHEN {0} IS NULL THEN NULL ELSE coalesce((regexp_match({0}, '(' || {1} || ')'))["
                + (Integer.parseInt(group) + 1) + "], '') END", args.get(0), args.get(1));
    }

    QueryException unsupported(String construct) {
        return new QueryException(QueryException.Kind.INVALID, "Cannot write this for " + dialect.label() + ": "
                + construct + " has no " + dialect.label() + " form in Sift's SQL renderer (Sift's own SQL is DuckDB's"
                + " and is rendered for the engine). Write it with functions both have.");
    }

    static SqlNodeList list(List<SqlNode> nodes) {
        return new SqlNodeList(nodes, P);
    }
}
