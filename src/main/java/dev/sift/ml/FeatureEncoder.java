package dev.sift.ml;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a table's columns become XGBoost features, and how each feature maps back to the user's column.
 * Numbers and booleans are used as they are; strings with at most {@value #ONE_HOT_MAX} values are
 * one-hot encoded, up to {@value #ORDINAL_MAX} ordinal (levels by frequency); dates become year, month,
 * day of week and age in days (before the latest training date), computed in SQL. Identifiers (named id or
 * *_id, unique text, or unique integers forming a dense sequence), constant columns, text with more than
 * {@value #ORDINAL_MAX} values and unsupported types are dropped, each with its reason.
 */
public final class FeatureEncoder {
    public static final int ONE_HOT_MAX = 10;
    public static final int ORDINAL_MAX = 50;

    public enum Kind { NUMERIC, ONE_HOT, ORDINAL, DATE }

    /** One user column and how it is encoded; {@code median} (numeric) helps phrase explanations. */
    public record ColumnPlan(String column, String type, Kind kind, List<String> levels, double median) {
        public List<String> featureNames() {
            return switch (kind) {
                case NUMERIC, ORDINAL -> List.of(column);
                case ONE_HOT -> levels.stream().map(l -> column + "=" + l).toList();
                case DATE -> List.of(column + ".year", column + ".month", column + ".day_of_week", column + ".age_days");
            };
        }

        public String describe() {
            return switch (kind) {
                case NUMERIC -> column + " (number)";
                case ONE_HOT -> column + " (one-hot, " + levels.size() + " values)";
                case ORDINAL -> column + " (ordinal, " + levels.size() + " values)";
                case DATE -> column + " (date: year, month, day of week, age in days)";
            };
        }
    }

    /** A column left out, and why. */
    public record Dropped(String column, String reason) { }

    private final List<ColumnPlan> columns;
    private final List<Dropped> dropped;
    private final LocalDate reference;

    public FeatureEncoder(List<ColumnPlan> columns, List<Dropped> dropped, LocalDate reference) {
        this.columns = List.copyOf(columns);
        this.dropped = List.copyOf(dropped);
        this.reference = reference;
    }

    public List<ColumnPlan> columns() {
        return columns;
    }

    public List<Dropped> dropped() {
        return dropped;
    }

    public LocalDate reference() {
        return reference;
    }

    /** Encoded feature names, in matrix column order. */
    public List<String> featureNames() {
        List<String> out = new ArrayList<>();
        columns.forEach(c -> out.addAll(c.featureNames()));
        return out;
    }

    /** For each encoded feature, the index of the user column (in {@link #columns()}) it came from. */
    public int[] featureToColumn() {
        int[] map = new int[width()];
        int f = 0;
        for (int c = 0; c < columns.size(); c++) {
            for (int k = 0; k < columns.get(c).featureNames().size(); k++) {
                map[f++] = c;
            }
        }
        return map;
    }

    public int width() {
        return columns.stream().mapToInt(c -> c.featureNames().size()).sum();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnPlan::column).toList();
    }

    /**
     * Plans the encoding of {@code table}'s columns, leaving out {@code exclude} (target, entity). With
     * {@code requested} non-null only those columns are considered (still dropped when unusable).
     */
    public static FeatureEncoder plan(Workspace ws, TableInfo table, Set<String> exclude, List<String> requested)
            throws QueryException {
        List<ColumnInfo> candidates = candidates(table, exclude, requested);
        List<ColumnPlan> plans = new ArrayList<>();
        List<Dropped> dropped = new ArrayList<>();
        if (candidates.isEmpty()) {
            return new FeatureEncoder(plans, dropped, null);
        }
        List<Object> stats = ws.trustedQuery(statistics(table, candidates), 1).rows().get(0);
        long rows = ((Number) stats.get(0)).longValue();
        LocalDate reference = null;
        for (int i = 0; i < candidates.size(); i++) {
            ColumnInfo c = candidates.get(i);
            long distinct = ((Number) stats.get(1 + 4 * i)).longValue();
            long nonNull = ((Number) stats.get(2 + 4 * i)).longValue();
            Object extra = stats.get(3 + 4 * i);
            Object range = stats.get(4 + 4 * i);
            boolean unique = distinct == nonNull && nonNull == rows && rows > 20;
            // a unique integer is a key when it is a dense sequence (1, 2, 3, …), not when it is e.g. an amount
            boolean sequence = unique && range instanceof Number r && r.doubleValue() + 1 <= 2.0 * rows;
            Kind base = baseKind(c.type());
            String name = c.name();
            String lower = name.toLowerCase(Locale.ROOT);
            if (base == null) {
                dropped.add(new Dropped(name, "type " + c.type() + " is not supported as a feature"));
            } else if (nonNull == 0) {
                dropped.add(new Dropped(name, "no values"));
            } else if (distinct <= 1) {
                dropped.add(new Dropped(name, "constant"));
            } else if (lower.equals("id") || lower.endsWith("_id") || sequence || (base == Kind.ONE_HOT && unique)) {
                dropped.add(new Dropped(name, "identifier"));
            } else if (base == Kind.NUMERIC) {
                double median = extra == null ? Double.NaN : ((Number) extra).doubleValue();
                plans.add(new ColumnPlan(name, c.type(), Kind.NUMERIC, List.of(), median));
            } else if (base == Kind.DATE) {
                LocalDate max = LocalDate.parse((String) extra);
                reference = reference == null || max.isAfter(reference) ? max : reference;
                plans.add(new ColumnPlan(name, c.type(), Kind.DATE, List.of(), Double.NaN));
            } else if (distinct > ORDINAL_MAX) {
                dropped.add(new Dropped(name, distinct + " distinct text values (more than " + ORDINAL_MAX + ")"));
            } else {
                List<String> levels = ws.trustedQuery("SELECT CAST(" + Sql.quoteIdent(name) + " AS VARCHAR) FROM "
                        + table.sqlName() + " WHERE " + Sql.quoteIdent(name) + " IS NOT NULL GROUP BY 1"
                        + " ORDER BY count(*) DESC, 1", ORDINAL_MAX).rows().stream().map(r -> (String) r.get(0)).toList();
                plans.add(new ColumnPlan(name, c.type(), distinct <= ONE_HOT_MAX ? Kind.ONE_HOT : Kind.ORDINAL, levels,
                        Double.NaN));
            }
        }
        return new FeatureEncoder(plans, dropped, reference);
    }

    /** The table's columns that may be features: not excluded, and among {@code requested} when given. */
    private static List<ColumnInfo> candidates(TableInfo table, Set<String> exclude, List<String> requested) {
        Set<String> excluded = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        excluded.addAll(exclude);
        List<ColumnInfo> candidates = new ArrayList<>();
        for (ColumnInfo c : table.columns()) {
            if (!excluded.contains(c.name())
                    && (requested == null || requested.stream().anyMatch(r -> r.equalsIgnoreCase(c.name())))) {
                candidates.add(c);
            }
        }
        return candidates;
    }

    /**
     * One scan for every column: the row count, then per column its distinct and non-null counts, its median
     * (numbers) or latest day (dates), and its range (whole numbers, to tell a dense key from an amount).
     */
    private static String statistics(TableInfo table, List<ColumnInfo> candidates) {
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        for (ColumnInfo c : candidates) {
            String q = Sql.quoteIdent(c.name());
            sql.append(", count(DISTINCT ").append(q).append("), count(").append(q).append(')');
            Kind k = baseKind(c.type());
            if (k == Kind.NUMERIC) {
                sql.append(", CAST(median(CAST(").append(q).append(" AS DOUBLE)) AS DOUBLE)");
            } else if (k == Kind.DATE) {
                sql.append(", CAST(max(CAST(").append(q).append(" AS DATE)) AS VARCHAR)");
            } else {
                sql.append(", NULL");
            }
            sql.append(k == Kind.NUMERIC && isInteger(c.type()) ? ", CAST(max(" + q + ") AS DOUBLE) - CAST(min(" + q
                    + ") AS DOUBLE)" : ", NULL");
        }
        return sql.append(" FROM ").append(table.sqlName()).toString();
    }

    /** The user columns this encoder needs that {@code table} lacks. */
    public List<String> missingIn(TableInfo table) {
        return columns.stream().map(ColumnPlan::column).filter(c -> table.column(c).isEmpty()).toList();
    }

    /**
     * For each column whose type here is of another kind than when the model was trained (a number, a date, text),
     * "amount is VARCHAR (text) here but was DOUBLE (a number) in training"; widths of one kind (INTEGER, DOUBLE) may differ.
     */
    public List<String> mismatchedIn(TableInfo table) {
        List<String> out = new ArrayList<>();
        for (ColumnPlan c : columns) {
            table.column(c.column()).ifPresent(found -> {
                Kind now = baseKind(found.type());
                Kind then = baseKind(c.type());
                if (now != then) {
                    out.add(c.column() + " is " + found.type() + " (" + family(now) + ") here but was " + c.type() + " ("
                            + family(then) + ") in training");
                }
            });
        }
        return out;
    }

    private static String family(Kind k) {
        return k == null ? "not usable as a feature" : switch (k) {
            case NUMERIC -> "a number";
            case DATE -> "a date";
            default -> "text";
        };
    }

    /** SQL select expressions, per user column: the raw value as text, then the encoded inputs. */
    List<String> selectExpressions(ColumnPlan c) {
        String q = Sql.quoteIdent(c.column());
        return switch (c.kind()) {
            case NUMERIC -> List.of("CAST(" + q + " AS DOUBLE)");
            case ONE_HOT, ORDINAL -> List.of("CAST(" + q + " AS VARCHAR)");
            case DATE -> {
                String d = "CAST(" + q + " AS DATE)";
                yield List.of("CAST(" + d + " AS VARCHAR)", "year(" + d + ")", "month(" + d + ")", "dayofweek(" + d + ")",
                        "date_diff('day', " + d + ", DATE " + Sql.quoteString(String.valueOf(reference)) + ")");
            }
        };
    }

    static Map<String, Integer> levelIndex(ColumnPlan c) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < c.levels().size(); i++) {
            m.put(c.levels().get(i), i);
        }
        return m;
    }

    /** The encoding family of a DuckDB type; null when it cannot be a feature. */
    static Kind baseKind(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        if (t.startsWith("DECIMAL") || Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "REAL", "BOOLEAN").contains(t)) {
            return Kind.NUMERIC;
        }
        if (t.equals("DATE") || t.startsWith("TIMESTAMP")) {
            return Kind.DATE;
        }
        if (t.equals("VARCHAR") || t.startsWith("ENUM")) {
            return Kind.ONE_HOT;
        }
        return null;
    }

    static boolean isInteger(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.endsWith("INT") || t.equals("INTEGER");
    }
}
