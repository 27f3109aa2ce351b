package dev.sift.knowledge;

import dev.sift.data.ColumnInfo;
import dev.sift.data.Containment;
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
 * Keys written in different formats ({@code businessref_12} ↔ {@code businessid_12}) are joined the same way
 * on the number they carry, the join holding the transform as its condition ({@link #formatJoins}); tables no one
 * column links may join on several ({@link SeveralColumnJoins}).
 * Keys and value lists are read where the tables live ({@link Workspace#stats()}): full scans in DuckDB,
 * declared keys and bounded samples on a live engine.
 */
public final class KgBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(KgBuilder.class);
    /** A text column with at most this many distinct values has them listed. */
    public static final int MAX_VALUES = 100;
    /** The unit of a percentage column that holds shares of one ({@link #shareOfOne}). */
    public static final String SHARE_OF_ONE = "share of one";
    private static final Pattern ID = Pattern.compile("(?i)(.+?)_?(id|key|code|no)$");
    /** Names a reference to another table's key may have, in whatever format: {@code business_ref}, {@code cust_no}. */
    private static final Pattern REF = Pattern.compile("(?i).+?_?(id|ref|key|code|no|number)$");

    private KgBuilder() { }

    /** The automatic graph of the workspace's dataset tables (frames are not part of it). */
    public static KnowledgeGraph build(Workspace ws) {
        long t0 = System.nanoTime();
        List<KgEntry> entries = new ArrayList<>();
        List<KgEntry.Column> columns = new ArrayList<>();
        Map<String, KgEntry.Column> primary = new LinkedHashMap<>();
        for (TableInfo t : ws.datasetTables()) {
            List<String> keyCols = keyColumns(ws, t);
            String pk = primaryKey(t, keyCols);
            Map<String, List<String>> values = values(ws, t);
            // "unemployment across industries": its one column of listed text values is what "industry" means
            List<String> listed = t.columns().stream().filter(c -> c.type().startsWith("VARCHAR") && values.containsKey(c.name()))
                    .map(ColumnInfo::name).toList();
            List<String> breakdown = listed.size() == 1 ? NameWords.breakdown(t.name()).map(List::of).orElse(List.of()) : List.of();
            for (ColumnInfo c : t.columns()) {
                Map<String, String> sex = SexCodes.of(ws, t, c);
                Map<String, String> codes = sex.isEmpty() ? InitialCodes.of(c.name(), values.getOrDefault(c.name(), List.of())) : sex;
                KgEntry.Column col = new KgEntry.Column(t.name(), c.name(), c.type(), codes.isEmpty() ? null
                        : sex.isEmpty() ? InitialCodes.READ_AS : SexCodes.READ_AS,
                        shareOfOne(ws, t, c) ? SHARE_OF_ONE : null, codes,
                        values.getOrDefault(c.name(), List.of()), c.sample(), keyCols.contains(c.name()),
                        listed.equals(List.of(c.name())) ? breakdown : List.of(), false);
                columns.add(col);
                if (c.name().equals(pk)) {
                    primary.put(t.name(), col);
                }
            }
            List<KgEntry.Concept> contests = Contests.of(t.name(), columns.stream().filter(c -> c.table().equals(t.name())).toList());
            List<String> synonyms = new ArrayList<>(contests.isEmpty() ? List.of() : List.of("game", "games")); // its rows, said
            if (!t.bareName().equals(t.name())) {
                synonyms.add(t.bareName()); // a table of a source's schema (user_database.review) is also called by its own name
            }
            entries.add(new KgEntry.Table(t.name(), null, t.rows(), List.copyOf(synonyms), false));
            entries.addAll(contests);
        }
        entries.addAll(columns);
        entries.addAll(inferJoins(ws, columns, primary));
        LOG.debug("Automatic knowledge graph of {}: {} entries in {} ms", ws.dataset().name(), entries.size(),
                (System.nanoTime() - t0) / 1_000_000);
        return new KnowledgeGraph(ws.dataset().name(), null, entries);
    }

    /**
     * Whether a number column named as a percentage ("habitat_yearround_pct") holds shares of one: every value from 0
     * to 1, so "more than 90%" of it is 0.9.
     */
    private static boolean shareOfOne(Workspace ws, TableInfo t, ColumnInfo c) {
        if (!c.type().matches("(?i)DOUBLE|FLOAT|REAL|DECIMAL.*|NUMERIC.*") || !"percent".equals(NameWords.unit(c.name())) || t.rows() == 0) {
            return false;
        }
        String col = Sql.quoteIdent(c.name());
        try {
            List<Object> r = ws.query("SELECT min(" + col + "), max(" + col + ") FROM " + t.sqlName()).rows().get(0);
            return r.get(0) instanceof Number lo && r.get(1) instanceof Number hi && lo.doubleValue() >= 0 && hi.doubleValue() <= 1;
        } catch (QueryException e) {
            LOG.warn("Could not read the range of {}.{}: {}", t.name(), c.name(), e.getMessage());
            return false;
        }
    }

    /** Columns that identify rows: non-null and unique, among id-like columns and the first column (a series' date too). */
    private static List<String> keyColumns(Workspace ws, TableInfo t) {
        List<ColumnInfo> candidates = new ArrayList<>();
        for (int i = 0; i < t.columns().size(); i++) {
            ColumnInfo c = t.columns().get(i);
            boolean idLike = ID.matcher(c.name()).matches() || c.name().equalsIgnoreCase("id");
            boolean keyType = isInteger(c.type()) || c.type().startsWith("VARCHAR");
            boolean series = i == 0 && (c.type().equals("DATE") || c.type().startsWith("TIMESTAMP")); // one row per month
            if (keyType && (idLike || i == 0) || series) {
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
            String table = t.bareName().toLowerCase(Locale.ROOT); // business_id in businessinfo_database.business
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
            Containment m = containment(ws, Containment.Pair.plain(c.table(), c.name(), target.table(), target.name()));
            if (m != null && m.coverage() >= CANDIDATE_COVERAGE) {
                joins.add(measured(c, target, m, null));
            }
        }
        joins.addAll(formatJoins(ws, columns, joins));
        joins.addAll(codeJoins(ws, columns, primary, joins));
        joins.addAll(SeveralColumnJoins.find(ws, columns, joins)); // where no one column links two tables
        List<KgEntry.Join> out = new ArrayList<>();
        for (KgEntry.Join j : joins) {
            boolean twoWays = joins.stream().anyMatch(o -> o != j && o.sameTables(j));
            out.add(twoWays ? j.approve(false) : j);
        }
        out.addAll(KeyPairs.find(ws, columns, out)); // candidates the names do not tell, found by their values
        return out;
    }

    private static KgEntry.Join measured(KgEntry.Column c, KgEntry.Column key, Containment m, String on) {
        String card = m.unique() ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE;
        return new KgEntry.Join(c.table() + "_" + c.name(), c.table(), c.name(), key.table(), key.name(), null,
                List.of(), false, m.coverage() >= APPROVE_COVERAGE, card, m.coverage(), on);
    }

    /**
     * Joins of keys written in different formats ({@code review.business_ref} holding {@code businessref_12},
     * {@code business.business_id} holding {@code businessid_12}): a text column with an id-like name that joins
     * nothing as it is, and a key column of another table whose name shares its stem (or whose table its stem
     * names), when their sample values look like codes around a number. The containment is measured on the
     * numbers ({@link KeyFormats#normalise}; bounded on an engine) and judged as any
     * join's; the join carries the transform as its ON condition.
     */
    private static List<KgEntry.Join> formatJoins(Workspace ws, List<KgEntry.Column> columns, List<KgEntry.Join> found) {
        List<KgEntry.Join> out = new ArrayList<>();
        java.util.Set<String> joined = new java.util.HashSet<>();
        found.forEach(j -> joined.add(j.fromTable() + "." + j.fromColumn()));
        for (KgEntry.Column c : columns) {
            if (c.key() || joined.contains(c.table() + "." + c.name()) || !c.type().startsWith("VARCHAR")
                    || !REF.matcher(c.name()).matches()) {
                continue;
            }
            String stem = KeyFormats.stem(c.name());
            for (KgEntry.Column k : columns) {
                if (!k.key() || k.table().equals(c.table()) || !KeyFormats.codes(c.sample(), k.sample())
                        || !(stem.equals(KeyFormats.stem(k.name())) || names(stem, bare(k.table())))) {
                    continue;
                }
                String on = KeyFormats.condition(KgSql.column(c.table(), c.name()), KgSql.column(k.table(), k.name()));
                Containment m = containment(ws, new Containment.Pair(c.table(), c.name(), k.table(), k.name(),
                        KeyFormats::normalise));
                if (m != null && m.coverage() >= CANDIDATE_COVERAGE) {
                    out.add(measured(c, k, m, on));
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Joins of code columns whose names do not point at the key they hold ({@code flights.origin} and
     * {@code flights.destination} hold {@code airports.iata}): a text column not joined yet and another table's text
     * identifier whose sample values are codes of the same shape (letters, digits and length: 'SFO', 'LAX'), measured
     * and judged as any join (the best-covered key when several fit). With no name to go by, a candidate needs
     * {@link #CODE_CANDIDATE_COVERAGE}: five-digit county ids and zip codes share half their values by chance.
     */
    private static List<KgEntry.Join> codeJoins(Workspace ws, List<KgEntry.Column> columns, Map<String, KgEntry.Column> primary,
                                                List<KgEntry.Join> found) {
        List<KgEntry.Join> out = new ArrayList<>();
        java.util.Set<String> joined = new java.util.HashSet<>();
        found.forEach(j -> joined.add(j.fromTable() + "." + j.fromColumn()));
        for (KgEntry.Column c : columns) {
            String shape = codeShape(c.sample());
            if (shape == null || !c.type().startsWith("VARCHAR") || primary.get(c.table()) == c
                    || joined.contains(c.table() + "." + c.name())) {
                continue;
            }
            KgEntry.Join best = null;
            for (KgEntry.Column k : primary.values()) {
                if (k.table().equals(c.table()) || !k.type().startsWith("VARCHAR") || !shape.equals(codeShape(k.sample()))) {
                    continue;
                }
                Containment m = containment(ws, Containment.Pair.plain(c.table(), c.name(), k.table(), k.name()));
                if (m != null && m.coverage() >= CODE_CANDIDATE_COVERAGE && (best == null || m.coverage() > best.coverage())) {
                    best = measured(c, k, m, null);
                }
            }
            if (best != null) {
                out.add(best);
            }
        }
        return out;
    }

    /** A code's shape ('SFO' → "AAA", 'B-12' → "A-99"), or null when the value is no short code. */
    static String codeShape(String sample) {
        if (sample == null || sample.isEmpty() || sample.length() > 12 || !sample.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (char ch : sample.toCharArray()) {
            b.append(Character.isLetter(ch) ? 'A' : Character.isDigit(ch) ? '9' : ch);
        }
        return b.toString();
    }

    /** Whether a column-name stem names a table: {@code loan}, {@code loans}, {@code categories} for {@code category}. */
    private static boolean names(String stem, String table) {
        return !stem.isEmpty() && (table.equals(stem) || table.equals(stem + "s") || table.equals(stem + "es")
                || (stem.endsWith("y") && table.equals(stem.substring(0, stem.length() - 1) + "ies")));
    }

    private static String bare(String table) {
        return table.substring(table.indexOf('.') + 1).toLowerCase(Locale.ROOT);
    }

    /** Share of non-null foreign values an automatic join needs to be approved. */
    public static final double APPROVE_COVERAGE = 0.99;
    /** Share below which a join of codes whose names are unrelated is not even a candidate. */
    public static final double CODE_CANDIDATE_COVERAGE = 0.9;
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
            if (byTable == null && names(stem, e.getKey().toLowerCase(Locale.ROOT))) {
                byTable = k;
            }
        }
        return byTable;
    }

    /** The measured containment of a pair, or null when the column has no values or the check failed. */
    private static Containment containment(Workspace ws, Containment.Pair p) {
        try {
            return ws.stats().containment(p);
        } catch (QueryException e) {
            LOG.warn("Could not check join {}.{} -> {}.{}: {}", p.table(), p.column(), p.keyTable(), p.keyColumn(),
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
