package dev.sift.knowledge;

import dev.sift.data.Names;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a curated file against the live dataset: every table and column it names exists, metric and
 * concept expressions bind in DuckDB (joined along the join paths), and every value alias points at a value
 * that occurs in its column. All problems are collected and thrown together as one {@link KgException}.
 */
public final class KgValidator {
    private static final Pattern REF = Pattern.compile("\"?([A-Za-z_][A-Za-z0-9_]*)\"?\\.\"?([A-Za-z_][A-Za-z0-9_]*)\"?");

    private KgValidator() { }

    public static void validate(CuratedKg kg, KnowledgeGraph auto, Workspace ws) {
        List<String> problems = new ArrayList<>();
        String src = kg.source();
        for (Map.Entry<String, CuratedKg.TableNote> t : kg.tables().entrySet()) {
            if (table(src + ": tables." + t.getKey(), t.getKey(), auto, problems)) {
                for (String c : t.getValue().columns().keySet()) {
                    column(src + ": tables." + t.getKey() + ".columns." + c, t.getKey(), c, auto, problems);
                }
            }
        }
        KnowledgeGraph joinGraph = joinGraph(kg, auto, problems);
        for (KgEntry e : kg.entries()) {
            entry(where(kg, e), e, joinGraph, auto, ws, problems);
        }
        for (PredictionTask p : kg.predictions()) {
            prediction(src + ": predictions[" + p.name() + "]", p, joinGraph, auto, ws, problems);
        }
        examples(kg, ws, problems);
        kg.types().forEach((column, type) -> type(src + ": types[" + column + "]", column, type, auto, problems));
        if (!problems.isEmpty()) {
            throw new KgException(problems);
        }
    }

    private static String where(CuratedKg kg, KgEntry e) {
        return kg.source() + ": " + section(e) + "[" + e.id().substring(e.id().indexOf(':') + 1) + "]";
    }

    /** The dataset's inferred joins with the file's joins whose tables and columns exist: what expressions bind along. */
    private static KnowledgeGraph joinGraph(CuratedKg kg, KnowledgeGraph auto, List<String> problems) {
        List<KgEntry> joinsAndAuto = new ArrayList<>(auto.entries());
        for (KgEntry e : kg.entries()) {
            if (e instanceof KgEntry.Join j) {
                String where = where(kg, e);
                boolean ok = table(where, j.fromTable(), auto, problems)
                        && j.fromColumns().stream().allMatch(c -> column(where, j.fromTable(), c, auto, problems));
                ok &= table(where, j.toTable(), auto, problems)
                        && j.toColumns().stream().allMatch(c -> column(where, j.toTable(), c, auto, problems));
                if (ok) {
                    joinsAndAuto.add(j);
                }
            }
        }
        return new KnowledgeGraph(auto.dataset(), null, dedupe(joinsAndAuto));
    }

    /** A concept's column or expression, a metric's tables and expression, a value alias's value (joins are done). */
    private static void entry(String where, KgEntry e, KnowledgeGraph joinGraph, KnowledgeGraph auto, Workspace ws,
                              List<String> problems) {
        if (e instanceof KgEntry.Concept c) {
            if (c.column() != null) {
                if (!c.column().contains(".")) {
                    problems.add(where + ": column '" + c.column() + "' must be written table.column");
                } else if (table(where, KgLoader.tableOf(c.column()), auto, problems)) {
                    column(where, KgLoader.tableOf(c.column()), KgLoader.columnOf(c.column()), auto, problems);
                }
            } else if (table(where, c.table(), auto, problems) && c.expression() != null) {
                bind(where, c.expression(), List.of(c.table()), joinGraph, auto, ws, problems);
            }
        } else if (e instanceof KgEntry.Metric m) {
            boolean ok = true;
            for (String t : m.tables()) {
                ok &= table(where, t, auto, problems);
            }
            if (ok) {
                bind(where, m.expression(), m.tables(), joinGraph, auto, ws, problems);
            }
        } else if (e instanceof KgEntry.ValueAlias a) {
            if (table(where, a.table(), auto, problems) && column(where, a.table(), a.column(), auto, problems)) {
                occurs(where, a, ws, problems);
            }
        }
    }

    /** Every verified example's SQL runs. */
    private static void examples(CuratedKg kg, Workspace ws, List<String> problems) {
        for (int i = 0; i < kg.examples().size(); i++) {
            VerifiedExample x = kg.examples().get(i);
            try {
                ws.check(x.sql());
            } catch (QueryException e) {
                problems.add(kg.source() + ": examples[" + (i + 1) + "] (\"" + x.question() + "\"): sql does not run: "
                        + e.getMessage().lines().findFirst().orElse("").replaceFirst("\\.+$", "") + ". Fix the SQL or remove the example");
            }
        }
    }

    /** A declared type parses and names a column that exists. */
    private static void type(String where, String column, String type, KnowledgeGraph auto, List<String> problems) {
        try {
            dev.sift.data.source.ColumnType.parse(column + "=" + type);
            if (table(where, KgLoader.tableOf(column), auto, problems)) {
                column(where, KgLoader.tableOf(column), KgLoader.columnOf(column), auto, problems);
            }
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage().replaceFirst("^--types ", "") + "; write it as "
                    + "table.column: kind[:format], e.g. orders.order_date: date:%d/%m/%Y");
        }
    }

    /**
     * Declared types the dataset does not have yet (the file was edited after the load): not an error, since a type
     * applies when the dataset is built, but worth saying with the command that applies it.
     */
    public static List<String> pendingTypes(CuratedKg kg, KnowledgeGraph auto) {
        List<String> out = new ArrayList<>();
        kg.types().forEach((column, type) -> {
            var col = auto.column(KgLoader.tableOf(column), KgLoader.columnOf(column));
            String kind = type.split(":", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
            if (col.isPresent() && !fits(kind, col.get().type())) {
                out.add(kg.source() + ": types[" + column + "]: declared " + kind + ", but the dataset has it as "
                        + col.get().type() + "; rebuild it to apply: sift load " + auto.dataset() + " … --refresh");
            }
        });
        return out;
    }

    private static boolean fits(String kind, String type) {
        String t = type.toUpperCase(java.util.Locale.ROOT);
        return switch (kind) {
            case "date" -> t.equals("DATE");
            case "timestamp" -> t.startsWith("TIMESTAMP");
            case "number" -> t.matches("(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|REAL|DOUBLE|DECIMAL.*)");
            default -> t.startsWith("VARCHAR");
        };
    }

    private static final Pattern FROM_TABLE = Pattern.compile("(?i)\\b(?:FROM|JOIN)\\s+\"?([A-Za-z_][A-Za-z0-9_]*)\"?");

    /**
     * A predictive task binds when its entity exists, its features SQL runs and returns the entity column and at
     * least one feature, the dataset tables it reads are connected by approved (or inferred) join paths, and the
     * history and current sets built from it run.
     */
    private static void prediction(String where, PredictionTask p, KnowledgeGraph joins, KnowledgeGraph auto,
                                   Workspace ws, List<String> problems) {
        if (!table(where, p.entityTable(), auto, problems) || !column(where, p.entityTable(), p.entityColumn(), auto, problems)) {
            return;
        }
        List<String> tables = new ArrayList<>();
        Matcher m = FROM_TABLE.matcher(p.features().replaceAll("'[^']*'", "''"));
        while (m.find()) {
            String t = m.group(1);
            if (auto.table(t).isPresent() && tables.stream().noneMatch(x -> x.equalsIgnoreCase(t))) {
                tables.add(auto.table(t).get().name());
            }
        }
        if (tables.size() > 1 && KgSql.from(joins, tables).isEmpty()) {
            problems.add(where + ": features read tables " + tables + ", which are not connected by any join path");
            return;
        }
        List<String> columns;
        try {
            columns = ws.trustedQuery("SELECT * FROM (" + p.features().strip() + ") AS f LIMIT 0", 1).columns().stream()
                    .map(c -> c.name()).toList();
        } catch (QueryException e) {
            problems.add(where + ": features SQL does not run: " + e.getMessage());
            return;
        }
        if (columns.stream().noneMatch(c -> c.equalsIgnoreCase(p.entityColumn()))) {
            problems.add(where + ": features SQL must return the entity column " + p.entityColumn() + "; it returns "
                    + String.join(", ", columns));
            return;
        }
        if (columns.size() < 2) {
            problems.add(where + ": features SQL returns no feature besides " + p.entityColumn());
            return;
        }
        if (columns.stream().anyMatch(c -> c.equalsIgnoreCase(p.label()))) {
            problems.add(where + ": features SQL already returns a column named like the label '" + p.label() + "'");
            return;
        }
        pointInTime(where, p, columns, ws, problems);
        for (String[] set : List.of(new String[] {"history", p.historySql()}, new String[] {"current", p.currentSql()})) {
            try {
                ws.trustedQuery("SELECT * FROM (" + set[1] + ") AS s LIMIT 0", 1);
            } catch (QueryException e) {
                problems.add(where + ": " + set[0] + " set (label and filter over " + p.entityTable() + ") does not run: "
                        + e.getMessage());
            }
        }
    }

    /**
     * A task whose features read a time-stamped table without a cut-off at its moment is refused, naming the
     * table, the features that come from it (those that change when the table is emptied) and the fix.
     */
    private static void pointInTime(String where, PredictionTask p, List<String> columns, Workspace ws,
                                    List<String> problems) {
        if (p.asOf() != null) {
            String type = ws.table(p.entityTable()).flatMap(t -> t.column(KgLoader.columnOf(p.asOf())))
                    .map(c -> c.type().toUpperCase(java.util.Locale.ROOT)).orElse(null);
            if (type == null || !(type.startsWith("DATE") || type.startsWith("TIMESTAMP"))) {
                problems.add(where + ": as_of '" + p.asOf() + "' must be a DATE or TIMESTAMP column of "
                        + p.entityTable() + (type == null ? " (no such column)" : " (it is " + type + ")"));
                return;
            }
        }
        Map<String, List<String>> dates = PointInTime.dateColumns(ws, p.features());
        for (PointInTime.Gap g : PointInTime.gaps(p, dates)) {
            List<String> from = PointInTime.featuresFrom(ws, p.features(), p.entityColumn(), g.table(), columns);
            problems.add(where + ": features read the time-stamped table " + g.table() + " (dated by "
                    + String.join(", ", g.dateColumns()) + ") but " + g.problem() + ", so "
                    + (from.isEmpty() ? "its features" : "the feature" + (from.size() == 1 ? " " : "s ")
                    + String.join(", ", from)) + " may use rows from after the prediction is made");
        }
    }

    private static List<KgEntry> dedupe(List<KgEntry> entries) {
        java.util.Map<String, KgEntry> byId = new java.util.LinkedHashMap<>();
        entries.forEach(e -> byId.putIfAbsent(e.id(), e));
        return List.copyOf(byId.values());
    }

    private static String section(KgEntry e) {
        return switch (e.kind()) {
            case CONCEPT -> "concepts";
            case METRIC -> "metrics";
            case JOIN -> "join_paths";
            case DISAMBIGUATION -> "disambiguations";
            case VALUE_ALIAS -> "value_aliases";
            default -> "tables";
        };
    }

    private static boolean table(String where, String table, KnowledgeGraph auto, List<String> problems) {
        if (table != null && auto.table(table).isPresent()) {
            return true;
        }
        List<String> names = auto.tables().stream().map(KgEntry.Table::name).toList();
        problems.add(where + ": table '" + table + "' does not exist. Tables: " + String.join(", ", names) + "."
                + Names.didYouMean(String.valueOf(table), names));
        return false;
    }

    private static boolean column(String where, String table, String column, KnowledgeGraph auto, List<String> problems) {
        if (auto.column(table, column).isPresent()) {
            return true;
        }
        List<String> names = auto.columns(table).stream().map(KgEntry.Column::name).toList();
        problems.add(where + ": column " + table + "." + column + " does not exist. Table " + table + " has columns: "
                + String.join(", ", names) + "." + Names.didYouMean(column, names));
        return false;
    }

    private static void bind(String where, String expression, List<String> tables, KnowledgeGraph joins,
                             KnowledgeGraph auto, Workspace ws, List<String> problems) {
        Matcher m = REF.matcher(expression.replaceAll("'[^']*'", "''"));
        boolean refsOk = true;
        while (m.find()) {
            if (auto.table(m.group(1)).isPresent()) {
                if (!tables.stream().anyMatch(t -> t.equalsIgnoreCase(m.group(1)))) {
                    problems.add(where + ": expression uses table " + m.group(1) + ", which is not in its tables "
                            + tables + "; add it to 'tables'");
                    refsOk = false;
                } else {
                    refsOk &= column(where, m.group(1), m.group(2), auto, problems);
                }
            }
        }
        if (!refsOk) {
            return;
        }
        var from = KgSql.from(joins, tables);
        if (from.isEmpty()) {
            problems.add(where + ": tables " + tables + " are not connected by any join path");
            return;
        }
        try {
            ws.trustedQuery("SELECT " + expression + " FROM " + from.get() + " LIMIT 0", 1);
        } catch (QueryException e) {
            problems.add(where + ": expression '" + expression + "' does not run: " + e.getMessage());
        }
    }

    private static void occurs(String where, KgEntry.ValueAlias a, Workspace ws, List<String> problems) {
        try {
            var r = ws.trustedQuery("SELECT 1 FROM " + KgSql.table(a.table()) + " WHERE CAST(" + KgSql.ident(a.column())
                    + " AS VARCHAR) = " + dev.sift.data.Sql.quoteString(a.value()) + " LIMIT 1", 1);
            if (r.rows().isEmpty()) {
                problems.add(where + ": value '" + a.value() + "' does not occur in " + a.table() + "." + a.column());
            }
        } catch (QueryException e) {
            problems.add(where + ": could not check value '" + a.value() + "': " + e.getMessage());
        }
    }
}
