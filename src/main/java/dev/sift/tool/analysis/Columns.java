package dev.sift.tool.analysis;

import dev.sift.data.Numbers;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Column kinds by DuckDB type and name, shared by the analysis tools. */
final class Columns {
    private Columns() { }

    static boolean numeric(ColumnInfo c) {
        String t = c.type().toUpperCase(Locale.ROOT);
        return t.matches("(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))|FLOAT|DOUBLE|REAL|DECIMAL.*");
    }

    static boolean temporal(ColumnInfo c) {
        String t = c.type().toUpperCase(Locale.ROOT);
        return t.equals("DATE") || t.startsWith("TIMESTAMP");
    }

    static boolean text(ColumnInfo c) {
        return c.type().equalsIgnoreCase("VARCHAR");
    }

    /** Named like an identifier ({@code id}, {@code *_id}): a key, not a quantity to correlate or sum. */
    static boolean idLike(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("id") || n.endsWith("_id");
    }

    static String q(String name) {
        return Sql.quoteIdent(name);
    }

    /** The declared primary-key columns of a dataset table (single-column keys only). */
    static Set<String> primaryKeys(Workspace ws, TableInfo t) throws QueryException {
        Set<String> out = new HashSet<>();
        if (t.kind() != TableInfo.Kind.TABLE) {
            return out;
        }
        var r = ws.trustedQuery("SELECT constraint_column_names[1] FROM duckdb_constraints() WHERE database_name = 'data'"
                + " AND schema_name = 'main' AND constraint_type = 'PRIMARY KEY' AND len(constraint_column_names) = 1"
                + " AND table_name = " + Sql.quoteString(t.name()), 100);
        for (List<Object> row : r.rows()) {
            out.add(String.valueOf(row.get(0)).toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** The column that identifies rows: the declared key, else {@code <table>_id}, else {@code id}; null if none. */
    static String key(Workspace ws, TableInfo t) throws QueryException {
        for (String pk : primaryKeys(ws, t)) {
            return t.column(pk).map(ColumnInfo::name).orElse(null);
        }
        for (String candidate : List.of(t.name() + "_id", "id")) {
            if (t.column(candidate).isPresent()) {
                return t.column(candidate).get().name();
            }
        }
        return null;
    }

    /** A number for summaries, written as for people ({@link Numbers#number(double)}). */
    static String num(double d) {
        return Numbers.number(d);
    }

    /** A share as a percentage ({@link Numbers#percent}). */
    static String pct(double share) {
        return Numbers.percent(share);
    }

    static double toDouble(Object o) {
        return o == null ? Double.NaN : ((Number) o).doubleValue();
    }
}
