package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One node of a {@link KnowledgeGraph}. Every entry has a stable {@link #id} of the form {@code kind:name}
 * (e.g. {@code metric:default_rate}, {@code column:loan.status}), the {@link #phrases} a question may use
 * for it, and a one-line {@link #describe} for prompts. Entries are immutable values.
 */
public sealed interface KgEntry {

    enum Kind {
        TABLE, COLUMN, CONCEPT, METRIC, JOIN, DISAMBIGUATION, VALUE_ALIAS;

        /** The id prefix and YAML section word: {@code table}, {@code value_alias}, … */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    String id();

    Kind kind();

    /** Words a question may use for this entry (name, synonyms, trigger phrases); may be empty. */
    List<String> phrases();

    /** One compact line for prompts and {@code query_kg} listings. */
    String describe();

    /** Whether the entry comes from a curated file (true) or was derived from the data (false). */
    boolean curated();

    /** A dataset table; {@code rows} from the live data. */
    record Table(String name, String description, long rows, List<String> synonyms, boolean curated)
            implements KgEntry {
        public String id() {
            return "table:" + name;
        }

        public Kind kind() {
            return Kind.TABLE;
        }

        public List<String> phrases() {
            List<String> p = new ArrayList<>(synonyms);
            p.add(0, name);
            NameWords.tablePhrases(name).stream().filter(w -> !p.contains(w)).forEach(p::add);
            return p;
        }

        public String describe() {
            return "table " + name + " (" + rows + " rows)" + (description == null ? "" : ": " + description);
        }

        /**
         * What one row is called in an answer, plural: the one-word synonym that is the name or another synonym
         * with an "s" ("loans", "transactions" for trans), else the name with an "s" ("orders").
         */
        public String plural() {
            List<String> words = phrases().stream().filter(w -> !w.isBlank() && !w.contains(" ")).toList();
            for (String w : words) {
                if (w.endsWith("s") && words.contains(w.substring(0, w.length() - 1))) {
                    return w;
                }
            }
            // a name of several words ("iowa_electricity") is no noun to put in the plural: its rows
            return name.endsWith("s") ? name : NameWords.split(name).size() > 1 ? name + " rows" : name + "s";
        }

        /** What one row is called in an answer ("loan", "transaction"). */
        public String singular() {
            String p = plural();
            return p.equals(name) || !p.endsWith("s") ? name : p.substring(0, p.length() - 1);
        }
    }

    /**
     * A column. {@code codes} translates stored codes (e.g. loan.status 'B' → "finished, not paid");
     * {@code values} lists the distinct values of a low-cardinality text column (empty otherwise);
     * {@code key} marks a unique, non-null identifier column.
     */
    record Column(String table, String name, String type, String description, String unit,
                  Map<String, String> codes, List<String> values, String sample, boolean key,
                  List<String> synonyms, boolean curated) implements KgEntry {
        public String id() {
            return "column:" + table + "." + name;
        }

        public Kind kind() {
            return Kind.COLUMN;
        }

        /** {@code table.column} */
        public String qualified() {
            return table + "." + name;
        }

        public List<String> phrases() {
            List<String> p = new ArrayList<>(synonyms);
            // a readable name as people say it ("IMDB Rating", "weight" for Weight_in_lbs), not a code like A12
            p.addAll(0, NameWords.columnPhrases(name));
            return p;
        }

        public String describe() {
            StringBuilder b = new StringBuilder("column ").append(qualified()).append(' ').append(type);
            if (key) {
                b.append(" (key)");
            }
            if (description != null) {
                b.append(": ").append(description);
            }
            if (unit != null) {
                b.append(" [").append(unit).append(']');
            }
            if (!codes.isEmpty()) {
                b.append("; codes: ");
                int i = 0;
                for (Map.Entry<String, String> c : codes.entrySet()) {
                    b.append(i++ == 0 ? "" : ", ").append('\'').append(c.getKey()).append("' = ").append(c.getValue());
                }
            } else if (!values.isEmpty()) {
                b.append("; values: ");
                int shown = Math.min(values.size(), 12);
                for (int i = 0; i < shown; i++) {
                    b.append(i == 0 ? "" : ", ").append('\'').append(values.get(i)).append('\'');
                }
                if (values.size() > shown) {
                    b.append(", … (").append(values.size()).append(" in all)");
                }
            }
            return b.toString();
        }

        public Column withCuration(String description, String unit, Map<String, String> codes, List<String> synonyms) {
            Map<String, String> merged = new LinkedHashMap<>(this.codes);
            merged.putAll(codes);
            List<String> syn = new ArrayList<>(this.synonyms);
            syn.addAll(synonyms);
            return new Column(table, name, type, description == null ? this.description : description,
                    unit == null ? this.unit : unit, java.util.Collections.unmodifiableMap(merged), values, sample,
                    key, List.copyOf(syn), true);
        }
    }

    /**
     * A business term: what a word in a question means in this dataset. It names a {@code table} (an entity:
     * "customer" → client), a {@code column} ({@code table.column}: "lives in" → client.district_id), or an
     * SQL {@code expression} over {@code table} (e.g. a derived attribute), with the trigger phrases that call it.
     */
    record Concept(String name, String description, List<String> synonyms, String table, String column,
                   String expression, boolean curated) implements KgEntry {
        public String id() {
            return "concept:" + name;
        }

        public Kind kind() {
            return Kind.CONCEPT;
        }

        public List<String> phrases() {
            return synonyms;
        }

        public String describe() {
            String target = column != null ? "column " + column : expression != null ? "expression " + expression
                    + " on " + table : "table " + table;
            return "concept " + name + " → " + target + (description == null ? "" : ": " + description);
        }
    }

    /**
     * A named measure: an SQL aggregate {@code expression} whose rows are {@code grain} (one row per grain
     * row before aggregation), written with {@code table.column} references; {@code tables} lists every table
     * the expression needs (grain first), to be joined along approved join paths.
     */
    record Metric(String name, String description, List<String> synonyms, String expression, String grain,
                  List<String> tables, String unit, boolean curated) implements KgEntry {
        public String id() {
            return "metric:" + name;
        }

        public Kind kind() {
            return Kind.METRIC;
        }

        public List<String> phrases() {
            return synonyms;
        }

        public String describe() {
            return "metric " + name + " = " + expression + " (per " + grain + " row" + (unit == null ? "" : ", " + unit)
                    + ")" + (description == null ? "" : ": " + description);
        }
    }

    /**
     * A join {@code fromTable.fromColumn = toTable.toColumn}, many-to-one (or one-to-one) towards {@code to}; a join on
     * several columns ({@code deps.system = packages.system AND deps.name = packages.name AND …}) has its first pair in
     * {@code fromColumn}/{@code toColumn} and the others, in order, in {@code more} (empty for a one-column join, so
     * everything that reads one pair still reads the first). {@code meaning} says what following it means ("the
     * district where the client lives"). A join is {@code approved} when a knowledge file lists it ({@code curated})
     * or when the data proves it a key → foreign-key pair ({@link KgBuilder}); an unapproved join is a candidate that
     * planners do not follow. {@code cardinality} is {@code many-to-one} or {@code one-to-one} when measured, else
     * null; {@code coverage} the share of non-null foreign values (tuples, for several columns) found in the key (1.0
     * when not measured). {@code on} is the ON condition when the two columns do not join as they are (keys in
     * different formats, compared through {@link KeyFormats#normalise}); null for plain equality.
     */
    record Join(String name, String fromTable, String fromColumn, String toTable, String toColumn, String meaning,
                List<String> synonyms, boolean curated, boolean approved, String cardinality, double coverage, String on,
                List<Pair> more)
            implements KgEntry {
        public static final String MANY_TO_ONE = "many-to-one";
        public static final String ONE_TO_ONE = "one-to-one";
        /** How a join of keys in different formats is described to people and models. */
        public static final String FORMATS = "keys differ in format, joined on the number they carry";

        /** One column pair of a join: {@code fromTable.from = toTable.to}. */
        public record Pair(String from, String to) { }

        public Join {
            more = more == null ? List.of() : List.copyOf(more);
        }

        /** A one-column join, measured (with its ON transform, or null) or declared. */
        public Join(String name, String fromTable, String fromColumn, String toTable, String toColumn, String meaning,
                    List<String> synonyms, boolean curated, boolean approved, String cardinality, double coverage, String on) {
            this(name, fromTable, fromColumn, toTable, toColumn, meaning, synonyms, curated, approved, cardinality,
                    coverage, on, List.of());
        }

        /** A join on equal values, measured or declared. */
        public Join(String name, String fromTable, String fromColumn, String toTable, String toColumn, String meaning,
                    List<String> synonyms, boolean curated, boolean approved, String cardinality, double coverage) {
            this(name, fromTable, fromColumn, toTable, toColumn, meaning, synonyms, curated, approved, cardinality,
                    coverage, null);
        }

        /** A join as written in a knowledge file (approved) or an unmeasured inferred one (a candidate). */
        public Join(String name, String fromTable, String fromColumn, String toTable, String toColumn, String meaning,
                    List<String> synonyms, boolean curated) {
            this(name, fromTable, fromColumn, toTable, toColumn, meaning, synonyms, curated, curated, null, 1.0);
        }

        /** A join on the column pairs {@code pairs} (at least one), on equal values. */
        public static Join on(String name, String fromTable, String toTable, List<Pair> pairs, String meaning,
                              List<String> synonyms, boolean curated, boolean approved, String cardinality, double coverage) {
            return new Join(name, fromTable, pairs.get(0).from(), toTable, pairs.get(0).to(), meaning, synonyms, curated,
                    approved, cardinality, coverage, null, pairs.subList(1, pairs.size()));
        }

        /** Every column pair, the first one first. */
        public List<Pair> pairs() {
            List<Pair> all = new java.util.ArrayList<>(1 + more.size());
            all.add(new Pair(fromColumn, toColumn));
            all.addAll(more);
            return all;
        }

        /** Whether the join needs more than one column pair. */
        public boolean severalColumns() {
            return !more.isEmpty();
        }

        /** The referring columns, in pair order. */
        public List<String> fromColumns() {
            return pairs().stream().map(Pair::from).toList();
        }

        /** The key columns, in pair order. */
        public List<String> toColumns() {
            return pairs().stream().map(Pair::to).toList();
        }

        public String id() {
            return "join:" + name;
        }

        public Kind kind() {
            return Kind.JOIN;
        }

        public List<String> phrases() {
            return synonyms;
        }

        /** The ON condition, e.g. {@code loan.account_id = account.account_id}, or the transform of {@link #on}. */
        public String condition() {
            return on != null ? on : equalities();
        }

        /** The pairs as equalities joined by AND, whatever {@link #on} says ({@code a.x = b.x AND a.y = b.y}). */
        public String equalities() {
            StringBuilder b = new StringBuilder();
            for (Pair p : pairs()) {
                b.append(b.length() == 0 ? "" : " AND ").append(KgSql.column(fromTable, p.from())).append(" = ")
                        .append(KgSql.column(toTable, p.to()));
            }
            return b.toString();
        }

        /** Whether the keys differ in format and join only through the transform in {@link #on}. */
        public boolean normalised() {
            return on != null;
        }

        /** {@code from.col = to.col} as people write it. */
        public String written() {
            StringBuilder b = new StringBuilder();
            for (Pair p : pairs()) {
                b.append(b.length() == 0 ? "" : " AND ").append(fromTable).append('.').append(p.from()).append(" = ")
                        .append(toTable).append('.').append(p.to());
            }
            return b.toString();
        }

        /** The referring side as people write it: {@code t.a}, or {@code t.(a, b, c)} for several columns. */
        public String fromWritten() {
            return side(fromTable, fromColumns());
        }

        /** The key side as people write it: {@code t.a}, or {@code t.(a, b, c)} for several columns. */
        public String toWritten() {
            return side(toTable, toColumns());
        }

        private static String side(String table, List<String> columns) {
            return table + "." + (columns.size() == 1 ? columns.get(0) : "(" + String.join(", ", columns) + ")");
        }

        /** The other end of this join seen from {@code table}, or null when it does not touch it. */
        public String other(String table) {
            return fromTable.equals(table) ? toTable : toTable.equals(table) ? fromTable : null;
        }

        /** Whether both joins connect the same pair of tables (in either direction). */
        public boolean sameTables(Join o) {
            return (fromTable.equalsIgnoreCase(o.fromTable) && toTable.equalsIgnoreCase(o.toTable))
                    || (fromTable.equalsIgnoreCase(o.toTable) && toTable.equalsIgnoreCase(o.fromTable));
        }

        public Join approve(boolean approve) {
            return new Join(name, fromTable, fromColumn, toTable, toColumn, meaning, synonyms, curated, approve,
                    cardinality, coverage, on, more);
        }

        public String describe() {
            String how = curated ? " (approved in the knowledge file)"
                    : approved ? " (approved: key → foreign key" + (cardinality == null ? "" : ", " + cardinality) + ")"
                    : " (candidate, not approved" + (cardinality == null ? "" : String.format(java.util.Locale.ROOT,
                    ": %.1f %% of values found", 100 * coverage)) + (cardinality != null && coverage >= KgBuilder.APPROVE_COVERAGE
                    ? "; another join connects the same tables, so which one a question means is for the knowledge file"
                    : "") + ")";
            return "join " + written() + how + (on == null ? "" : "; " + FORMATS + ": ON " + on)
                    + (meaning == null ? "" : ": " + meaning);
        }
    }

    /** Guidance for a phrase with more than one reading, and which reading to prefer. */
    record Disambiguation(String name, List<String> synonyms, String text, String prefer, boolean curated)
            implements KgEntry {
        public String id() {
            return "disambiguation:" + name;
        }

        public Kind kind() {
            return Kind.DISAMBIGUATION;
        }

        public List<String> phrases() {
            return synonyms;
        }

        public String describe() {
            return "disambiguation " + name + ": " + text + (prefer == null ? "" : " Prefer " + prefer + ".");
        }
    }

    /**
     * A word of the user's that stands for a stored value: {@code phrases} → {@code table.column = value}
     * ("Prague" → district.A2 = 'Hl.m. Praha').
     */
    record ValueAlias(String name, List<String> synonyms, String table, String column, String value, String note,
                      boolean curated) implements KgEntry {
        public String id() {
            return "value_alias:" + name;
        }

        public Kind kind() {
            return Kind.VALUE_ALIAS;
        }

        public List<String> phrases() {
            return synonyms;
        }

        public String describe() {
            return "value alias " + String.join(" / ", synonyms.stream().map(s -> "\"" + s + "\"").toList()) + " → "
                    + table + "." + column + " = '" + value + "'" + (note == null ? "" : " (" + note + ")");
        }
    }
}
