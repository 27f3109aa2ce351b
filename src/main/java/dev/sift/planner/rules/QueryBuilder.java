package dev.sift.planner.rules;

import dev.sift.data.QueryException;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.RowNouns;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * SQL from a {@link QuerySpec}: a FROM clause along approved join paths only (a link that needs a candidate
 * join, or a table reachable two ways, is refused with a question naming the ways), and the SELECT of the spec's shape. Rows multiplied by a
 * one-to-many join are counted once ({@code count(DISTINCT key)}, {@code SELECT DISTINCT}); other aggregates
 * over such a join are built only when the data shows the join is one-to-one under the question's filters
 * (e.g. one OWNER disposition per account), and refused otherwise.
 */
public final class QueryBuilder {
    /** Why a spec cannot be turned into SQL safely; the message is said to the user. */
    public static final class Unsupported extends Exception {
        public Unsupported(String message) {
            super(message);
        }
    }

    /** The SQL and the joins it follows. */
    public record Built(String sql, List<KgEntry.Join> joins) { }

    private final Lexicon lexicon;
    private final Workspace ws;

    public QueryBuilder(Lexicon lexicon, Workspace ws) {
        this.lexicon = lexicon;
        this.ws = ws;
    }

    /** The SQL as it is sent: DuckDB's, rendered for a live engine's tables. */
    public Built build(QuerySpec s) throws Unsupported {
        if (s.measure() != null && s.aggFn() != null && java.util.Set.of("sum", "avg", "median", "stddev_samp").contains(s.aggFn())
                && lexicon.isYearColumn(s.measure())) { // "the average forecast" of budgets' forecastYear is no amount
            throw new Unsupported(s.measure().name() + " holds years, and " + (s.aggFn().equals("sum") ? "a total" : s.aggFn()
                    .equals("avg") ? "an average" : "a median") + " of years is no amount; name the number column you mean");
        }
        Built b = compose(s);
        return new Built(rendered(b.sql()), b.joins());
    }

    private String rendered(String sql) throws Unsupported {
        try {
            return ws.render(sql);
        } catch (QueryException e) {
            throw new Unsupported(e.getMessage());
        }
    }

    /** A filter that keeps an expression's values in a list: "earthquakes.type IN ('explosion', 'quarry blast')". */
    private static final java.util.regex.Pattern IN_LIST = java.util.regex.Pattern.compile("^([\\w.\"()]+) IN \\((.+)\\)$");
    /** A filter that sets one expression to one value: "year(account.date) = 1996", "loan.status = 'D'". */
    static final java.util.regex.Pattern EQUALS = java.util.regex.Pattern.compile("^([\\w.\"()]+) = ('[^']*'|-?\\d+(?:\\.\\d+)?)$");

    /**
     * What every shape's SQL is written from: the FROM clause along the spec's joins (those that fan rows out of the
     * subject listed), the WHERE clause, the subject's key and how its rows are counted once, and the grouping column.
     */
    record From(String sql, List<KgEntry.Join> joins, List<KgEntry.Join> fanning, String where, String subjectKey,
                        String count, String groupSel) {
        boolean fans() {
            return !fanning.isEmpty();
        }
    }

    private Built compose(QuerySpec s) throws Unsupported {
        checkConsistent(s.filters());
        AbsentYears.check(s.filters(), lexicon, ws);
        From f = from(s);
        QuerySpec within = withinYear(s, f);
        if (within != s) {
            s = within;
            f = from(s);
        }
        if (f.fans() && s.shape() == QuerySpec.Shape.COUNT && s.group() != null && !s.group().table().equals(s.subject())) {
            checkOneToOne(f.fanning(), s.filters()); // a row counted under several groups ("loans per client" via disp)
        }
        String sql = switch (s.shape()) {
            case COUNT -> s.group() == null ? "SELECT " + f.count() + " AS n FROM " + f.sql() + f.where()
                    : "SELECT " + f.groupSel() + ", " + f.count() + " AS n FROM " + f.sql() + f.where() + " GROUP BY 1 ORDER BY "
                    + Periods.order(s.group());
            case AGG, METRIC -> aggregate(s, f);
            case SHARE -> share(s, f);
            case TOP_GROUPS -> TiesAtCut.checked(topGroups(s, f), s.group().name() + " values", ws);
            case TOP_ROWS -> topRows(s, f);
            case LIST -> "SELECT " + (f.fans() ? "DISTINCT " : "") + KgSql.table(s.subject()) + ".* FROM " + f.sql() + f.where()
                    + (f.subjectKey() == null ? "" : " ORDER BY " + f.subjectKey());
            case COLUMNS -> columns(s, f);
            case CHANGE, PERCENT_CHANGE -> PeriodQueries.change(s, f);
            case PERIOD_TOTALS -> PeriodQueries.periodTotals(s, f);
        };
        return new Built(sql, f.joins());
    }

    /**
     * A spec grouped by months or quarters of rows that span one year, grouped by the same periods named without the year
     * ("March", "Q1"); any other spec as it is.
     */
    private QuerySpec withinYear(QuerySpec s, From f) throws Unsupported {
        Optional<Sense.Attr> within = Periods.withinYear(s.group());
        if (within.isEmpty()) {
            return s;
        }
        String years = "SELECT count(DISTINCT year(" + Periods.read(s.group()).orElseThrow().date() + ")) FROM " + f.sql() + f.where();
        try {
            if (!(ws.trustedQuery(years, 1).scalar() instanceof Number n) || n.longValue() != 1) {
                return s;
            }
        } catch (QueryException e) {
            throw new Unsupported("could not count the years of " + s.group().name() + ": " + e.getMessage());
        }
        return new QuerySpec(s.shape(), s.subject(), s.aggFn(), s.measure(), s.metric(), within.get(), s.filters(), s.links(),
                s.limit(), s.descending(), s.share(), s.columns(), s.distinct());
    }

    /**
     * How many rows make each group of a grouped spec — all of them for a period of a date, with the days each has data
     * on; otherwise only the small groups and the one of rows with no group — for the answer's notes ({@link GroupNotes}).
     * Columns: the group, its rows, the rows its measure has a value in, and for a period the days.
     */
    public dev.sift.data.QueryResult groupSizes(QuerySpec s) throws Unsupported {
        From f = from(s);
        QuerySpec p = withinYear(s, f);
        if (p != s) {
            f = from(p);
        }
        String measured = p.measure() != null ? "count(" + p.measure().sql() + ")" : f.count();
        Optional<Periods.Of> period = Periods.read(p.group()).filter(o -> o.grain().timeline());
        String sql = "SELECT " + f.groupSel() + ", " + f.count() + " AS n, " + measured + " AS measured"
                + period.map(o -> ", count(DISTINCT CAST(" + o.date() + " AS DATE)) AS days").orElse("") + " FROM " + f.sql()
                + f.where() + " GROUP BY 1" + (period.isPresent() ? " ORDER BY " + Periods.order(p.group()) : " HAVING " + p.group().sql() + " IS NULL OR "
                + measured + " < " + GroupNotes.SMALL);
        try {
            return ws.trustedQuery(sql, 10_000);
        } catch (QueryException e) {
            throw new Unsupported("could not count the rows of each group: " + e.getMessage());
        }
    }

    private From from(QuerySpec s) throws Unsupported {
        List<KgEntry.Join> joins = joins(s);
        List<KgEntry.Join> fanning = new ArrayList<>();
        Set<String> reached = new LinkedHashSet<>();
        String from = from(s.subject(), joins, fanning, reached);
        Set<String> needed = new LinkedHashSet<>();
        s.filters().forEach(f -> needed.add(f.table()));
        s.share().forEach(f -> needed.add(f.table()));
        s.columns().forEach(c -> needed.add(c.table()));
        if (s.group() != null) {
            needed.add(s.group().table());
        }
        if (s.measure() != null) {
            needed.add(s.measure().table());
        }
        for (String t : needed) {
            if (!reached.contains(t.toLowerCase(Locale.ROOT))) {
                throw new Unsupported("I could not tell how " + t + " relates to " + s.subject() + " in this question");
            }
        }
        List<String> where = s.filters().stream().map(QuerySpec.Filter::sql).toList();
        String subjectKey = lexicon.key(s.subject()).map(c -> KgSql.column(c.table(), c.name())).orElse(null);
        String count = fanning.isEmpty() ? "count(*)" : distinctCount(subjectKey, s.subject());
        String groupSel = s.group() == null ? null : s.group().sql() + " AS " + KgSql.ident(alias(s.group()));
        return new From(from, joins, fanning, where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where), subjectKey,
                count, groupSel);
    }

    private String aggregate(QuerySpec s, From f) throws Unsupported {
        if (f.fans()) {
            checkOneToOne(f.fanning(), s.filters());
        }
        String m = !"range".equals(s.aggFn()) ? measure(s) + " AS " + KgSql.ident(measureAlias(s)) // "the range of", "min and max"
                : "min(" + s.measure().sql() + ") AS " + KgSql.ident("min_" + alias(s.measure())) + ", max(" + s.measure().sql() + ") AS "
                + KgSql.ident("max_" + alias(s.measure()));
        return s.group() == null ? "SELECT " + m + " FROM " + f.sql() + f.where()
                : "SELECT " + f.groupSel() + ", " + m + " FROM " + f.sql() + f.where() + " GROUP BY 1 ORDER BY "
                + Periods.order(s.group());
    }

    /**
     * The percentage of the subject's rows meeting the share's conditions, among the rows the filters keep. Conditions
     * and filters on the subject's own columns are tested on its rows; one on another table is a semi-join along the
     * question's joins ("male clients who have weekly statements": clients with an account whose frequency is weekly), so
     * each subject row counts once whatever the join repeats.
     */
    private String share(QuerySpec s, From f) throws Unsupported {
        boolean own = s.share().stream().allMatch(c -> c.table().equals(s.subject()))
                && s.filters().stream().allMatch(c -> c.table().equals(s.subject()));
        if (own && !f.fans() && "distinct".equals(s.aggFn())) { // "what percentage of counties have …": of their values
            return "SELECT 100.0 * count(DISTINCT CASE WHEN " + and(s.share()) + " THEN " + s.measure().sql() + " END) / count(DISTINCT "
                    + s.measure().sql() + ") AS percent FROM " + f.sql() + f.where();
        }
        if (own && !f.fans() && s.measure() != null) { // a share of an amount: the part's total over the whole's
            return "SELECT 100.0 * sum(CASE WHEN " + and(s.share()) + " THEN " + s.measure().sql() + " ELSE 0 END) / sum("
                    + s.measure().sql() + ") AS percent FROM " + f.sql() + f.where();
        }
        if (s.measure() != null) {
            throw new Unsupported("a share of " + s.measure().name() + " across a join may count its values more than once");
        }
        if (own && !f.fans()) {
            return "SELECT 100.0 * avg(CASE WHEN " + and(s.share()) + " THEN 1 ELSE 0 END) AS percent FROM " + f.sql() + f.where();
        }
        if (f.subjectKey() == null) {
            throw new Unsupported("table " + s.subject() + " has no key column, so a share across a join cannot count its rows once");
        }
        Optional<String> unnamed = existenceOnly(s, f);
        if (unnamed.isPresent()) {
            throw new Unsupported("the question narrows the " + s.subject() + " rows by their " + unnamed.get() + " rows, and"
                    + " I cannot tell whether that narrows the rows counted or the rows they are a percentage of");
        }
        List<String> where = new ArrayList<>();
        List<QuerySpec.Filter> others = new ArrayList<>();
        for (QuerySpec.Filter c : s.filters()) {
            if (c.table().equals(s.subject())) {
                where.add(c.sql());
            } else {
                others.add(c);
            }
        }
        if (!others.isEmpty()) {
            where.add(semiJoin(f, others));
        }
        return "SELECT 100.0 * avg(CASE WHEN " + semiJoin(f, s.share()) + " THEN 1 ELSE 0 END) AS percent FROM "
                + KgSql.table(s.subject()) + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where));
    }

    /**
     * Two values for one expression joined by AND ("accounts opened in 1996 than in 1993" read as year = 1996 and
     * year = 1993) hold for no row: the question compares or lists alternatives, which this reading does not say.
     */
    private static void checkConsistent(List<QuerySpec.Filter> filters) throws Unsupported {
        Map<String, String> valueOf = new HashMap<>();
        for (QuerySpec.Filter c : filters) {
            java.util.regex.Matcher m = EQUALS.matcher(c.sql());
            java.util.regex.Matcher in = IN_LIST.matcher(c.sql());
            if (in.matches() && filters.stream().map(f -> EQUALS.matcher(f.sql())).anyMatch(e -> e.matches() && e.group(1).equals(in.group(1))
                    && !java.util.Arrays.asList(in.group(2).split(", ")).contains(e.group(2)))) { // "earthquakes and explosions or …"
                throw new Unsupported("the question gives " + in.group(1) + " a value and a list of others (" + in.group(2)
                        + "), which no row has at once; ask for each, or for a comparison of them");
            }
            if (!m.matches()) {
                continue;
            }
            String before = valueOf.putIfAbsent(m.group(1), m.group(2));
            if (before != null && !before.equals(m.group(2))) {
                throw new Unsupported("the question gives " + m.group(1) + " two values (" + before + " and " + m.group(2)
                        + "), which no row has at once; ask for each, or for a comparison of the two");
            }
        }
    }

    /** Whether {@code a} is a key column of its table (an identifier). */
    private boolean isKey(Sense.Attr a) {
        int dot = a.name().indexOf('.');
        return dot > 0 && lexicon.graph().column(a.table(), a.name().substring(dot + 1)).map(KgEntry.Column::key)
                .orElse(false);
    }

    /**
     * A table the share joins at the end of a path ("accounts that have a loan") that no condition names: it only
     * requires such rows to exist, and the spec does not say on which side of the percentage.
     */
    private static Optional<String> existenceOnly(QuerySpec s, From f) {
        Set<String> named = new HashSet<>();
        s.filters().forEach(c -> named.add(c.table()));
        s.share().forEach(c -> named.add(c.table()));
        Map<String, Integer> joinsOf = new HashMap<>();
        for (KgEntry.Join j : f.joins()) {
            joinsOf.merge(j.fromTable(), 1, Integer::sum);
            joinsOf.merge(j.toTable(), 1, Integer::sum);
        }
        return joinsOf.entrySet().stream().filter(e -> e.getValue() == 1 && !e.getKey().equals(s.subject())
                && !named.contains(e.getKey())).map(Map.Entry::getKey).findFirst();
    }

    private static String semiJoin(From f, List<QuerySpec.Filter> conditions) {
        return f.subjectKey() + " IN (SELECT " + f.subjectKey() + " FROM " + f.sql() + " WHERE " + and(conditions) + ")";
    }

    private static String and(List<QuerySpec.Filter> filters) {
        return String.join(" AND ", filters.stream().map(QuerySpec.Filter::sql).toList());
    }

    private String topGroups(QuerySpec s, From f) throws Unsupported {
        String m;
        if (s.metric() == null && s.aggFn() == null) {
            m = f.count() + " AS n";
        } else {
            if (f.fans()) {
                checkOneToOne(f.fanning(), s.filters());
            }
            m = measure(s) + " AS " + KgSql.ident(measureAlias(s));
        }
        String dir = s.descending() ? "DESC" : "ASC";
        String limit = s.limit() == null ? "" : " LIMIT " + s.limit(); // none: every group, ranked ("…, highest first")
        // a missing value is no group: it never wins a ranking ("Director NULL has the most movies")
        String where = (f.where().isEmpty() ? " WHERE " : f.where() + " AND ") + s.group().sql() + " IS NOT NULL";
        Optional<Sense.Attr> named = rowName(s.group());
        if (named.isPresent()) { // ranked rows of a table: their name first, then the key that groups them
            return "SELECT " + named.get().sql() + ", " + f.groupSel() + ", " + m + " FROM " + f.sql() + where
                    + " GROUP BY 1, 2 ORDER BY 3 " + dir + ", 2" + limit;
        }
        return "SELECT " + f.groupSel() + ", " + m + " FROM " + f.sql() + where + " GROUP BY 1 ORDER BY 2 " + dir + ", 1" + limit;
    }

    private String topRows(QuerySpec s, From f) throws Unsupported {
        if (isKey(s.measure())) { // "the five largest loans" are no five highest loan ids
            throw new Unsupported("the ranking would order the " + s.subject() + " rows by " + s.measure().name()
                    + ", an identifier: a label, not a size; name what to rank them by");
        }
        Optional<Sense.Attr> label = lexicon.nameColumn(s.subject()).or(() -> lexicon.label(s.subject()));
        String order = " ORDER BY " + s.measure().sql() + " " + (s.descending() ? "DESC" : "ASC") + " NULLS LAST"
                + (f.subjectKey() == null ? "" : ", " + f.subjectKey());
        if (!s.columns().isEmpty()) { // "which country and year had the lowest life expectancy": both, and the value
            String value = s.measure().sql().contains(" ") ? s.measure().sql() + " AS " + KgSql.ident(alias(s.measure()))
                    : s.measure().sql(); // a concept's expression, named by the concept ("combined_score")
            return "SELECT " + String.join(", ", s.columns().stream().map(Sense.Attr::sql).toList()) + ", " + value
                    + " FROM " + f.sql() + f.where() + order + " LIMIT " + s.limit();
        }
        String place = label.map(l -> besideTitle(l, s.measure())).orElse("");
        if (s.limit() == 1 && label.isPresent()) { // "which district has the highest salary": the name and its value
            return "SELECT " + label.get().sql() + ", " + place + s.measure().sql() + " FROM " + f.sql() + f.where() + order + " LIMIT 1";
        }
        Set<String> cols = new LinkedHashSet<>();
        if (f.subjectKey() != null) {
            cols.add(f.subjectKey());
        }
        label.ifPresent(l -> cols.add(l.sql() + (place.isEmpty() ? "" : ", " + place.substring(0, place.length() - 2))));
        cols.add(s.measure().sql());
        return "SELECT " + (f.fans() ? "DISTINCT " : "") + String.join(", ", cols) + " FROM " + f.sql() + f.where() + order
                + " LIMIT " + s.limit();
    }

    /** What a title is shown with ("quake's title, place, time and magnitude, "): the place, when, and numbers written into it. */
    private String besideTitle(Sense.Attr label, Sense.Attr measure) {
        if (!TableNouns.title(label)) {
            return "";
        }
        List<KgEntry.Column> columns = lexicon.graph().columns(label.table());
        Set<String> shown = new LinkedHashSet<>();
        RowNouns.place(columns).ifPresent(p -> shown.add(Lexicon.attr(p).sql()));
        lexicon.dateColumn(label.table()).ifPresent(d -> shown.add(d.sql()));
        lexicon.graph().column(label.table(), label.column()).ifPresent(t -> RowNouns.titleNumbers(columns, t)
                .forEach(c -> shown.add(Lexicon.attr(c).sql())));
        shown.remove(measure.sql());
        return shown.stream().map(c -> c + ", ").collect(java.util.stream.Collectors.joining());
    }

    /**
     * The columns asked for, one row per row of the finest table the question reads (the one every other is reached
     * from without repeating rows: the client for "the region of the client", the transaction for "the amounts of
     * account 5's transactions"), with that table's key after them unless the filters name one row of it; with no such
     * table, the distinct values of the columns.
     */
    private String columns(QuerySpec s, From f) throws Unsupported {
        if (s.group() != null && !oneRowEach(s.group(), f)) { // "of each species in county 06037": one row each?
            throw new Unsupported("each " + s.group().name() + " has several rows here, so its " + s.columns().get(1).name()
                    + " is not one value; ask for their total or average by " + s.group().name());
        }
        List<String> cols = new ArrayList<>();
        for (Sense.Attr c : s.columns()) {
            cols.add(c.sql() + " AS " + KgSql.ident(alias(c)));
        }
        Optional<String> grain = s.distinct() ? Optional.empty() : grain(s, f);
        if (grain.isEmpty()) {
            List<String> compared = ComparedShown.of(s); // each value with the number it qualified on
            return "SELECT " + (compared.isEmpty() ? "DISTINCT " + String.join(", ", cols) : String.join(", ", cols) + ", "
                    + String.join(", ", compared)) + " FROM " + f.sql() + f.where() + (compared.isEmpty() ? "" : " GROUP BY ALL") + " ORDER BY 1";
        }
        String table = grain.get();
        String key = lexicon.key(table).map(k -> KgSql.column(table, k.name())).orElse(null);
        boolean asked = s.columns().stream().anyMatch(c -> c.sql().equals(key));
        if (key != null && !asked && !ColumnRules.pinned(s.filters(), table, lexicon)) {
            cols.add(key);
        }
        String order = s.group() != null ? s.group().sql() + (key == null ? "" : ", " + key) : key; // "of each species": by species
        return "SELECT " + String.join(", ", cols) + " FROM " + f.sql() + f.where() + (order == null ? "" : " ORDER BY " + order);
    }

    /** Whether the rows {@code f} picks have one row for each value of {@code column} (a failed check counts as no). */
    private boolean oneRowEach(Sense.Attr column, From f) {
        try {
            return Boolean.TRUE.equals(ws.trustedQuery("SELECT count(*) = count(DISTINCT " + column.sql() + ") FROM " + f.sql()
                    + f.where(), 1).scalar());
        } catch (QueryException e) {
            return false;
        }
    }

    /** The table of the spec every other is reached from along many-to-one joins, or empty when none is. */
    private Optional<String> grain(QuerySpec s, From f) throws Unsupported {
        if (!f.fans()) {
            return Optional.of(s.subject());
        }
        Set<String> tables = new LinkedHashSet<>();
        f.joins().forEach(j -> {
            tables.add(j.fromTable());
            tables.add(j.toTable());
        });
        for (String t : tables) {
            List<KgEntry.Join> fanning = new ArrayList<>();
            from(t, f.joins(), fanning, new LinkedHashSet<>());
            if (fanning.isEmpty()) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Two alternatives compared by one number each ({@link Comparison}): the one that wins first ("more" or "fewer" as
     * the question asks), then each alternative's number under its own words.
     */
    public Built compare(QuerySpec a, QuerySpec b, Comparison.Sides sides) throws Unsupported {
        Built x = compose(a);
        Built y = compose(b);
        String op = sides.more() ? " > " : " < ";
        String sql = "SELECT CASE WHEN a IS NULL OR b IS NULL THEN 'unknown: a value is missing' WHEN a" + op + "b THEN "
                + dev.sift.data.Sql.quoteString(sides.labelA()) + " WHEN b" + op + "a THEN " + dev.sift.data.Sql.quoteString(sides.labelB())
                + " ELSE 'neither: they are equal' END AS " + KgSql.ident(sides.word().toLowerCase(Locale.ROOT)) + ", a AS "
                + dev.sift.data.Sql.quoteIdent(sides.labelA()) + ", b AS " + dev.sift.data.Sql.quoteIdent(sides.labelB())
                + " FROM (SELECT (" + x.sql() + ") AS a, (" + y.sql() + ") AS b) AS compared";
        List<KgEntry.Join> joins = new ArrayList<>(x.joins());
        y.joins().stream().filter(j -> !joins.contains(j)).forEach(joins::add);
        return new Built(rendered(sql), joins);
    }

    /** The name column of the table a grouping by its key ranks ("top 3 products": product_name), or empty. */
    private Optional<Sense.Attr> rowName(Sense.Attr group) {
        Optional<KgEntry.Column> key = lexicon.key(group.table());
        if (key.isEmpty() || !key.get().qualified().equals(group.name())) {
            return Optional.empty();
        }
        return lexicon.nameColumn(group.table()).filter(n -> !n.name().equals(group.name()));
    }

    private static String distinctCount(String key, String subject) throws Unsupported {
        if (key == null) {
            throw new Unsupported("table " + subject + " has no key column, so rows repeated by the join cannot be counted once");
        }
        return "count(DISTINCT " + key + ")";
    }

    static String measure(QuerySpec s) {
        if (s.metric() != null) {
            return s.metric().expression();
        }
        return s.aggFn().equals("distinct") ? "count(DISTINCT " + s.measure().sql() + ")" : s.aggFn() + "(" + s.measure().sql() + ")";
    }

    static String measureAlias(QuerySpec s) {
        if (s.metric() != null) {
            return s.metric().name();
        }
        return s.aggFn() + "_" + alias(s.measure());
    }

    static String alias(Sense.Attr a) {
        String n = a.column();
        return n.replaceAll("[^A-Za-z0-9_]+", "_").replaceAll("^_+|_+$", "");
    }

    /** The joins of every link, approved ones only, without duplicates. */
    private List<KgEntry.Join> joins(QuerySpec s) throws Unsupported {
        List<KgEntry.Join> out = new ArrayList<>();
        for (QuerySpec.Link l : s.links()) {
            if (l.from().equals(l.to())) {
                continue;
            }
            List<KgEntry.Join> path;
            if (l.via() != null && l.via().other(l.from()) != null && l.via().other(l.from()).equals(l.to())) {
                path = List.of(l.via());
            } else {
                path = path(l.from(), l.to());
            }
            for (KgEntry.Join j : path) {
                if (!j.approved()) {
                    throw new Unsupported("joining " + l.from() + " and " + l.to() + " would need the join "
                            + j.written() + ", which is only a candidate (" + candidateWhy(j) + "); approve it under"
                            + " join_paths in the knowledge file (sift kg init " + ws.dataset().name() + ")");
                }
                if (!out.contains(j)) {
                    out.add(j);
                }
            }
        }
        return out;
    }

    /**
     * The one shortest approved path between two tables. Two or more equally short ones (or, with none approved,
     * two candidates) are a question for the user, which the refusal names; a knowledge file's join wins.
     */
    private List<KgEntry.Join> path(String from, String to) throws Unsupported {
        var kg = lexicon.graph();
        List<List<KgEntry.Join>> paths = kg.shortestPaths(from, to, true);
        if (paths.isEmpty()) {
            paths = kg.shortestPaths(from, to, false);
        }
        if (paths.isEmpty()) {
            throw new Unsupported("the knowledge graph has no join path between " + from + " and " + to);
        }
        if (paths.size() > 1 && curated(paths.get(0)) == curated(paths.get(1))
                && kg.sharedDimensions(paths.get(0), from) == kg.sharedDimensions(paths.get(1), from)) {
            throw new Unsupported(from + " and " + to + " are related in " + (paths.size() == 2 ? "two" : "several")
                    + " ways: " + paths.stream().map(p -> p.stream().map(KgEntry.Join::written)
                    .collect(Collectors.joining(" and "))).collect(Collectors.joining(", or ")) + ". Which one do you mean?"
                    + " Say it in the question (name the column), or approve one under join_paths in the knowledge file");
        }
        return paths.get(0);
    }

    private static long curated(List<KgEntry.Join> path) {
        return path.stream().filter(KgEntry.Join::curated).count();
    }

    private String candidateWhy(KgEntry.Join j) {
        if (lexicon.graph().joins().stream().anyMatch(o -> o != j && o.sameTables(j))) {
            return "the tables are related in more than one way";
        }
        return String.format(Locale.ROOT, "%.1f %% of %s values are found in %s; %.0f %% are needed",
                100 * j.coverage(), j.fromWritten(), j.toWritten(),
                100 * dev.sift.knowledge.KgBuilder.APPROVE_COVERAGE);
    }

    /** FROM subject JOIN … in an order each ON clause can follow; records the joins that fan rows out. */
    private static String from(String subject, List<KgEntry.Join> joins, List<KgEntry.Join> fanning, Set<String> in)
            throws Unsupported {
        StringBuilder b = new StringBuilder(KgSql.table(subject));
        in.add(subject.toLowerCase(Locale.ROOT));
        List<KgEntry.Join> pending = new ArrayList<>(joins);
        while (!pending.isEmpty()) {
            boolean progressed = false;
            for (var it = pending.iterator(); it.hasNext(); ) {
                KgEntry.Join j = it.next();
                boolean fromIn = in.contains(j.fromTable().toLowerCase(Locale.ROOT));
                boolean toIn = in.contains(j.toTable().toLowerCase(Locale.ROOT));
                if (fromIn && toIn) {
                    throw new Unsupported("table " + j.toTable() + " and " + j.fromTable() + " would be reached two ways;"
                            + " I join along one path only");
                }
                if (fromIn == toIn) {
                    continue;
                }
                String add = fromIn ? j.toTable() : j.fromTable();
                if (!fromIn) {
                    fanning.add(j); // from the one side to the many side
                }
                b.append(" JOIN ").append(KgSql.table(add)).append(" ON ").append(j.condition());
                in.add(add.toLowerCase(Locale.ROOT));
                it.remove();
                progressed = true;
            }
            if (!progressed) {
                throw new Unsupported("the joins do not connect: " + pending.stream().map(KgEntry.Join::condition)
                        .collect(Collectors.joining(", ")));
            }
        }
        return b.toString();
    }

    /** An aggregate across a one-to-many join is safe only when, under the filters, each row meets one partner. */
    private void checkOneToOne(List<KgEntry.Join> fanning, List<QuerySpec.Filter> filters) throws Unsupported {
        for (KgEntry.Join j : fanning) {
            String many = j.fromTable();
            List<String> cols = j.fromColumns().stream().map(c -> KgSql.column(many, c)).toList();
            String fk = cols.size() == 1 ? cols.get(0) : "(" + String.join(", ", cols) + ")"; // a tuple of several
            List<String> own = filters.stream().filter(f -> f.table().equals(many)).map(QuerySpec.Filter::sql).toList();
            String sql = "SELECT count(*) = count(DISTINCT " + fk + ") FROM " + KgSql.table(many)
                    + (own.isEmpty() ? "" : " WHERE " + String.join(" AND ", own));
            try {
                Object one = ws.trustedQuery(sql, 1).scalar();
                if (!Boolean.TRUE.equals(one)) {
                    throw new Unsupported("an " + j.toTable() + " can have several " + many + " rows"
                            + (own.isEmpty() ? "" : " even with " + String.join(" and ", own))
                            + ", so the aggregate would count some rows more than once");
                }
            } catch (QueryException e) {
                throw new Unsupported("could not check the join " + j.condition() + ": " + e.getMessage());
            }
        }
    }
}
