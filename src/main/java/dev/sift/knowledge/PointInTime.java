package dev.sift.knowledge;

import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The point-in-time rule of a prediction task: a task names the moment its prediction is made ({@code as_of},
 * e.g. {@code loan.date}), and every table its features read that has a date or timestamp column (a time-stamped
 * table, other than the entity table itself) is cut off strictly before that moment by a condition written
 * {@code <table or alias>.<date column> < <as_of>} (or {@code <as_of> > …}) in the features SQL. Without it a
 * feature may aggregate rows from after the prediction (an all-time minimum balance includes the months after a
 * loan went bad), which makes a model look good on history and useless on the rows it scores.
 */
public final class PointInTime {
    private static final Pattern READ = Pattern.compile("(?i)\\b(?:FROM|JOIN)\\s+([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)"
            + "(?=(?:\\s+(?:AS\\s+)?([A-Za-z_][A-Za-z0-9_]*))?)"); // the alias is looked at, not consumed: it may be JOIN
    private static final Set<String> NOT_ALIAS = Set.of("on", "where", "join", "left", "right", "inner", "outer", "full",
            "cross", "group", "order", "limit", "using", "natural", "union", "select", "having", "qualify", "window",
            "lateral", "and", "or", "positional", "asof", "semi", "anti");

    private PointInTime() { }

    /**
     * One read of a time-stamped table without its cut-off: the table, its date columns, what is wrong, and the
     * condition that would cut it off (e.g. {@code t.date < loan.date}).
     */
    public record Gap(String table, List<String> dateColumns, String problem, String fix) { }

    /** A table the features read, under the name the SQL uses for it. */
    record Read(String table, String alias) { }

    /** The tables {@code sql} reads (string literals ignored), each with its alias (the table name without one). */
    static List<Read> reads(String sql) {
        List<Read> out = new ArrayList<>();
        Matcher m = READ.matcher(normalize(sql));
        while (m.find()) {
            String alias = m.group(2);
            if (alias == null || NOT_ALIAS.contains(alias.toLowerCase(Locale.ROOT))) {
                alias = m.group(1).substring(m.group(1).indexOf('.') + 1);
            }
            out.add(new Read(m.group(1), alias));
        }
        return out;
    }

    /**
     * The reads of time-stamped tables that are not cut off at the task's moment. {@code dateColumns} gives each
     * dataset table's date and timestamp columns (empty or absent: not time-stamped).
     */
    public static List<Gap> gaps(PredictionTask task, Map<String, List<String>> dateColumns) {
        return gaps(task.features(), task.entityTable(), task.asOf(), dateColumns);
    }

    /**
     * As above for any SQL whose rows are entities of {@code entityTable}, cut off at {@code asOf} (its
     * table.column, or null when the entity has no moment).
     */
    public static List<Gap> gaps(String features, String entityTable, String asOf, Map<String, List<String>> dateColumns) {
        List<Read> reads = reads(features);
        String sql = normalize(features);
        List<String> asOfRefs = new ArrayList<>();
        if (asOf != null) {
            String asTable = KgLoader.tableOf(asOf);
            for (Read r : reads) {
                if (r.table().equalsIgnoreCase(asTable)) {
                    asOfRefs.add(r.alias() + "." + KgLoader.columnOf(asOf));
                }
            }
            asOfRefs.add(asOf);
        }
        List<Gap> gaps = new ArrayList<>();
        for (Read r : reads) {
            List<String> dates = lookup(dateColumns, r.table());
            if (dates.isEmpty() || r.table().equalsIgnoreCase(entityTable)) {
                continue;
            }
            if (asOf == null) {
                gaps.add(new Gap(r.table(), dates, "the task names no moment: add as_of (the entity's date, e.g. as_of: "
                        + entityTable + ".date) and cut " + r.table() + " off before it with "
                        + r.alias() + "." + dates.get(0) + " < " + entityTable + ".date",
                        r.alias() + "." + dates.get(0) + " < " + entityTable + ".date"));
                continue;
            }
            String strict = null;
            String loose = null;
            for (String d : dates) {
                for (String a : asOfRefs) {
                    String col = Pattern.quote(r.alias() + "." + d);
                    String at = Pattern.quote(a);
                    if (find(sql, col + "\\s*<\\s*" + at) || find(sql, at + "\\s*>\\s*" + col)) {
                        strict = d;
                    } else if (find(sql, col + "\\s*<=\\s*" + at) || find(sql, at + "\\s*>=\\s*" + col)) {
                        loose = d;
                    }
                }
            }
            if (strict != null) {
                continue;
            }
            String fix = r.alias() + "." + dates.get(0) + " < " + asOfRefs.get(0);
            gaps.add(new Gap(r.table(), dates, loose != null
                    ? "its cut-off includes the moment itself (" + r.alias() + "." + loose + " <= " + asOf
                    + "): rows of that day may be the outcome; use " + fix
                    : "it has no cut-off at the task's moment " + asOf + ": add " + fix + " to the condition"
                    + " that reads " + r.table() + " (its JOIN ... ON or WHERE)", fix));
        }
        return gaps;
    }

    /** The date and timestamp columns of each dataset table {@code sql} reads. */
    public static Map<String, List<String>> dateColumns(Workspace ws, String sql) {
        Map<String, List<String>> dates = new java.util.LinkedHashMap<>();
        for (Read r : reads(sql)) {
            ws.table(r.table()).filter(t -> t.kind() == TableInfo.Kind.TABLE).ifPresent(t -> dates.put(r.table(),
                    t.columns().stream().filter(c -> c.type().toUpperCase(Locale.ROOT).matches("(DATE|TIMESTAMP).*"))
                            .map(c -> c.name()).toList()));
        }
        return dates;
    }

    /**
     * The columns of {@code columns} (rows of {@code sql}, one per {@code entityColumn}) whose values change when
     * {@code table} is read as empty: the features that come from it (empty when that cannot be run).
     */
    public static List<String> featuresFrom(Workspace ws, String sql, String entityColumn, String table,
                                            List<String> columns) {
        String t = KgSql.table(table);
        String f = KgSql.ident(entityColumn);
        StringBuilder q = new StringBuilder("WITH full_ AS (").append(sql.strip()).append("), empty_ AS (WITH ")
                .append(t).append(" AS (SELECT * FROM ").append(t).append(" WHERE false) ").append(sql.strip())
                .append(") SELECT ");
        List<String> features = columns.stream().filter(c -> !c.equalsIgnoreCase(entityColumn)).toList();
        for (int i = 0; i < features.size(); i++) {
            String c = KgSql.ident(features.get(i));
            q.append(i == 0 ? "" : ", ").append("count(*) FILTER (WHERE a.").append(c).append(" IS DISTINCT FROM b.")
                    .append(c).append(')');
        }
        q.append(" FROM full_ a LEFT JOIN empty_ b ON a.").append(f).append(" = b.").append(f);
        try {
            List<Object> row = ws.trustedQuery(q.toString(), 1).rows().get(0);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < features.size(); i++) {
                if (((Number) row.get(i)).longValue() > 0) {
                    out.add(features.get(i));
                }
            }
            return out;
        } catch (QueryException | RuntimeException e) {
            return List.of();
        }
    }

    private static List<String> lookup(Map<String, List<String>> dateColumns, String table) {
        return dateColumns.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(table)).map(Map.Entry::getValue)
                .findFirst().orElse(List.of());
    }

    private static boolean find(String sql, String regex) {
        return Pattern.compile("(?i)(?<![A-Za-z0-9_.])" + regex + "(?![A-Za-z0-9_])").matcher(sql).find();
    }

    /** String literals emptied, quotes around identifiers removed, so patterns see names only. */
    private static String normalize(String sql) {
        return sql.replaceAll("'(?:[^']|'')*'", "''").replace("\"", "");
    }
}
