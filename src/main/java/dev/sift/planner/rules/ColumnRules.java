package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Vocabulary;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Questions that ask for chosen columns of some rows: "list the account ID and opening date for accounts from
 * Prachatice", "state the district and region for loan ID 4990", "what is the region of the client with the id 3541",
 * "when was account 1 opened?". The columns asked for open the question (its head, {@link #head}); the rest says which
 * rows, read by the other rules of {@link SpecParser}. A question in the singular ("what is the …", "when was …") asks
 * for the values of one row, so a row must be named: by an id (its own, or one its rows hang off: "the status of the loan
 * of account 1787" lists that account's loans), or by a name that leaves one row ("the average salary of Jesenik", "the
 * region of the district where client 5 lives"); "the birth date of the clients in Prague" is asked back, not listed.
 */
final class ColumnRules {
    private static final Vocabulary V = Vocabulary.WORDS;

    /** The tokens that name the columns asked for, and whether the question asks for one row's values. */
    record Head(Set<Integer> tokens, boolean single) { }

    private ColumnRules() { }

    /** "with" before a possessive joins columns: "the species with their scientific names". */
    private static boolean withTheirs(List<Tok> toks, int i) {
        return toks.get(i).is("with") && i + 1 < toks.size() && toks.get(i + 1).is("their", "its", "his", "her");
    }

    /** The columns a question opens with after a listing word ("list the X and Y …", "what is the X of …"), if any. */
    static Optional<Head> head(List<Tok> toks) {
        if (toks.isEmpty()) {
            return Optional.empty();
        }
        if (toks.get(0).is("when")) { // "when was account 1 opened?": the date of one row
            Set<Integer> dates = new LinkedHashSet<>();
            for (int i = 1; i < toks.size(); i++) {
                if (toks.get(i).sense() instanceof Sense.Attr a && a.date()) {
                    dates.add(i);
                }
            }
            return dates.isEmpty() ? Optional.empty() : Optional.of(new Head(dates, true));
        }
        int i = 0;
        boolean asked = false;
        boolean single = false;
        while (i < toks.size() && toks.get(i).plain() && V.has(toks.get(i).word(), "listing_verbs", "column_openers")) {
            asked |= V.has(toks.get(i).word(), "listing_verbs") || toks.get(i).is("what", "which");
            single |= toks.get(i).is("is", "was") && !V.has(toks.get(0).word(), "listing_verbs");
            i++;
        }
        // "what was China's fertility rate …": a value's possessive before the columns names their rows (a filter)
        while (asked && i + 1 < toks.size() && toks.get(i).sense() instanceof Sense.Cond && toks.get(i + 1).is("s")) {
            i += 2;
        }
        // "show renewable generation for each year": values right before a column pick its rows (filters), not columns
        while (asked && i + 1 < toks.size() && toks.get(i).sense() instanceof Sense.Cond && (column(toks, i + 1)
                || toks.get(i + 1).sense() instanceof Sense.Cond)) {
            i++;
        }
        Set<Integer> head = new LinkedHashSet<>();
        int last = -1;
        for (; asked && i < toks.size(); i++) {
            Tok t = toks.get(i);
            if (t.sense() instanceof Sense.Entity e && i + 1 < toks.size() && toks.get(i + 1).sense() instanceof Sense.Attr a
                    && a.table().equals(e.table())) {
                continue; // "the unemployment rate": the table's word before its column says whose column, not a column
            }
            if (column(toks, i)) {
                head.add(i);
                last = i;
            } else if (!(t.plain() && (V.has(t.word(), "column_joiners") || withTheirs(toks, i))) || head.isEmpty()) {
                break;
            }
        }
        if (head.size() >= 2 && toks.get(0).is("which", "what") && toks.subList(last + 1, toks.size()).stream().anyMatch(Ranking::extreme)) {
            return Optional.empty(); // "which country and year had the lowest life expectancy": the row a ranking picks
        }
        boolean named = head.stream().anyMatch(k -> !(toks.get(k).sense() instanceof Sense.Entity));
        boolean entityOf = head.size() == 1 && last + 1 < toks.size() && toks.get(last + 1).is("of", "for");
        return head.isEmpty() || !named && !entityOf ? Optional.empty() : Optional.of(new Head(head, single));
    }

    /**
     * A token that may name a column asked for: a column, a column of several tables, a table (its name column), or a
     * key word before "of" a table ("the IDs of the accounts": the accounts' key).
     */
    private static boolean column(List<Tok> toks, int i) {
        Tok t = toks.get(i);
        Tok next = i + 1 < toks.size() ? toks.get(i + 1) : null;
        if (t.plain() && V.has(t.word(), "key_words")) {
            return keyOf(toks, i).isPresent();
        }
        if (t.sense() instanceof Sense.Attr a) { // not a filter: "opened in 1997", "amount over 1000", "duration 60"
            // a date before a period filters by it; another column before one is asked for ("fertility rate in 1970")
            return !(next != null && (next.sense() instanceof Sense.Dates && a.date() || next.sense() instanceof Sense.Compare
                    || next.number()));
        }
        return t.sense() instanceof Sense.Choice || t.sense() instanceof Sense.Entity;
    }

    /** The table a key word is of: "IDs of (the) accounts", "identifiers for clients". */
    private static Optional<String> keyOf(List<Tok> toks, int i) {
        int j = i + 1;
        if (j >= toks.size() || !toks.get(j).is("of", "for")) {
            return Optional.empty();
        }
        j++;
        while (j < toks.size() && toks.get(j).is("the", "all", "a", "an", "each")) {
            j++;
        }
        Sense s = j < toks.size() ? toks.get(j).sense() : null; // "of the accounts", "of gold cards", "of accounts opened …"
        return s instanceof Sense.Entity e ? Optional.of(e.table()) : s instanceof Sense.Cond c ? Optional.of(c.table())
                : s instanceof Sense.Attr a ? Optional.of(a.table()) : Optional.empty();
    }

    /** A head token: the column it names is asked for (a table names its name column, "district" → district.A2). */
    static void read(ParseState w, int i, Tok t, Lexicon lexicon, PhraseRules phrases) throws Unreadable {
        Sense s = t.sense();
        Sense.Attr a;
        if (s == null) { // "the IDs of the accounts": the key of the table named after them
            String table = keyOf(w.toks, i).orElseThrow();
            a = lexicon.key(table).map(Lexicon::attr).orElseThrow(() -> new Unreadable("table " + table + " has no identifier"
                    + " column for '" + t.text() + "'"));
        } else if (s instanceof Sense.Entity e) {
            a = lexicon.nameColumn(e.table()).or(() -> lexicon.label(e.table())).orElseThrow(() -> new Unreadable(
                    "I do not know how to name the rows of table " + e.table()));
        } else if (s instanceof Sense.Choice c) {
            a = phrases.choose(w, i, t, c);
        } else {
            a = (Sense.Attr) s;
        }
        w.read(t, a.name() + " (asked for)");
        if (!w.columns.contains(a)) {
            w.columns.add(a);
        }
    }

    /** COLUMNS: the columns asked for, of the rows the rest of the question names, joined from those rows. */
    static QuerySpec shape(ParseState w, Lexicon lexicon) throws Unreadable {
        if (w.measure != null) {
            throw new Unreadable("I could not tell what '" + w.measureTok.text() + "' is for beside the columns asked for");
        }
        Sense.Attr each = null; // "the habitat share of each species in county 06037": one row each, checked on the data
        if (w.group != null && w.agg == null && w.metric == null && w.ranking == null && !w.filters.isEmpty()
                && w.group.table().equals(w.columns.get(0).table())) { // "life expectancy in the US for each year": its rows
            each = lexicon.isYearColumn(w.group) ? null : w.group;
            w.columns.add(0, w.group);
            w.group = null;
        }
        if (w.agg != null || w.metric != null || w.ranking != null || w.group != null) {
            throw new Unreadable("I list chosen columns of rows, not of a ranking, an aggregate or a grouping");
        }
        for (QuerySpec.Filter f : w.filters) { // "the life expectancy of Nigeria and Kenya": each row says whose it is
            int in = f.sql().indexOf(" IN (");
            lexicon.columnOf(f.table(), in < 0 ? "" : f.sql().substring(0, in)).map(Lexicon::attr).filter(a -> !w.columns.contains(a))
                    .ifPresent(a -> w.columns.add(0, a));
        }
        String subject = w.subject;
        boolean named = subject != null || !w.filters.isEmpty(); // "list all regions" names no rows: its values
        if (subject == null) {
            List<String> filtered = w.filters.stream().map(QuerySpec.Filter::table).distinct().toList();
            subject = filtered.size() == 1 ? filtered.get(0) : w.columns.get(0).table();
        }
        for (Sense.Attr c : w.columns) {
            w.link(subject, c.table(), null);
        }
        String rows = subject;
        boolean one = w.filters.stream().map(QuerySpec.Filter::table).distinct().anyMatch(t -> keyed(w.filters, t, lexicon)
                || pinned(w.filters, t, lexicon) && (t.equals(rows) || lexicon.manyToOne(t, rows)));
        boolean rowsNamed = java.util.stream.IntStream.range(0, w.toks.size()).anyMatch(i -> w.toks.get(i).sense() instanceof Sense.Entity e
                && e.table().equals(rows) && !(i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Attr a
                && w.columns.contains(a))); // "the unemployment rate": the table's word says whose column, it names no rows
        if (w.single && !one && (w.filters.isEmpty() || rowsNamed)) {
            // "the population of India in 1990" names no rows, only values that pick them: the answer lists those rows
            String plural = lexicon.graph().table(subject).map(KgEntry.Table::plural).orElse(subject);
            throw new Unreadable("the question asks for the " + String.join(" and ", w.columns.stream().map(Sense.Attr::name)
                    .toList()) + " of one " + subject + " row, but does not say which: name it by its id (e.g. '" + subject
                    + " 123'), or ask to list them for the " + plural);
        }
        // "which countries are in cluster 5", "list the states in the northeast" name the column, not rows: its values, each once
        boolean valuesOnly = !named || !rowsNamed && w.columns.size() == 1 && !lexicon.key(w.columns.get(0).table())
                .map(k -> KgSql.column(k.table(), k.name()).equals(w.columns.get(0).name())).orElse(false)
                || w.filters.stream().anyMatch(ComparedShown::having); // "which states have more than 3 candidates": the states
        return new QuerySpec(QuerySpec.Shape.COLUMNS, subject, null, null, null, each, List.copyOf(w.filters),
                List.copyOf(w.links), null, true, List.of(), List.copyOf(w.columns), valuesOnly);
    }

    /** Whether a filter names one row of {@code table}: its key equal to a number, or its name column equal to a value. */
    static boolean pinned(List<QuerySpec.Filter> filters, String table, Lexicon lexicon) {
        Optional<String> name = lexicon.nameColumn(table).map(Sense.Attr::sql);
        return keyed(filters, table, lexicon) || name.isPresent() && filters.stream().filter(f -> f.table().equals(table))
                .anyMatch(f -> f.sql().startsWith(name.get() + " = '"));
    }

    /** Whether a filter names one row of {@code table} by its id. */
    static boolean keyed(List<QuerySpec.Filter> filters, String table, Lexicon lexicon) {
        Optional<String> key = lexicon.key(table).map(k -> KgSql.column(table, k.name()));
        return key.isPresent() && filters.stream().filter(f -> f.table().equals(table))
                .anyMatch(f -> f.sql().matches(java.util.regex.Pattern.quote(key.get()) + " = '?[\\w.-]+'?"));
    }

    /**
     * Whether the one column read besides the rows listed is shown with them ("list the events with a green alert, with
     * their magnitude"): a listing shows every column of its rows, that one too.
     */
    static boolean shownWith(ParseState w) {
        int k = w.measureTok == null ? -1 : w.toks.indexOf(w.measureTok);
        return k >= 2 && w.toks.get(k - 1).is("their", "its") && w.toks.get(k - 2).is("with", "and") && w.measure.table().equals(w.subject);
    }

    /** Whether a value is followed by its own column's name ("engineer jobs": a job, then "jobs"). */
    static boolean valuesThenColumn(List<Tok> toks) {
        for (int i = 0; i + 1 < toks.size(); i++) {
            if (toks.get(i).sense() instanceof Sense.Cond c && toks.get(i + 1).sense() instanceof Sense.Attr a
                    && c.sql().replaceFirst("^\\(", "").startsWith(a.sql() + " ")) {
                return true;
            }
        }
        return false;
    }
}
