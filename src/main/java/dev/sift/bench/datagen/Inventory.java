package dev.sift.bench.datagen;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.PredictionTask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The first stage of question generation: what a dataset holds that a question can ask about, read from the schema,
 * the data and the knowledge graph. Columns are sorted into keys, categories (text with a small set of stored
 * values), measures (numbers that are not keys) and dates; joins are the graph's approved many-to-one paths.
 */
public record Inventory(List<Table> tables, List<Join> joins, List<PredictionTask> tasks) {
    /** A category column has at most this many distinct values (and each question names one of them). */
    static final int MAX_CATEGORY_VALUES = 30;

    /**
     * A table: how its rows are called ({@code synonym}: another plural from the knowledge graph, or null), its key
     * and its columns by role.
     */
    public record Table(String name, String plural, String singular, String synonym, long rows, String key,
                        List<Category> categories, List<Measure> measures, List<DateColumn> dates) {
        String sql() {
            return Sql.quoteTable(name);
        }
    }

    /** A text column with a few stored values, most frequent first, and the knowledge graph's code meanings. */
    public record Category(String column, String phrase, List<String> values, Map<String, String> codes) { }

    /** A numeric column that is not a key; {@code median} is read from the data (for thresholds in questions). */
    public record Measure(String column, String phrase, double median, boolean integral) { }

    /** A date or timestamp column and the years its values fall in, oldest first. */
    public record DateColumn(String column, String phrase, List<Integer> years) { }

    /** An approved join from a table to the table it points at (many-to-one), with its ON condition. */
    public record Join(String from, String to, String condition) { }

    /** Reads the inventory of the workspace's dataset tables. */
    public static Inventory read(Workspace ws, KnowledgeGraph kg) throws QueryException {
        List<Table> tables = new ArrayList<>();
        List<TableInfo> infos = new ArrayList<>(ws.datasetTables());
        infos.sort(Comparator.comparing(TableInfo::name));
        for (TableInfo t : infos) {
            if (t.rows() > 0) {
                tables.add(table(ws, kg, t));
            }
        }
        List<Join> joins = new ArrayList<>();
        for (KgEntry.Join j : kg.joins()) {
            if (j.approved() && !KgEntry.Join.ONE_TO_ONE.equals(j.cardinality())) {
                joins.add(new Join(j.fromTable(), j.toTable(), j.condition()));
            }
        }
        joins.sort(Comparator.comparing((Join j) -> j.from() + " " + j.to()).thenComparing(Join::condition));
        return new Inventory(List.copyOf(tables), List.copyOf(joins), kg.predictions());
    }

    public Optional<Table> table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private static Table table(Workspace ws, KnowledgeGraph kg, TableInfo t) throws QueryException {
        Optional<KgEntry.Table> entry = kg.table(t.name());
        String plural = entry.map(KgEntry.Table::plural).orElse(t.name() + "s");
        String singular = entry.map(KgEntry.Table::singular).orElse(t.name());
        String key = null;
        List<Category> categories = new ArrayList<>();
        List<Measure> measures = new ArrayList<>();
        List<DateColumn> dates = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            Optional<KgEntry.Column> kc = kg.column(t.name(), c.name());
            String phrase = phrase(c.name(), kc);
            String type = c.type().toUpperCase(Locale.ROOT);
            boolean isKey = kc.map(KgEntry.Column::key).orElse(false) || c.name().toLowerCase(Locale.ROOT).endsWith("_id")
                    || c.name().equalsIgnoreCase("id");
            if (isKey) {
                if (key == null && kc.map(KgEntry.Column::key).orElse(false)) {
                    key = c.name();
                }
            } else if (type.startsWith("DATE") || type.startsWith("TIMESTAMP")) {
                dates.add(new DateColumn(c.name(), phrase, years(ws, t, c.name())));
            } else if (numeric(type)) {
                measure(ws, t, c.name(), phrase, type).ifPresent(measures::add);
            } else if (type.startsWith("VARCHAR")) {
                category(ws, t, c.name(), phrase, kc).ifPresent(categories::add);
            }
        }
        return new Table(t.name(), plural, singular, synonym(entry, plural, singular), t.rows(), key, categories,
                measures, dates);
    }

    /** Another plural for a table's rows from its knowledge-graph synonyms ("customers" for clients), or null. */
    static String synonym(Optional<KgEntry.Table> entry, String plural, String singular) {
        for (String s : entry.map(KgEntry.Table::synonyms).orElse(List.of())) {
            String w = s.strip().toLowerCase(Locale.ROOT);
            if (w.isEmpty() || w.equals(plural) || w.equals(singular) || w.equals(entry.get().name())) {
                continue;
            }
            return w.endsWith("s") ? w : w + "s";
        }
        return null;
    }

    /**
     * What a question calls a column: the knowledge graph's first synonym, else its description when that is a short
     * name ("urban ratio"), else the column's name in words.
     */
    static String phrase(String column, Optional<KgEntry.Column> kc) {
        Optional<String> syn = kc.flatMap(k -> k.synonyms().stream().filter(s -> !s.isBlank()).findFirst());
        Optional<String> described = kc.map(KgEntry.Column::description)
                .filter(d -> d != null && d.length() <= 32 && d.matches("[\\p{L}\\d %-]+"));
        return syn.or(() -> described).orElse(column.replace('_', ' ')).strip().toLowerCase(Locale.ROOT);
    }

    static boolean numeric(String type) {
        return type.matches("(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|REAL|DOUBLE"
                + "|DECIMAL.*|NUMERIC.*)");
    }

    private static Optional<Measure> measure(Workspace ws, TableInfo t, String column, String phrase, String type)
            throws QueryException {
        String c = Sql.quoteIdent(column);
        QueryResult r = ws.trustedQuery("SELECT count(DISTINCT " + c + "), median(" + c + ") FROM " + Sql.quoteTable(t.name()), 1);
        long distinct = ((Number) r.rows().get(0).get(0)).longValue();
        Object median = r.rows().get(0).get(1);
        if (distinct <= 12 || !(median instanceof Number m)) {
            return Optional.empty(); // a few values are codes or counts: grouped by, not summed
        }
        boolean integral = !type.startsWith("DOUBLE") && !type.startsWith("FLOAT") && !type.startsWith("REAL")
                && !type.startsWith("DECIMAL");
        return Optional.of(new Measure(column, phrase, m.doubleValue(), integral));
    }

    private static Optional<Category> category(Workspace ws, TableInfo t, String column, String phrase,
                                               Optional<KgEntry.Column> kc) throws QueryException {
        String c = Sql.quoteIdent(column);
        QueryResult r = ws.trustedQuery("SELECT " + c + ", count(*) AS n FROM " + Sql.quoteTable(t.name()) + " WHERE " + c
                + " IS NOT NULL GROUP BY 1 ORDER BY n DESC, 1 LIMIT " + (MAX_CATEGORY_VALUES + 1), MAX_CATEGORY_VALUES + 1);
        if (r.rows().size() < 2 || r.rows().size() > MAX_CATEGORY_VALUES) {
            return Optional.empty();
        }
        List<String> values = r.rows().stream().map(row -> String.valueOf(row.get(0))).toList();
        return Optional.of(new Category(column, phrase, values, kc.map(KgEntry.Column::codes).orElse(Map.of())));
    }

    private static List<Integer> years(Workspace ws, TableInfo t, String column) throws QueryException {
        String c = Sql.quoteIdent(column);
        QueryResult r = ws.trustedQuery("SELECT DISTINCT CAST(year(" + c + ") AS INTEGER) AS y FROM " + Sql.quoteTable(t.name())
                + " WHERE " + c + " IS NOT NULL ORDER BY y", 200);
        return r.rows().stream().map(row -> ((Number) row.get(0)).intValue()).toList();
    }
}
