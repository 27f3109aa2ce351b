package dev.sift.knowledge;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;
import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Derives the automatic knowledge graph of any dataset from its data: tables with row counts, columns with
 * types and a sample, the distinct values of low-cardinality text columns, key columns (unique and never
 * null) and join paths inferred from names ({@code *_id} naming a key of the same name, or a table named
 * like the column's stem) and measured in SQL: approved when at least 99 % of the column's non-null values
 * occur in the key, with its cardinality; a candidate from 50 %; not proposed below (see {@link #inferJoins}).
 * Keys and value lists are read where the tables live ({@link Workspace#stats()}): full scans in DuckDB,
 * declared keys and bounded samples on a live engine.
 */
public final class KgBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(KgBuilder.class);
    /** A text column with at most this many distinct values has them listed. */
    public static final int MAX_VALUES = 100;
    private static final Pattern ID = Pattern.compile("(?i)(.+?)_?(id|key|code|no)$");

    private KgBuilder() { }

    /** The automatic graph of the workspace's dataset tables (frames are not part of it). */
    public static KnowledgeGraph build(Workspace ws) {
        long t0 = System.nanoTime();
        List<KgEntry> entries = new ArrayList<>();
        List<KgEntry.Column> columns = new ArrayList<>();
        Map<String, KgEntry.Column> primary = new LinkedHashMap<>();
        for (TableInfo t : ws.datasetTables()) {
            // a table of a source's schema (user_database.review) is also called by its own name
            entries.add(new KgEntry.Table(t.name(), null, t.rows(),
                    t.bareName().equals(t.name()) ? List.of() : List.of(t.bareName()), false));
            List<String> keyCols = keyColumns(ws, t);
            String pk = primaryKey(t, keyCols);
            Map<String, List<String>> values = values(ws, t);
            for (ColumnInfo c : t.columns()) {
                KgEntry.Column col = new KgEntry.Column(t.name(), c.name(), c.type(), null, null, Map.of(),
                        values.getOrDefault(c.name(), List.of()), c.sample(), keyCols.contains(c.name()), List.of(), false);
                columns.add(col);
                if (c.name().equals(pk)) {
                    primary.put(t.name(), col);
                }
            }
        }
        entries.addAll(columns);
        entries.addAll(inferJoins(ws, columns, primary));
        LOG.debug("Automatic knowledge graph of {}: {} entries in {} ms", ws.dataset().name(), entries.size(),
                (System.nanoTime() - t0) / 1_000_000);
        return new KnowledgeGraph(ws.dataset().name(), null, entries);
    }

    /** Columns that identify rows: non-null and unique, among id-like columns and the first column. */
    private static List<String> keyColumns(Workspace ws, TableInfo t) {
        List<ColumnInfo> candidates = new ArrayList<>();
        for (int i = 0; i < t.columns().size(); i++) {
            ColumnInfo c = t.columns().get(i);
            boolean idLike = ID.matcher(c.name()).matches() || c.name().equalsIgnoreCase("id");
            boolean keyType = isInteger(c.type()) || c.type().startsWith("VARCHAR");
            if (keyType && (idLike || i == 0)) {
                candidates.add(c);
            }
        }
        if (candidates.isEmpty() || t.rows() == 0) {
            return List.of();
        }
        try {
            return ws.stats().keyColumns(t, candidates);
        } catch (QueryException e) {
            LOG.warn("Could not check keys of {}: {}", t.name(), e.getMessage());
            return List.of();
        }
    }

    /** The table's own identifier among its unique columns: {@code <table>_id} or {@code id}, else the first column. */
    private static String primaryKey(TableInfo t, List<String> keys) {
        for (String k : keys) {
            String n = k.toLowerCase(Locale.ROOT);
            String table = t.name().toLowerCase(Locale.ROOT);
            if (n.equals("id") || n.equals(table + "_id") || n.equals(table + "id")) {
                return k;
            }
        }
        return !keys.isEmpty() && keys.contains(t.columns().get(0).name()) ? t.columns().get(0).name() : null;
    }

    /**
     * The distinct values of the table's low-cardinality text columns, in two scans whatever the width:
     * approximate distinct counts first, then the sorted values of the columns that may qualify.
     */
    private static Map<String, List<String>> values(Workspace ws, TableInfo t) {
        List<ColumnInfo> text = t.columns().stream().filter(c -> c.type().startsWith("VARCHAR")).toList();
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (text.isEmpty() || t.rows() == 0) {
            return out;
        }
        try {
            out.putAll(ws.stats().fewValues(t, text, MAX_VALUES));
        } catch (QueryException e) {
            LOG.warn("Could not list values of {}: {}", t.name(), e.getMessage());
        }
        return out;
    }

    /**
     * Joins from a column to the key its name points at. One is approved when the data proves it a key →
     * foreign-key pair: the key side is unique and non-null (it is a table's identifier) and at least
     * {@link #APPROVE_COVERAGE} of the column's non-null values occur in the key. With at least
     * {@link #CANDIDATE_COVERAGE} it stays a candidate (listed for people to approve, never followed by a
     * planner). Two joins between the same pair of tables both stay candidates: which one a question means is
     * for the user to say.
     */
    private static List<KgEntry.Join> inferJoins(Workspace ws, List<KgEntry.Column> columns,
                                                 Map<String, KgEntry.Column> primary) {
        List<KgEntry.Join> joins = new ArrayList<>();
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (TableStats.ForeignKey fk : ws.stats().foreignKeys()) {
            boolean known = columns.stream().anyMatch(c -> c.table().equals(fk.table()) && c.name().equals(fk.column()))
                    && columns.stream().anyMatch(c -> c.table().equals(fk.keyTable()) && c.name().equals(fk.keyColumn()));
            if (known && declared.add(fk.table() + "." + fk.column())) {
                joins.add(new KgEntry.Join(fk.table() + "_" + fk.column(), fk.table(), fk.column(), fk.keyTable(),
                        fk.keyColumn(), null, List.of(), false, true, KgEntry.Join.MANY_TO_ONE, 1.0));
            }
        }
        for (KgEntry.Column c : columns) {
            if (declared.contains(c.table() + "." + c.name())) {
                continue; // the engine declares where it points
            }
            if (primary.get(c.table()) == c) {
                continue; // a table's own identifier refers to nothing else
            }
            KgEntry.Column target = target(c, primary);
            if (target == null) {
                continue;
            }
            double[] m = containment(ws, c, target);
            if (m != null && m[0] >= CANDIDATE_COVERAGE) {
                String card = m[1] > 0 ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE;
                joins.add(new KgEntry.Join(c.table() + "_" + c.name(), c.table(), c.name(), target.table(),
                        target.name(), null, List.of(), false, m[0] >= APPROVE_COVERAGE, card, m[0]));
            }
        }
        List<KgEntry.Join> out = new ArrayList<>();
        for (KgEntry.Join j : joins) {
            boolean twoWays = joins.stream().anyMatch(o -> o != j && o.sameTables(j));
            out.add(twoWays ? j.approve(false) : j);
        }
        return out;
    }

    /** Share of non-null foreign values an automatic join needs to be approved. */
    public static final double APPROVE_COVERAGE = 0.99;
    /** Share below which a name match is not even a candidate join. */
    public static final double CANDIDATE_COVERAGE = 0.5;

    /** The key a column's name points at: a key of the same name elsewhere, or the key of the table it names. */
    private static KgEntry.Column target(KgEntry.Column c, Map<String, KgEntry.Column> primary) {
        Matcher m = ID.matcher(c.name());
        String stem = m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
        if (stem == null) {
            return null;
        }
        KgEntry.Column byTable = null;
        for (Map.Entry<String, KgEntry.Column> e : primary.entrySet()) {
            KgEntry.Column k = e.getValue();
            if (e.getKey().equals(c.table()) || !compatible(c.type(), k.type())) {
                continue;
            }
            if (k.name().equalsIgnoreCase(c.name())) {
                return k;
            }
            String table = e.getKey().toLowerCase(Locale.ROOT);
            if (byTable == null && (table.equals(stem) || table.equals(stem + "s") || table.equals(stem + "es")
                    || (stem.endsWith("y") && table.equals(stem.substring(0, stem.length() - 1) + "ies")))) {
                byTable = k;
            }
        }
        return byTable;
    }

    /**
     * {coverage, unique}: the share of the column's non-null values found in the key, and 1 when those values
     * are also unique (one-to-one); null when the column has no values or the check failed.
     */
    private static double[] containment(Workspace ws, KgEntry.Column c, KgEntry.Column key) {
        String col = "f." + Sql.quoteIdent(c.name());
        String sql = "SELECT count(" + col + "), count(" + col + ") FILTER (WHERE k." + Sql.quoteIdent(key.name())
                + " IS NULL), count(DISTINCT " + col + ") FROM " + Sql.quoteTable(c.table()) + " f LEFT JOIN (SELECT DISTINCT "
                + Sql.quoteIdent(key.name()) + " FROM " + Sql.quoteTable(key.table()) + ") k ON k."
                + Sql.quoteIdent(key.name()) + " = " + col;
        try {
            List<Object> row = ws.trustedQuery(sql, 1).rows().get(0);
            long total = ((Number) row.get(0)).longValue();
            long missing = ((Number) row.get(1)).longValue();
            long distinct = ((Number) row.get(2)).longValue();
            return total == 0 ? null : new double[] {(total - missing) / (double) total, distinct == total ? 1 : 0};
        } catch (QueryException e) {
            LOG.warn("Could not check join {}.{} -> {}.{}: {}", c.table(), c.name(), key.table(), key.name(),
                    e.getMessage());
            return null;
        }
    }

    private static boolean compatible(String a, String b) {
        return (isInteger(a) && isInteger(b)) || (a.startsWith("VARCHAR") && b.startsWith("VARCHAR"));
    }

    private static boolean isInteger(String type) {
        return switch (type) {
            case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
                 "UBIGINT" -> true;
            default -> false;
        };
    }
}
