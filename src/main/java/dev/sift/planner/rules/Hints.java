package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Patterns;
import dev.sift.knowledge.Phrases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Hint sentences after a question ("… Hint: A3 refers to region; 'POPLATEK TYDNE' stands for weekly issuance"): what
 * the person says their words mean. Each clause relates a phrase of theirs to a column, a stored value or a condition
 * of the dataset ("loan validity over 12 months refers to duration > 12"); the phrase then reads as that in the
 * question ({@link Lexicon#withHints}), said in "Read as" as coming from the hint. A hint narrows the reading and never
 * blocks it: its words are not parsed as part of the question, and a clause that names nothing of the dataset (a
 * formula, a column that does not exist, a value no column holds) is left unused and said so.
 */
public final class Hints {
    /** The question without its hint, and the hint's text (empty when there is none). */
    public record Split(String question, String hint) { }

    /** What a hint defines: phrases (comparable words) and their senses, and the clauses read and not read. */
    public record Read(Map<String, Sense> phrases, List<String> used, List<String> unused) {
        public static final Read NONE = new Read(Map.of(), List.of(), List.of());

        /** How the hint was read, for "Read as": the clauses left unused (the used ones show where their phrases are read). */
        public List<String> readings() {
            return unused.isEmpty() ? List.of() : List.of("the hint's " + String.join(", ", unused.stream().map(u -> "'" + u + "'")
                    .toList()) + " named nothing of this dataset I could use, so I read the question without "
                    + (unused.size() == 1 ? "it" : "them"));
        }
    }

    private Hints() { }

    /** Splits off the hint that follows a question after "Hint:", "Hints:" or "Evidence:". */
    public static Split split(String question) {
        Matcher m = Patterns.ALL.get("hint.marker").matcher(question);
        if (!m.find()) {
            return new Split(question, "");
        }
        return new Split(question.substring(0, m.start()).trim(), question.substring(m.end()).trim());
    }

    /** The phrases a hint defines on {@code kg}'s data. */
    public static Read read(String hint, KnowledgeGraph kg) {
        if (hint.isBlank()) {
            return Read.NONE;
        }
        Map<String, Sense> phrases = new LinkedHashMap<>();
        List<String> used = new ArrayList<>();
        List<String> unused = new ArrayList<>();
        for (String clause : Patterns.ALL.get("hint.clause_separator").split(hint)) {
            String c = clause.trim().replaceAll("[.\\s]+$", "");
            if (c.isEmpty()) {
                continue;
            }
            Optional<Map.Entry<String, Sense>> defined = clause(c, kg);
            if (defined.isPresent()) {
                phrases.put(defined.get().getKey(), defined.get().getValue());
                used.add(c);
            } else {
                unused.add(c);
            }
        }
        return new Read(Map.copyOf(phrases), List.copyOf(used), List.copyOf(unused));
    }

    /**
     * The hint's clauses that disagree with the knowledge graph, one note each for a model's prompt: "A3 refers to
     * district names" where the graph reads 'district names' as another column (district.A2) and A3 as the region. The
     * hint may still be right (a graph is written by people too): the note says what each side says and lets the data
     * decide, rather than letting the hint pass unremarked or overruling it.
     */
    public static List<String> contradictions(String question, KnowledgeGraph kg) {
        String hint = split(question).hint();
        List<String> out = new ArrayList<>();
        for (String clause : hint.isBlank() ? new String[0] : Patterns.ALL.get("hint.clause_separator").split(hint)) {
            String c = clause.trim().replaceAll("[.\\s]+$", "");
            Matcher m = Patterns.ALL.get("hint.relation").matcher(c);
            if (m.matches()) {
                String left = m.group(1).trim();
                String right = m.group(2).trim();
                contradiction(c, left, right, kg).or(() -> contradiction(c, right, left, kg)).ifPresent(out::add);
            }
        }
        return out;
    }

    /** The note for a clause whose {@code column} side the graph reads otherwise than its {@code phrase} side. */
    private static Optional<String> contradiction(String clause, String column, String phrase, KnowledgeGraph kg) {
        if (!Patterns.ALL.get("hint.column").matcher(column).matches()) {
            return Optional.empty();
        }
        List<KgEntry.Column> cols = SchemaSide.columns(column, phrase, kg);
        String words = unquote(phrase).replaceFirst("(?i)^(the|a|an)\\s+", "");
        if (cols.size() != 1 || Patterns.ALL.get("hint.column").matcher(words).matches()
                || words.matches("(?i).*\\band\\b.*")) {
            // not one column, both sides name columns, or two clauses in one ("A4 is … and A3 the region"): no reading
            return Optional.empty();
        }
        KgEntry.Column said = cols.get(0);
        List<KgEntry.Column> read = new ArrayList<>();
        for (KnowledgeGraph.Mention m : kg.mentions(words)) {
            m.entries().stream().filter(e -> e instanceof KgEntry.Column).map(e -> (KgEntry.Column) e)
                    .filter(e -> !read.contains(e)).forEach(read::add);
        }
        if (read.isEmpty() || read.contains(said) || said.description() == null) {
            return Optional.empty();
        }
        return Optional.of("the hint's '" + clause + "' disagrees with the knowledge graph: " + said.qualified() + " is "
                + said.description() + ", and '" + words + "' reads as " + String.join(", ", read.stream().map(c -> c.qualified()
                + (c.description() == null ? "" : " (" + c.description() + ")")).toList()) + ". Check the values"
                + " (sample_values) before following either, and say which you used.");
    }

    /** One clause "X refers to Y": the side that names the data is the sense, the other the person's phrase. */
    static Optional<Map.Entry<String, Sense>> clause(String clause, KnowledgeGraph kg) {
        Matcher m = Patterns.ALL.get("hint.relation").matcher(clause);
        if (!m.matches()) {
            return Optional.empty();
        }
        String left = m.group(1).trim();
        String right = m.group(2).trim();
        Optional<Sense> l = SchemaSide.read(left, right, kg);
        Optional<Sense> r = SchemaSide.read(right, left, kg);
        if (l.isPresent() == r.isPresent()) {
            return Optional.empty(); // both sides name data ("A2 refers to district name") or neither: nothing to learn
        }
        String phrase = Phrases.key(unquote(l.isPresent() ? right : left).replaceFirst("(?i)^(the|a|an)\\s+", ""));
        List<String> words = Phrases.words(phrase);
        if (words.isEmpty() || Phrases.onlyStopWords(words) || words.size() > KnowledgeGraph.MAX_PHRASE_WORDS) {
            return Optional.empty();
        }
        Sense s = l.orElseGet(r::get);
        return Optional.of(Map.entry(phrase, hinted(s)));
    }

    /** The sense with "(from the hint)" in how it reads. */
    private static Sense hinted(Sense s) {
        if (s instanceof Sense.Cond c) {
            return new Sense.Cond(c.table(), c.sql(), c.describe() + " (from the hint)");
        }
        return s;
    }

    static String unquote(String s) {
        String t = s.trim();
        return t.length() >= 2 && "'\"`".indexOf(t.charAt(0)) >= 0 && t.charAt(t.length() - 1) == t.charAt(0)
                ? t.substring(1, t.length() - 1) : t;
    }

    /**
     * The side of a clause that names the data: a column ({@code A3}, {@code district.A3}, {@code T2.A3}), a condition on
     * one ({@code duration > 12}, {@code gender = 'F'}, {@code status IN ('A', 'B')}) or a stored value ({@code 'POPLATEK
     * TYDNE'}). The SQL is written here from the column's name and a quoted literal, never copied from the hint.
     */
    static final class SchemaSide {
        private SchemaSide() { }

        static Optional<Sense> read(String side, String other, KnowledgeGraph kg) {
            String s = side.trim().replaceAll("^\\((.*)\\)$", "$1").trim();
            Matcher cond = Patterns.ALL.get("hint.condition").matcher(s);
            if (cond.matches()) {
                return condition(cond.group(1), cond.group(2), cond.group(3), other, kg);
            }
            if (Patterns.ALL.get("hint.column").matcher(s).matches()) {
                List<KgEntry.Column> cols = columns(s, other, kg);
                return cols.size() == 1 ? Optional.of(Lexicon.attr(cols.get(0))) : Optional.empty();
            }
            if (s.length() >= 3 && (s.startsWith("'") || s.startsWith("\"")) && s.charAt(s.length() - 1) == s.charAt(0)) {
                return storedValue(unquote(s), kg);
            }
            return Optional.empty();
        }

        /** {@code column op literal}: a condition written from the column and a literal it can hold. */
        private static Optional<Sense> condition(String column, String op, String literal, String other, KnowledgeGraph kg) {
            String value = unquote(literal);
            boolean text = !literal.equals(value);
            if (!text && !value.matches("-?\\d+(\\.\\d+)?")) {
                return Optional.empty();
            }
            List<KgEntry.Column> cols = columns(column, other, kg).stream().filter(c -> !text || holds(c, value)).toList();
            if (cols.size() != 1) {
                return Optional.empty();
            }
            KgEntry.Column c = cols.get(0);
            String sqlOp = op.equals("==") ? "=" : op.equals("!=") ? "<>" : op;
            String lit = text ? Sql.quoteString(stored(c, value)) : value;
            return Optional.of(new Sense.Cond(c.table(), KgSql.column(c.table(), c.name()) + " " + sqlOp + " " + lit,
                    c.qualified() + " " + sqlOp + " " + lit));
        }

        /** The one column that stores {@code value} (exactly, else ignoring case), as an equality. */
        private static Optional<Sense> storedValue(String value, KnowledgeGraph kg) {
            List<KgEntry.Column> cols = kg.entries(KgEntry.Column.class).stream().filter(c -> holds(c, value)).toList();
            List<KgEntry.Column> exact = cols.stream().filter(c -> c.values().contains(value) || c.codes().containsKey(value)).toList();
            List<KgEntry.Column> pick = exact.isEmpty() ? cols : exact;
            if (pick.size() != 1) {
                return Optional.empty();
            }
            KgEntry.Column c = pick.get(0);
            String v = stored(c, value);
            return Optional.of(new Sense.Cond(c.table(), KgSql.column(c.table(), c.name()) + " = " + Sql.quoteString(v),
                    c.qualified() + " = '" + v + "'" + (c.codes().containsKey(v) ? " (" + c.codes().get(v) + ")" : "")));
        }

        private static boolean holds(KgEntry.Column c, String value) {
            return c.values().stream().anyMatch(v -> v.equalsIgnoreCase(value))
                    || c.codes().keySet().stream().anyMatch(v -> v.equalsIgnoreCase(value));
        }

        /** The value as the column stores it ("f" → 'F'). */
        private static String stored(KgEntry.Column c, String value) {
            return java.util.stream.Stream.concat(c.values().stream(), c.codes().keySet().stream())
                    .filter(v -> v.equals(value)).findFirst().orElseGet(() -> java.util.stream.Stream.concat(c.values().stream(),
                            c.codes().keySet().stream()).filter(v -> v.equalsIgnoreCase(value)).findFirst().orElse(value));
        }

        /**
         * The columns a written name may be: {@code table.column} exactly, or a bare or alias-qualified ({@code T1.})
         * name in any table — narrowed to the tables the other side of the clause names when that settles it.
         */
        private static List<KgEntry.Column> columns(String written, String other, KnowledgeGraph kg) {
            String name = written.replaceAll("[`\"\\[\\]]", "");
            int dot = name.lastIndexOf('.');
            String table = dot > 0 ? name.substring(0, dot) : null;
            String col = name.substring(dot + 1).toLowerCase(Locale.ROOT);
            List<KgEntry.Column> all = kg.entries(KgEntry.Column.class).stream()
                    .filter(c -> c.name().toLowerCase(Locale.ROOT).equals(col)).toList();
            List<KgEntry.Column> inTable = table == null ? List.of() : all.stream().filter(c -> c.table().equalsIgnoreCase(table)).toList();
            if (!inTable.isEmpty()) {
                return inTable;
            }
            if (all.size() <= 1) {
                return all;
            }
            List<String> words = Phrases.words(other);
            List<KgEntry.Column> named = all.stream().filter(c -> kg.table(c.table()).map(t -> t.phrases().stream()
                    .map(Phrases::key).anyMatch(p -> containsPhrase(words, p))).orElse(false)).toList();
            return named.isEmpty() ? all : named;
        }

        private static boolean containsPhrase(List<String> words, String phrase) {
            return (" " + String.join(" ", words) + " ").contains(" " + phrase + " ");
        }
    }
}
