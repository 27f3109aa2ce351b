package dev.sift.tool.analysis;

import dev.sift.data.ColumnInfo;
import dev.sift.data.DateRange;
import dev.sift.data.NegativeValues;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableInfo;
import dev.sift.data.ValueVariants;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgException;
import dev.sift.knowledge.Knowledge;
import dev.sift.tool.analysis.DataQualityReport.Finding;
import dev.sift.tool.analysis.DataQualityReport.Report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The checks of {@link DataQualityReport} on one source, in the order the report gives them: one scan for missing
 * values, blanks and out-of-range values; duplicate keys and rows; orphan foreign keys; text formats; look-alike
 * values; far outliers. Each check adds its findings and a line saying what it checked. Aggregates are read back by
 * the names the SQL gives them, never by position.
 */
final class QualityChecks {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QualityChecks.class);
    static final double IQR_FENCE = 3.0;
    static final String KG_APPROVED = "approved join in the knowledge graph";
    static final String KG_INFERRED = "join inferred by the knowledge graph";
    static final String BY_NAME = "join inferred from the shared column name";

    private final Workspace ws;
    private final Supplier<Knowledge> knowledge;
    private final TableInfo t;
    private final String key;
    private final String exampleOf;
    private final String exampleName;
    private final List<Finding> findings = new ArrayList<>();
    private final List<String> checks = new ArrayList<>();
    private long rows;

    QualityChecks(Workspace ws, Supplier<Knowledge> knowledge, TableInfo t) throws QueryException {
        this.ws = ws;
        this.knowledge = knowledge;
        this.t = t;
        this.key = Columns.key(ws, t);
        this.exampleOf = key != null ? Columns.q(key) : "rowid";
        this.exampleName = key != null ? key : "rowid";
    }

    Report report() throws QueryException {
        long duplicateKeys = scan();
        duplicates(duplicateKeys);
        orphans();
        textFormats();
        checks.add(lookAlikes(textColumns()));
        outliers();
        findings.sort(Comparator.comparingInt((Finding f) -> DataQualityReport.rank(f.severity())).thenComparing(f -> -f.count()));
        String frame = save();
        return new Report(t.name(), rows, key, List.copyOf(findings), List.copyOf(checks), frame);
    }

    /** One pass over the source: the row count, nulls, blanks and out-of-range values per column, duplicate keys. */
    private long scan() throws QueryException {
        List<ColumnInfo> cols = t.columns();
        StringBuilder sql = new StringBuilder("SELECT count(*) AS \"rows\"");
        for (int j = 0; j < cols.size(); j++) {
            ColumnInfo c = cols.get(j);
            String q = Columns.q(c.name());
            sql.append(", count(*) - count(").append(q).append(") AS nulls_").append(j)
                    .append(", min(").append(exampleOf).append(") FILTER (WHERE ").append(q).append(" IS NULL) AS null_example_").append(j);
            if (Columns.text(c)) {
                sql.append(", count(*) FILTER (WHERE trim(").append(q).append(") = '') AS blanks_").append(j)
                        .append(", min(").append(exampleOf).append(") FILTER (WHERE trim(").append(q).append(") = '') AS blank_example_").append(j);
            }
            if (Columns.temporal(c)) {
                String bad = DateRange.outOfRange(q);
                sql.append(", count(*) FILTER (WHERE ").append(bad).append(") AS bad_dates_").append(j)
                        .append(", CAST(min(").append(q).append(") FILTER (WHERE ").append(bad).append(") AS VARCHAR) AS bad_date_example_").append(j);
            }
            if (Columns.numeric(c)) {
                sql.append(", count(*) FILTER (WHERE ").append(q).append(" < 0) AS negatives_").append(j)
                        .append(", count(*) FILTER (WHERE ").append(q).append(" > 0) AS positives_").append(j)
                        .append(", CAST(min(").append(q).append(") AS VARCHAR) AS negative_example_").append(j);
            }
            if (floating(c)) {
                sql.append(", count(*) FILTER (WHERE isnan(").append(q).append(") OR isinf(").append(q).append(")) AS nans_").append(j);
            }
        }
        if (key != null) {
            sql.append(", count(").append(Columns.q(key)).append(") - count(DISTINCT ").append(Columns.q(key)).append(") AS duplicate_keys");
        }
        Map<String, Object> row = named(ws.trustedQuery(sql.append(" FROM ").append(t.sqlName()).toString(), 1));
        rows = num(row.get("rows"));
        for (int j = 0; j < cols.size(); j++) {
            columnFindings(cols.get(j), j, row);
        }
        checks.add("missing values and blanks in " + cols.size() + " columns");
        checks.add("out-of-range dates, negative quantities, NaN");
        return num(row.get("duplicate_keys"));
    }

    private void columnFindings(ColumnInfo c, int j, Map<String, Object> row) {
        long nulls = num(row.get("nulls_" + j));
        if (nulls > 0) {
            findings.add(finding("missing values", c.name(), grade(nulls, 0.5, 0.05), nulls,
                    exampleName + " " + row.get("null_example_" + j), nulls + " NULL values"));
        }
        long blanks = num(row.get("blanks_" + j));
        if (blanks > 0) {
            findings.add(finding("blank strings", c.name(), grade(blanks, 0.5, 0.05), blanks,
                    exampleName + " " + row.get("blank_example_" + j), blanks + " empty or whitespace-only values"
                    + " (missing values not stored as NULL)"));
        }
        long badDates = num(row.get("bad_dates_" + j));
        if (badDates > 0) {
            findings.add(finding("out-of-range values", c.name(), "high", badDates,
                    String.valueOf(row.get("bad_date_example_" + j)), "dates before " + DateRange.EARLIEST.substring(0, 4)
                    + " or after today (errors of the source, unless they are planned dates)"));
        }
        long negatives = num(row.get("negatives_" + j));
        if (NegativeValues.suspect(c.name(), negatives, num(row.get("positives_" + j)))) {
            findings.add(finding("out-of-range values", c.name(), "medium", negatives,
                    String.valueOf(row.get("negative_example_" + j)), NegativeValues.quantityName(c.name())
                    ? "negative values in a column whose name suggests a non-negative quantity"
                    : "a few negative values among positive ones (a sign error?)"));
        }
        long nans = num(row.get("nans_" + j));
        if (nans > 0) {
            findings.add(finding("out-of-range values", c.name(), "high", nans, "NaN or infinity", "NaN or infinite values"));
        }
    }

    /** Duplicate keys (counted by the scan) and, where no key proves rows unique, exact duplicate rows. */
    private void duplicates(long duplicateKeys) throws QueryException {
        if (key != null && duplicateKeys > 0) {
            QueryResult dup = ws.trustedQuery("SELECT " + Columns.q(key) + " FROM " + t.sqlName() + " WHERE " + Columns.q(key)
                    + " IS NOT NULL GROUP BY 1 HAVING count(*) > 1 ORDER BY count(*) DESC, 1 LIMIT 1", 1);
            findings.add(finding("duplicate keys", key, "high", duplicateKeys, key + " " + dup.rows().get(0).get(0),
                    duplicateKeys + " rows repeat a " + key + " that should identify one row"));
        }
        if (key != null) {
            checks.add("duplicate values of key " + key);
        }
        if (key != null && duplicateKeys == 0) {
            checks.add("exact duplicate rows (none possible: " + key + " is unique)");
            return;
        }
        String all = String.join(", ", t.columns().stream().map(c -> Columns.q(c.name())).toList());
        Map<String, Object> dup = named(ws.trustedQuery("SELECT coalesce(sum(n - 1), 0) AS copies, min(r) FILTER (WHERE n > 1)"
                + " AS example FROM (SELECT count(*) AS n, min(" + exampleOf + ") AS r FROM " + t.sqlName() + " GROUP BY " + all
                + ")", 1));
        long copies = num(dup.get("copies"));
        if (copies > 0) {
            findings.add(finding("duplicate rows", null, grade(copies, 0.05, 0.0), copies, exampleName + " " + dup.get("example"),
                    copies + " rows are exact copies of another row"));
        }
        checks.add("exact duplicate rows");
    }

    /** Orphan foreign keys along the knowledge graph's joins (dataset tables), else joins inferred from {@code *_id} names. */
    private void orphans() throws QueryException {
        for (Link l : links()) {
            Map<String, Object> o = named(ws.trustedQuery("SELECT count(*) AS orphans, min(s." + Columns.q(l.column())
                    + ") AS example FROM " + t.sqlName() + " s WHERE s." + Columns.q(l.column()) + " IS NOT NULL AND NOT EXISTS"
                    + " (SELECT 1 FROM " + l.parent().sqlName() + " p WHERE p." + Columns.q(l.parentColumn()) + " = s."
                    + Columns.q(l.column()) + ")", 1));
            long orphans = num(o.get("orphans"));
            String join = t.name() + "." + l.column() + " = " + l.parent().name() + "." + l.parentColumn();
            if (orphans > 0) {
                findings.add(finding("orphan foreign keys", l.column(), "high", orphans, l.column() + " " + o.get("example"),
                        orphans + " rows point to no row of " + l.parent().name() + " (join " + join + ": " + l.how() + ")"));
            }
            checks.add("orphans along " + join + " (" + l.how() + ")");
        }
    }

    /** Text formats: mixed date formats, dates stored as text, numbers stored as text. */
    private void textFormats() throws QueryException {
        Map<String, Map<String, Double>> formats = new LinkedHashMap<>();
        Map<String, Map<String, String>> examples = new LinkedHashMap<>();
        Formats.detect(ws, t, textColumns(), formats, examples);
        for (Map.Entry<String, Map<String, Double>> e : formats.entrySet()) {
            String col = e.getKey();
            long nonNull = rows - nullsOf(col);
            Map<String, Double> dates = Formats.dateFormats(e.getValue());
            double number = e.getValue().getOrDefault("number as text", 0.0);
            if (number >= 0.95) {
                dates.remove("date YYMMDD"); // digits only: reported as numbers
            }
            if (dates.size() >= 2) {
                String minority = dates.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow().getKey();
                long count = Math.round(dates.get(minority) * nonNull);
                findings.add(finding("mixed date formats", col, "high", count, "'" + examples.get(col).get(minority) + "' ("
                        + minority + ")", "formats: " + String.join(", ", dates.entrySet().stream()
                        .map(d -> d.getKey() + " " + Columns.pct(d.getValue())).toList())));
            } else if (dates.size() == 1 && dates.values().iterator().next() >= 0.95) {
                String f = dates.keySet().iterator().next();
                findings.add(finding("dates stored as text", col, "low", nonNull, "'" + examples.get(col).get(f) + "'",
                        "VARCHAR values in " + f + " format; convert with transform_column (strptime) before date arithmetic"));
            }
            if (number >= 0.95) {
                long count = Math.round(number * nonNull);
                Double yymmdd = e.getValue().get("date YYMMDD");
                findings.add(finding("numbers stored as text", col, "low", count, "'" + examples.get(col).get("number as text")
                        + "'", Columns.pct(number) + " of values are numbers in a VARCHAR column" + (yymmdd == null ? ""
                        : "; " + Columns.pct(yymmdd) + " also read as YYMMDD dates")));
            }
        }
        checks.add("date formats and numbers in " + formats.size() + " text columns");
    }

    /**
     * Case variants and near-duplicates ({@link ValueVariants}) among the values of the low-cardinality text columns
     * ('Web'/'web', 'Electronic'/'Electronics'), as findings counting the rows of the less common spellings; returns
     * what was checked.
     */
    private String lookAlikes(List<String> text) throws QueryException {
        if (text.isEmpty()) {
            return "look-alike values in 0 low-cardinality text columns";
        }
        StringBuilder sql = new StringBuilder("SELECT 1");
        for (int k = 0; k < text.size(); k++) {
            String q = Columns.q(text.get(k));
            sql.append(", count(DISTINCT ").append(q).append(") AS distinct_").append(k)
                    .append(", count(").append(q).append(") AS values_").append(k);
        }
        Map<String, Object> counts = named(ws.trustedQuery(sql.append(" FROM ").append(t.sqlName()).toString(), 1));
        int looked = 0;
        for (int k = 0; k < text.size(); k++) {
            if (ValueVariants.eligible(num(counts.get("distinct_" + k)), num(counts.get("values_" + k)))) {
                looked++;
                lookAlikes(text.get(k));
            }
        }
        return "look-alike values in " + looked + " low-cardinality text columns";
    }

    private void lookAlikes(String column) throws QueryException {
        String q = Columns.q(column);
        Map<String, Long> values = new LinkedHashMap<>();
        for (List<Object> r : ws.trustedQuery("SELECT " + q + ", count(*) FROM " + t.sqlName() + " WHERE " + q
                + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1", ValueVariants.MAX_DISTINCT).rows()) {
            values.put(String.valueOf(r.get(0)), num(r.get(1)));
        }
        for (ValueVariants.Group g : ValueVariants.find(column, values)) {
            Map.Entry<String, Long> rarest = g.values().entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow();
            long minority = g.values().values().stream().mapToLong(Long::longValue).sum()
                    - g.values().values().stream().mapToLong(Long::longValue).max().orElse(0);
            findings.add(finding(g.kind(), column, "medium", minority, "'" + rarest.getKey() + "' (" + rarest.getValue() + ")",
                    g.describe().substring(column.length() + 2) + ": probably one value written in several ways; a value"
                    + " alias or concept in the knowledge file can say what it means"));
        }
    }

    /** Far outliers: values beyond 3 IQR from the quartiles of each measure, with the most extreme one. */
    private void outliers() throws QueryException {
        List<String> measures = t.columns().stream().filter(c -> Columns.numeric(c) && !Columns.idLike(c.name())
                && !c.name().equals(key)).map(ColumnInfo::name).toList();
        Map<String, double[]> quartiles = Quantiles.of(ws, t, measures, new double[] {0.25, 0.5, 0.75}, rows);
        List<String> checked = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT 1");
        for (Map.Entry<String, double[]> e : quartiles.entrySet()) {
            double[] q = e.getValue();
            double iqr = q[2] - q[0];
            if (iqr <= 0) {
                continue;
            }
            int k = checked.size();
            String c = Columns.q(e.getKey());
            String cond = c + " < " + (q[0] - IQR_FENCE * iqr) + " OR " + c + " > " + (q[2] + IQR_FENCE * iqr);
            sql.append(", count(*) FILTER (WHERE ").append(cond).append(") AS outliers_").append(k).append(", CAST(arg_max(")
                    .append(c).append(", abs(").append(c).append(" - ").append(q[1]).append(")) FILTER (WHERE ").append(cond)
                    .append(") AS VARCHAR) AS extreme_").append(k);
            checked.add(e.getKey());
        }
        if (!checked.isEmpty()) {
            Map<String, Object> o = named(ws.trustedQuery(sql.append(" FROM ").append(t.sqlName()).toString(), 1));
            for (int k = 0; k < checked.size(); k++) {
                long n = num(o.get("outliers_" + k));
                if (n > 0) {
                    double[] q = quartiles.get(checked.get(k));
                    findings.add(finding("outliers", checked.get(k), grade(n, 0.05, 0.01), n, "most extreme " + o.get("extreme_" + k),
                            "values beyond 3 IQR from the quartiles (Q1 " + Columns.num(q[0]) + ", Q3 " + Columns.num(q[2]) + ")"));
                }
            }
        }
        checks.add("outliers beyond 3 IQR in " + checked.size() + " numeric columns");
    }

    /** The findings as frame {@code dq_<source>}; returns its label. */
    private String save() throws QueryException {
        String frame = RowsFrame.label("dq", t.name());
        List<Map<String, Object>> rowsOut = new ArrayList<>();
        for (Finding f : findings) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("check", f.check());
            m.put("column", f.column());
            m.put("severity", f.severity());
            m.put("count", f.count());
            m.put("share", f.share());
            m.put("example", f.example());
            m.put("detail", f.detail());
            rowsOut.add(m);
        }
        RowsFrame.save(ws, frame, List.of(new RowsFrame.Col("check", "VARCHAR"), new RowsFrame.Col("column", "VARCHAR"),
                new RowsFrame.Col("severity", "VARCHAR"), new RowsFrame.Col("count", "BIGINT"),
                new RowsFrame.Col("share", "DOUBLE"), new RowsFrame.Col("example", "VARCHAR"),
                new RowsFrame.Col("detail", "VARCHAR")), rowsOut);
        return frame;
    }

    /** A foreign key to check: {@code column} of the source should match {@code parent.parentColumn}; {@code how} says where the join comes from. */
    record Link(String column, TableInfo parent, String parentColumn, String how) { }

    /**
     * The joins to check from the source: for a dataset table, the knowledge graph's joins leaving it (approved or
     * inferred there); for a frame, or when the graph has none or cannot be built, {@code X_id} columns matched by name
     * to the table whose key they are.
     */
    List<Link> links() throws QueryException {
        if (t.kind() == TableInfo.Kind.FRAME && ws.dialect() != dev.sift.data.SqlDialect.DUCKDB) {
            checks.add("orphaned keys not checked: the tables they point to stay on " + ws.dialect().label());
            return List.of();
        }
        if (t.kind() == TableInfo.Kind.TABLE) {
            List<Link> fromGraph = graphLinks();
            if (!fromGraph.isEmpty()) {
                return fromGraph;
            }
        }
        List<Link> out = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            if (!Columns.idLike(c.name()) || c.name().equals(key)) {
                continue;
            }
            TableInfo parent = parent(c.name());
            if (parent == null) {
                checks.add(c.name() + ": no table has it as its key, so orphans were not checked");
                continue;
            }
            out.add(new Link(c.name(), parent, parent.column(c.name()).orElseThrow().name(),
                    BY_NAME + (t.kind() == TableInfo.Kind.FRAME ? "; frames have no knowledge-graph joins" : "")));
        }
        return out;
    }

    private List<Link> graphLinks() {
        List<Link> out = new ArrayList<>();
        try {
            for (KgEntry.Join j : knowledge.get().graph().joinsOf(t.name())) {
                var parent = ws.table(j.toTable());
                if (!j.severalColumns() && j.fromTable().equalsIgnoreCase(t.name()) && parent.isPresent()
                        && t.column(j.fromColumn()).isPresent() && parent.get().column(j.toColumn()).isPresent()) {
                    out.add(new Link(t.column(j.fromColumn()).get().name(), parent.get(),
                            parent.get().column(j.toColumn()).get().name(), j.approved() ? KG_APPROVED : KG_INFERRED));
                }
            }
        } catch (KgException e) { // a curated graph that does not match the data: fall back to names
            LOG.warn("No knowledge graph for orphan checks of {}: {}", t.name(), e.getMessage());
            checks.add("knowledge graph unavailable (" + e.getMessage() + "), joins inferred from column names");
        }
        return out;
    }

    /** The dataset table whose key is {@code column}: named after its prefix (account_id → account) or declaring it as primary key. */
    private TableInfo parent(String column) throws QueryException {
        String prefix = column.substring(0, column.length() - 3).toLowerCase(Locale.ROOT);
        for (TableInfo p : ws.datasetTables()) {
            if (p.name().equalsIgnoreCase(t.name()) || p.column(column).isEmpty()) {
                continue;
            }
            String n = p.name().toLowerCase(Locale.ROOT);
            if (n.equals(prefix) || n.equals(prefix + "s") || Columns.primaryKeys(ws, p).contains(column.toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        return null;
    }

    private List<String> textColumns() {
        return t.columns().stream().filter(Columns::text).map(ColumnInfo::name).toList();
    }

    private static boolean floating(ColumnInfo c) {
        return c.type().equalsIgnoreCase("DOUBLE") || c.type().equalsIgnoreCase("FLOAT");
    }

    /** The first row of a one-row result, by column name. */
    private static Map<String, Object> named(QueryResult r) {
        Map<String, Object> out = new HashMap<>();
        List<Object> row = r.rows().get(0);
        for (int k = 0; k < r.columns().size(); k++) {
            out.put(r.columns().get(k).name(), row.get(k));
        }
        return out;
    }

    private long nullsOf(String col) {
        return findings.stream().filter(f -> f.check().equals("missing values") && col.equals(f.column()))
                .mapToLong(Finding::count).sum();
    }

    private Finding finding(String check, String column, String severity, long count, String example, String detail) {
        return new Finding(check, column, severity, count, share(count), example, detail);
    }

    private static long num(Object o) {
        return o == null ? 0 : ((Number) o).longValue();
    }

    private double share(long n) {
        return rows == 0 ? 0 : (double) n / rows;
    }

    private String grade(long n, double high, double medium) {
        double s = share(n);
        return s >= high ? "high" : s >= medium && s > 0 ? "medium" : "low";
    }
}
