package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.Equivalents;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.RowNouns;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A table's noun that means one of its columns, because the table's rows are not one per thing the noun names:
 * "courses" in a table of courses × students is its course column; "species" in a table of species × counties with no
 * key is the species' name column (a few names, each on many rows), so "how many species" counts names, not rows. A
 * name column of places is not what the table's noun names ("income" of a table of states × income groups).
 */
public final class TableNouns {
    /** A name column names the rows' things when each of its values is on this many rows or more, on average. */
    private static final int ROWS_PER_NAME = 5;

    private TableNouns() { }

    /** The column the table's noun means here, or empty when it means the rows. */
    static Optional<Sense> column(Lexicon lexicon, List<KgEntry> entries, Sense.Entity e) {
        Optional<Sense> named = entries.stream().filter(c -> c instanceof KgEntry.Column col && col.table().equals(e.table())
                        && !col.key() && col.type().startsWith("VARCHAR") && Phrases.key(col.name()).equals(Phrases.key(e.table())))
                .map(c -> (Sense) Lexicon.attr((KgEntry.Column) c)).findFirst();
        return named.isPresent() ? named : things(lexicon, e.table()).map(a -> (Sense) a);
    }

    /**
     * The name column of the things a keyless table holds several rows of each (species' common_name, each name on a
     * row per county), or empty when the table's rows are its things.
     */
    static Optional<Sense.Attr> things(Lexicon lexicon, String table) {
        if (lexicon.key(table).isPresent()) {
            return Optional.empty();
        }
        long rows = lexicon.graph().table(table).map(KgEntry.Table::rows).orElse(0L);
        return lexicon.label(table).flatMap(a -> lexicon.graph().column(table, a.column()))
                .filter(c -> !c.values().isEmpty() && rows >= (long) ROWS_PER_NAME * c.values().size()
                        && !Equivalents.places(c.values())) // income's states are not incomes
                .map(Lexicon::attr);
    }

    /**
     * Whether a value said as what is counted may name every row of the table: not where the table's own name is another
     * value of the same column, which then holds the kinds of its rows ("explosions" in a table of earthquakes whose
     * type is 'earthquake' or 'explosion' names only the explosions; "deaths" in a table of riots may name them all).
     */
    static boolean namesRows(Lexicon lexicon, String table, Tok t, Sense.Cond c) {
        String column = c.sql().substring(0, c.sql().indexOf(" = "));
        return lexicon.values().resolve(table).stream().noneMatch(m -> m.table().equals(table)
                && dev.sift.knowledge.KgSql.column(m.table(), m.column()).equals(column) && !c.sql().endsWith(Sql.quoteString(m.value())));
    }

    /** The token before {@code i}, past "the" and "all": where "the number of (all the) …" says "of". */
    private static int beforeArticles(ParseState w, int i) {
        int b = i - 1;
        while (b >= 0 && w.toks.get(b).is("the", "all")) {
            b--;
        }
        return b;
    }

    /**
     * Asks which is meant when a value said as what is counted in the dataset's one table ("how many teachers") may name
     * every row of it or only the rows of that value, unless the people of those rows are what is counted
     * ({@link #peopleOfValue}).
     */
    static void everyRowOrSome(ParseState w, Lexicon lexicon, Tok t, Sense.Cond c) throws Unreadable {
        if (lexicon.graph().tables().size() == 1 && PhraseRules.nounOfRows(t, c) && namesRows(lexicon, c.table(), t, c)
                && !peopleOfValue(w, lexicon, c.table(), w.at) && !(w.at > 0 && w.toks.get(w.at - 1).is("actual", "real", "genuine"))) {
            // "actual earthquakes, not explosions": the value, set against the table's other kinds
            throw new Unreadable("'" + t.text() + "' may be every row of " + c.table() + " or only the rows where "
                    + c.describe() + "; say which (e.g. 'all " + c.table() + " rows' or 'rows where " + c.describe() + "')");
        }
    }

    /**
     * Whether a value said as what is counted names the people of its rows in a table of counts of people: after "the
     * number of", "the share of" and the like ("the number of bartenders", "what share of nurses were women"), or in a
     * question that also picks a sex or says both together ("how many teachers were women", "men and women together").
     */
    static boolean peopleOfValue(ParseState w, Lexicon lexicon, String table, int i) {
        return numberOf(w, lexicon, table, i).isPresent() || peopleSaid(w, lexicon, table, i);
    }

    /**
     * The count of people of a table of counts of people as the measure, when "the number of" comes right before the value
     * said as what is counted ("when did the number of blacksmiths peak": the blacksmiths counted, each row standing for
     * that many).
     */
    static void readNumberOf(ParseState w, Lexicon lexicon, Tok t, Sense.Cond c) {
        if (w.measure == null && w.subject == null) {
            numberOf(w, lexicon, c.table(), w.at).ifPresent(heads -> {
                w.measure = heads;
                w.measureTok = t;
                w.measureCounted = true;
                w.readings.add("'number of " + t.text() + "' → the total of " + heads.name() + " (each " + c.table() + " row counts that many)");
            });
        }
    }

    /** The count of people "the number of" before token {@code i} names ({@link #readNumberOf}), or empty. */
    static Optional<Sense.Attr> numberOf(ParseState w, Lexicon lexicon, String table, int i) {
        int b = beforeArticles(w, i);
        return b >= 1 && w.toks.get(b).is("of") && w.toks.get(b - 1).is("number")
                ? dev.sift.knowledge.RowNouns.peopleCount(lexicon.graph().columns(table)).map(Lexicon::attr) : Optional.empty();
    }

    private static boolean peopleSaid(ParseState w, Lexicon lexicon, String table, int i) {
        int b = beforeArticles(w, i);
        boolean partOf = b >= 1 && w.toks.get(b).is("of") && w.toks.get(b - 1).is("share", "percentage", "percent",
                "proportion", "fraction");
        return dev.sift.knowledge.RowNouns.peopleCount(lexicon.graph().columns(table)).isPresent() && (partOf || bySex(w, lexicon, table));
    }

    /**
     * Whether a question about a table of counts of people picks a sex or says both together ("how many nurses were
     * women", "men and women together", which {@code patterns.yaml} reads as "together"): people are what it counts.
     */
    static boolean bySex(ParseState w, Lexicon lexicon, String table) {
        Optional<String> sex = lexicon.graph().columns(table).stream()
                .filter(c -> dev.sift.knowledge.RowNouns.sexColumn("women", List.of(c)).isPresent()).findFirst()
                .map(c -> dev.sift.knowledge.KgSql.column(table, c.name()));
        return sex.isPresent() && w.toks.stream().anyMatch(k -> k.sense() instanceof Sense.Cond c && c.sql().startsWith(sex.get() + " ")
                || k.is("together"));
    }

    /**
     * The tally of the dataset's one table when a word is its name's first word in another form ("unemployed",
     * "unemployed people" for a table named unemployment_… with a {@code count} column): what the table counts is what
     * its tally holds. Null otherwise.
     */
    static Sense countedBy(KnowledgeGraph kg, List<String> words) {
        List<KgEntry.Table> tables = kg.tables();
        if (tables.size() != 1 || words.isEmpty() || words.size() > 2 || words.size() == 2
                && !dev.sift.knowledge.RowNouns.people(words.get(1))) {
            return null;
        }
        List<String> name = NameWords.split(tables.get(0).name());
        String stem = derivedStem(words.get(0));
        if (name.isEmpty() || stem.length() < 5 || words.get(0).equals(Phrases.key(name.get(0)))
                || !stem.equals(derivedStem(Phrases.key(name.get(0))))) {
            return null;
        }
        return dev.sift.knowledge.RowNouns.tally(kg.columns(tables.get(0).name())).map(Lexicon::attr).orElse(null);
    }

    /** A word without its suffix of derivation: "unemployed" and "unemployment" are both "unemploy". */
    private static String derivedStem(String word) {
        return word.replaceFirst("(ment|ed|ing|ion|s)$", "");
    }

    /** The period "when" can only mean: "year" for one table with a year column and no date column, else null. */
    public static String whenWord(Lexicon lexicon) {
        List<KgEntry.Table> tables = lexicon.graph().tables();
        return tables.size() == 1 && lexicon.dateColumn(tables.get(0).name()).isEmpty()
                && lexicon.yearColumn(tables.get(0).name()).isPresent() ? "year" : null;
    }

    /** The word for the rows in a rewording: the one table's name, unless it is also a stored value ('earthquake'). */
    public static String rowsWord(Lexicon lexicon) {
        List<KgEntry.Table> tables = lexicon.graph().tables();
        if (tables.size() == 1 && RowNouns.peopleCount(lexicon.graph().columns(tables.get(0).name())).isPresent()) {
            return "people"; // "the most common job for women": the job with the most women, not the most rows
        }
        return tables.size() == 1 && lexicon.values().resolve(tables.get(0).name()).isEmpty() ? tables.get(0).name() : "records";
    }

    /**
     * A text column that names the table's rows for people: {@code name}, {@code title}, {@code <table>_name},
     * {@code <singular>_name}, or the one whose name ends in the word "name" or "title" ("Airport Name"); empty when
     * none or several fit.
     */
    static Optional<Sense.Attr> nameLike(KnowledgeGraph kg, String table) {
        String singular = Phrases.stem(table.toLowerCase(java.util.Locale.ROOT));
        Set<String> names = new java.util.HashSet<>(List.of("name", "title", table.toLowerCase(java.util.Locale.ROOT) + "_name",
                singular + "_name", "full_name", "display_name", "common_name"));
        List<Sense.Attr> text = kg.columns(table).stream().map(Lexicon::attr).filter(a -> a.type().startsWith("VARCHAR")).toList();
        List<Sense.Attr> hits = text.stream().filter(a -> names.contains(a.column()
                .toLowerCase(java.util.Locale.ROOT))).toList();
        if (hits.isEmpty()) {
            hits = text.stream().filter(a -> namesThings(a.column())).toList();
        }
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    /**
     * The one table of a dataset, for a row word ("records", "rows", "entries") that names no column or value: "which
     * magnitude type has the most records" counts the table's rows. "data" is the whole ("in this data"), not its rows.
     */
    static Sense rowWord(KnowledgeGraph kg, dev.sift.knowledge.ValueIndex values, String key) {
        if (kg.tables().size() != 1 || !NameWords.rowWords().contains(key) || key.equals("data") || !kg.lookup(key).isEmpty()
                || !values.resolve(key).isEmpty()) {
            return null;
        }
        return new Sense.Entity(kg.tables().get(0).name());
    }

    /** Whether a row label is a title ("earthquakes.title"): shown with what it is written from ({@code QueryBuilder}). */
    static boolean title(Sense.Attr label) {
        return label.name().toLowerCase(java.util.Locale.ROOT).endsWith("title");
    }

    /** Whether a column's name ends in the word "name" or "title" ("Airport Name", "common_name"): it names things. */
    static boolean namesThings(String column) {
        List<String> w = NameWords.split(column);
        return !w.isEmpty() && (w.get(w.size() - 1).equals("name") || w.get(w.size() - 1).equals("title"));
    }
}
