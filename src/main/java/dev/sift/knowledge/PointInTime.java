package dev.sift.knowledge;

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

    /** One read of a time-stamped table without its cut-off: the table, its date columns, what is wrong. */
    public record Gap(String table, List<String> dateColumns, String problem) { }

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
        List<Read> reads = reads(task.features());
        String sql = normalize(task.features());
        List<String> asOfRefs = new ArrayList<>();
        if (task.asOf() != null) {
            String asTable = KgLoader.tableOf(task.asOf());
            for (Read r : reads) {
                if (r.table().equalsIgnoreCase(asTable)) {
                    asOfRefs.add(r.alias() + "." + KgLoader.columnOf(task.asOf()));
                }
            }
            asOfRefs.add(task.asOf());
        }
        List<Gap> gaps = new ArrayList<>();
        for (Read r : reads) {
            List<String> dates = lookup(dateColumns, r.table());
            if (dates.isEmpty() || r.table().equalsIgnoreCase(task.entityTable())) {
                continue;
            }
            if (task.asOf() == null) {
                gaps.add(new Gap(r.table(), dates, "the task names no moment: add as_of (the entity's date, e.g. as_of: "
                        + task.entityTable() + ".date) and cut " + r.table() + " off before it with "
                        + r.alias() + "." + dates.get(0) + " < " + task.entityTable() + ".date"));
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
                    ? "its cut-off includes the moment itself (" + r.alias() + "." + loose + " <= " + task.asOf()
                    + "): rows of that day may be the outcome; use " + fix
                    : "it has no cut-off at the task's moment " + task.asOf() + ": add " + fix + " to the condition"
                    + " that reads " + r.table() + " (its JOIN ... ON or WHERE)"));
        }
        return gaps;
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
