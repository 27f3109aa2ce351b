package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Phrases;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules of {@link SpecParser} for columns, dates, numeric comparisons and related-row filters ("accounts with at
 * least 3 orders", "accounts with no loan"), and the facts about tokens they share.
 */
final class PhraseRules {
    private static final Pattern PLAIN_AGG = Pattern.compile(
            "(?i)\\s*(sum|avg|min|max|median|count)\\(\\s*(DISTINCT\\s+)?([A-Za-z_\"][\\w\".]*)\\s*\\)\\s*");

    private final Lexicon lexicon;

    PhraseRules(Lexicon lexicon) {
        this.lexicon = lexicon;
    }

    /** A column: a grouping, a ranked target or order, a date selector, a compared column, or the measure. */
    void attr(ParseState w, int i, Tok t, Sense.Attr a, boolean rankTarget) throws Unreadable {
        Optional<Sense.Attr> own = w.subject == null ? Optional.empty() : lexicon.namedLike(w.subject, a);
        if (own.isPresent()) { // "standing orders to bank AB": the transactions' bank, or the order's bank_to?
            throw new Unreadable("'" + t.text() + "' could be " + a.name() + " or " + own.get().name()
                    + " of the " + w.subject + " rows; name the column");
        }
        w.read(t, a.name());
        if (i == w.consumed || w.readWith.contains(i) || i + 1 < w.toks.size() && codeAfter(a, w.toks.get(i + 1)) != null // "status A": of the code after it
                || namesValueColumn(w, i - 1, a, -1) || namesValueColumn(w, i + 1, a, 1)) { // "the south Moravia region": of a value
            return;
        }
        Tok next = i + 1 < w.toks.size() ? w.toks.get(i + 1) : null;
        if (rankTarget && w.ranking.order == null && SuperlativeRow.superlative(t) && next != null && (next.sense() instanceof Sense.Attr || next.sense() instanceof Sense.Entity)) {
            w.ranking.order = new Ranking.Order.ByColumn(a); // "the 5 deadliest years": years ranked by deaths
            w.attach(a.table());
            return;
        }
        if (Ranking.byRankedColumn(w, a)) {
            return; // "the most significant event by sig score": the column ranked by, said again
        }
        if (w.groupCue || rankTarget) {
            w.subjectOrAttach(a.table());
            if (w.groupCue) {
                PeriodRules.grouped(w, i, t, a, lexicon);
            } else if (!Ranking.rowOf(w, i, a, lexicon)) {
                w.ranking.target = new Ranking.Target.Values(a);
            }
            return;
        }
        if (a.date()) {
            date(w, i, t, a);
            return;
        }
        if (MeasureSwap.measure(w, i, t, a)) {
            return; // "what about horsepower?" after "the average price by make"
        }
        boolean filter = a.numeric() && comparedAfter(w, i); // "has habitat above 0.9 in the most counties": ranked later
        if (w.ranking != null && Ranking.shownWith(w, i, a)) {
            return; // "the 5 biggest quakes with their place and magnitude": shown with each row ranked
        }
        if (w.ranking != null && w.ranking.awaitsOrder() && !(filter && w.toks.subList(i + 1, w.toks.size()).stream()
                .anyMatch(Ranking::extreme))) {
            w.ranking.order = new Ranking.Order.ByColumn(a);
            w.attach(a.table());
            return;
        }
        // compared or equated right after ("an average salary above 10000", "a duration of 60 months"), or named twice, by a
        // verb and a noun ("owes the most debt", "owe more than 10000 in debts": Debts_Owed_By)
        if (filter || a.numeric() && numberFollows(w, i) || w.toks.subList(0, i).stream().anyMatch(k -> a.equals(k.sense())
                && (MeasureWords.verbOf(k, a) || MeasureWords.verbOf(t, a)))) {
            return;
        }
        if (SuperlativeRow.shown(w, a)) {
            return; // "what's the deepest quake? give the place and depth": shown with that quake
        }
        if (w.measure != null || w.metric != null) {
            throw new Unreadable("I could not tell what '" + t.text() + "' is for in this question");
        }
        setMeasure(w, a, t);
    }

    /**
     * A date column: the measure of "first"/"last", else the column later date phrases apply to. A verb that names another
     * table's date right after the subject and "was/were" ("loans were issued in 1996": card.issued by its word) dates the
     * subject, which has a date of its own, unless that table follows as the verb's object ("clients were issued a card").
     */
    private void date(ParseState w, int i, Tok t, Sense.Attr a) {
        if (w.ranking != null && w.ranking.awaitsOrder() && w.toks.stream().anyMatch(Ranking::inTime)) {
            w.ranking.order = new Ranking.Order.ByColumn(a); // "which candidate has the latest coverage end date"
            w.attach(a.table());
            return;
        }
        boolean extreme = w.agg != null && (w.agg.equals("min") || w.agg.equals("max") || w.agg.equals("range"));
        if (extreme && w.measure == null && w.metric == null && !(i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Dates)) {
            setMeasure(w, a, t);
            return;
        }
        Optional<Sense.Attr> own = w.subject == null || a.table().equals(w.subject) ? Optional.empty() : lexicon.dateColumn(w.subject);
        Sense before = i > 1 ? w.toks.get(i - 2).sense() : null; // the verb's own subject: "loans were issued", not "owner was born"
        boolean passive = i > 1 && w.toks.get(i - 1).is("was", "were", "been", "be", "is", "are")
                && (before instanceof Sense.Entity e && e.table().equals(w.subject) || before instanceof Sense.Cond c
                && c.table().equals(w.subject));
        boolean object = i + 1 < w.toks.size() && objectOf(w, i + 1, a.table());
        if (own.isPresent() && passive && !object) {
            w.dateColumn = own.get();
            w.readings.remove(w.readings.size() - 1); // not the other table's column its word names
            w.readings.add("'" + w.toks.get(i - 1).text() + " " + t.text() + "' → the date " + own.get().name() + " of the "
                    + w.subject + " rows");
            return;
        }
        w.dateColumn = a;
        if (w.subject == null) {
            w.subject = a.table();
            w.anchor = a.table();
        }
    }

    /** Whether table {@code table} is named at token {@code j} (after "a", "an", "the"). */
    private static boolean objectOf(ParseState w, int j, String table) {
        while (j < w.toks.size() && w.toks.get(j).is("a", "an", "the")) {
            j++;
        }
        Sense s = j < w.toks.size() ? w.toks.get(j).sense() : null;
        return s instanceof Sense.Entity e && e.table().equals(table) || s instanceof Sense.Cond c && c.table().equals(table);
    }

    private static void setMeasure(ParseState w, Sense.Attr a, Tok t) {
        w.measure = a;
        w.measureTok = t;
        w.subjectOrAttach(a.table());
    }

    /** One of several columns a word may name ("amount"), settled by the tables around it, or a question back. */
    Sense.Attr choose(ParseState w, int i, Tok t, Sense.Choice c) throws Unreadable {
        Set<String> prefer = new LinkedHashSet<>();
        if (i > 0 && w.toks.get(i - 1).sense() instanceof Sense.Entity e) {
            prefer.add(e.table());
        }
        if (w.anchor != null) {
            prefer.add(w.anchor);
        }
        if (w.subject != null) {
            prefer.add(w.subject);
        }
        for (int j = i + 1; j < w.toks.size(); j++) { // a table named later ("the total amount of all loans")
            Sense s = w.toks.get(j).sense();
            String later = s instanceof Sense.Entity e ? e.table() : s instanceof Sense.Cond cd ? cd.table()
                    : s instanceof Sense.Attr la ? la.table() : null;
            if (later != null) {
                prefer.add(later);
            }
        }
        for (String p : prefer) {
            List<Sense.Attr> hit = c.options().stream().filter(a -> a.table().equals(p)).toList();
            if (hit.size() == 1) {
                return hit.get(0);
            }
        }
        List<Sense.Attr> spelled = c.options().stream().filter(a -> a.column()
                .equalsIgnoreCase(t.text())).toList();
        if (spelled.size() == 1) { // "type" is the column type, not types
            return spelled.get(0);
        }
        throw new Unreadable("'" + t.text() + "' could be " + String.join(", ", c.options().stream().map(Sense.Attr::name)
                .toList()) + (c.guidance() == null ? "" : ". " + c.guidance()));
    }

    /**
     * A value of columns of several tables, settled by the rest of the question: the one of the only table among them that
     * another phrase of the question names ("airports in Texas": airports.state = 'TX', not the bird strikes' origin state),
     * else a question back naming them.
     */
    Sense.Cond chooseValue(ParseState w, int i, Tok t, Sense.Values v) throws Unreadable {
        Sense.Cond earlier = w.sameColumnAsEarlier(i, v.options());
        if (earlier != null) {
            return earlier; // "what about nc?": the column of the earlier turn's value
        }
        Sense.Cond said = byColumn(w, i, v);
        Sense.Cond chosen = said != null ? said : ofKind(t, v);
        if (chosen != null) {
            w.readings.add("'" + t.text() + "' is also " + String.join(" or ", v.options().stream().filter(c -> c != chosen)
                    .map(Sense.Cond::reading).toList()) + ": not here, " + (said != null ? "by the column the question names"
                    : "as the column of " + String.join(" or ", dev.sift.knowledge.Equivalents.kindsOf(t.text())) + " names holds it"));
            return chosen;
        }
        if (v.options().stream().map(Sense.Cond::table).distinct().count() == 1) {
            throw new Unreadable(v.text() + "; say which you mean (e.g. '" + String.join("' or '", v.options().stream().map(c -> t.text()
                    + " " + c.column().substring(c.column().lastIndexOf('.') + 1).replace("\"", "")).toList()) + "')");
        }
        Set<String> named = new LinkedHashSet<>();
        for (int j = 0; j < w.toks.size(); j++) {
            Sense s = j == i ? null : w.toks.get(j).sense();
            if (s instanceof Sense.Entity e) {
                named.add(e.table());
            } else if (s instanceof Sense.Cond c) {
                named.add(c.table());
            } else if (s instanceof Sense.Attr a) {
                named.add(a.table());
            } else if (s instanceof Sense.Measure m) {
                named.add(m.metric().grain());
            }
        }
        List<Sense.Cond> fit = v.options().stream().filter(c -> named.contains(c.table())).toList();
        List<String> tables = v.options().stream().map(Sense.Cond::table).toList();
        if (fit.size() == 1) {
            w.readings.add("'" + t.text() + "' is a value of " + String.join(" and of ", tables) + ": of " + fit.get(0).table()
                    + " here, the table the question names");
            return fit.get(0);
        }
        throw new Unreadable("'" + t.text() + "' may be " + String.join(" or ", v.options().stream().map(Sense.Cond::describe)
                .toList()) + "; say which table you mean (e.g. '" + String.join("' or '", tables.stream().map(tb -> tb + " in "
                + t.text()).toList()) + "')");
    }

    /**
     * The option a column named in the question settles: the one whose column is named right after the value ("Los
     * Angeles County"), else the only one whose column the question does not ask about ("the counties in Delaware" is
     * the state, not a county named Delaware); null when the question names none of their columns.
     */
    private static Sense.Cond byColumn(ParseState w, int i, Sense.Values v) {
        Sense next = i + 1 < w.toks.size() ? w.toks.get(i + 1).sense() : null;
        List<Sense.Cond> beside = v.options().stream().filter(c -> next instanceof Sense.Attr a && a.sql().equals(c.column())).toList();
        if (beside.size() == 1) {
            w.consumed = i + 1; // "County" of "Los Angeles County" is said with the value
            return beside.get(0);
        }
        Sense.Cond shared = ValueLists.sharedColumn(w, i, v);
        if (shared != null) {
            return shared; // "the ci and nc networks": the column named after the second value is the first's too
        }
        Set<String> asked = new LinkedHashSet<>();
        for (int j = 0; j < w.toks.size(); j++) {
            if (j != i && w.toks.get(j).sense() instanceof Sense.Attr a) {
                asked.add(a.sql());
            }
        }
        List<Sense.Cond> rest = v.options().stream().filter(c -> !asked.contains(c.column())).toList();
        return rest.size() == 1 && rest.size() < v.options().size() ? rest.get(0) : null;
    }

    /**
     * The one option in a column whose values are all of a kind the phrase names ("Texas" in a column of state codes,
     * not the county named Texas; `kinds` of {@code equivalents.yaml}), or null.
     */
    private Sense.Cond ofKind(Tok t, Sense.Values v) {
        java.util.Set<String> kinds = dev.sift.knowledge.Equivalents.kindsOf(t.text());
        List<Sense.Cond> of = kinds.isEmpty() ? List.of() : v.options().stream().filter(c -> lexicon.columnOf(c.table(), c.column())
                .filter(col -> kinds.stream().anyMatch(k -> dev.sift.knowledge.Equivalents.kindOf(k, col.values()).isPresent()))
                .isPresent()).toList();
        return of.size() == 1 ? of.get(0) : null;
    }

    /** "in 1997", "between 1995 and 1996", "after March 1997": a filter on the date the question is about. */
    void dates(ParseState w, int i, Tok t, Sense.Dates d) throws Unreadable {
        Sense.Attr col = w.dateColumn != null ? w.dateColumn : clauseDate(w, i, t);
        String base = w.base() != null ? w.base() : w.measure != null ? w.measure.table() // "how many people … in 2000"
                : lexicon.graph().tables().size() == 1 ? lexicon.graph().tables().get(0).name() : null;
        Optional<Sense.Attr> year = col != null ? Optional.empty() : YearNouns.after(w, i, lexicon) // "the 1995 budget"
                .or(() -> base == null ? Optional.empty() : lexicon.yearColumn(base));
        if (year.isPresent() && (d.from() == null || d.from().getDayOfYear() == 1) && (d.to() == null || d.to().getDayOfYear() == 1)) {
            yearNumbers(w, t, d, year.get()); // a table with a whole-number year column and no date
            return;
        }
        if (col == null && base != null) { // "how many rows are from the 1970s": the one date of the table asked about
            col = lexicon.dateColumn(base).orElse(null);
        }
        if (col == null) {
            throw new Unreadable("I could not tell which date '" + t.text() + "' refers to" + (w.base() == null ? ""
                    : ": table " + w.base() + " has " + (lexicon.graph().columns(w.base()).stream().noneMatch(c -> Lexicon.attr(c).date())
                    ? "no date column" : "several date columns")));
        }
        w.attach(col.table());
        String c = col.sql();
        String sql;
        String said;
        if (d.yearFrom() > 0) {
            sql = d.yearFrom() == d.yearTo() ? "year(" + c + ") = " + d.yearFrom()
                    : "year(" + c + ") BETWEEN " + d.yearFrom() + " AND " + d.yearTo();
            said = sql.replace(c, col.name());
        } else if (d.from() != null && d.to() != null) {
            sql = c + " >= " + literal(d.from()) + " AND " + c + " < " + literal(d.to());
            said = col.name() + " in [" + d.from() + ", " + d.to() + ")";
        } else if (d.from() != null) {
            sql = c + " >= " + literal(d.from());
            said = col.name() + " >= " + d.from();
        } else {
            sql = c + " < " + literal(d.to());
            said = col.name() + " < " + d.to();
        }
        w.filter(col.table(), sql, said);
        w.readings.add("'" + t.text() + "' → " + said);
    }

    /** Whole years as numbers: "in 1997" → year = 1997, "after 1996" → year >= 1997, "before 1994" → year < 1994. */
    private static void yearNumbers(ParseState w, Tok t, Sense.Dates d, Sense.Attr year) {
        String c = year.sql();
        String sql;
        if (d.from() != null && d.to() != null) {
            sql = d.to().getYear() - d.from().getYear() == 1 ? c + " = " + d.from().getYear()
                    : c + " BETWEEN " + d.from().getYear() + " AND " + (d.to().getYear() - 1);
        } else if (d.from() != null) {
            sql = c + " >= " + d.from().getYear();
        } else {
            sql = c + " < " + d.to().getYear();
        }
        String said = sql.replace(c, year.name());
        w.attach(year.table());
        w.filter(year.table(), sql, said);
        w.readings.add("'" + t.text() + "' → " + said);
    }

    private static String literal(LocalDate d) {
        return "DATE '" + d + "'";
    }

    /** "over 100000": a comparison of the numeric column before it, after it, or the subject's amount. */
    void compare(ParseState w, int i, Tok t, Sense.Compare c) throws Unreadable {
        Tok prev = previousContent(w, i);
        if (i + 1 < w.toks.size() && w.toks.get(i + 1).sense() instanceof Sense.Entity
                && !(prev != null && prev == w.toks.get(i - 1) && numericAttr(prev) != null)) {
            w.related = c; // "at least 3 payment orders"; "magnitude 4.5 or more events" compares the magnitude
            return;
        }
        Sense.Attr col = prev == null ? null : numericAttr(prev);
        if (col != null && lexicon.isYearColumn(col) && !c.value().matches("(1[5-9]|20)\\d{2}")) {
            col = null; // "in how many years did more than 1000000 people die": no year, the number of what follows
        }
        String of = col != null ? col.table() : w.base();
        boolean headcount = col != null && lexicon.headcount(col.table()).filter(col::equals).isPresent();
        if (of != null && (headcount && anAge(c.value()) || t.words().stream().anyMatch(x -> x.equals("older") || x.equals("younger")))) {
            Sense.Attr age = lexicon.ageOfPeople(of).orElse(col); // "people 90 or older", "people 65 or over": their age
            if (age != col && col != null && w.measure == null) {
                w.measure = col; // the people the question counts
                w.measureTok = prev;
            }
            col = age;
        }
        col = col != null ? col : ComparedColumn.after(w, i, lexicon);
        col = col != null ? col : ComparedColumn.rangeEnd(w, i, lexicon);
        if (col == null && w.base() != null) {
            col = lexicon.amount(w.base()).or(() -> lexicon.ageOfPeople(w.base()).filter(a -> anAge(c.value())))
                    .orElse(null); // "victims under 20": age, never "a population over 100 million"
        }
        if (col == null && w.measure != null && w.measure.numeric() && !w.measure.date()
                && !(lexicon.isYearColumn(w.measure) && !c.value().matches("(1[5-9]|20)\\d{2}"))) {
            col = w.measure; // "when did construction employment first go below 7,650": the number the question is about
        }
        if (col == null) {
            throw new Unreadable("I could not tell which number '" + t.text() + "' compares");
        }
        String value = NumberUnits.value(lexicon, w, i, col, c.value());
        w.attach(col.table());
        w.filter(col.table(), col.sql() + " " + c.op() + " " + value, col.name() + " " + c.op() + " " + value);
        w.readings.add("'" + t.text() + "' → " + col.name() + " " + c.op() + " " + value);
        NumberUnits.unitAfter(lexicon, w, i, col);
    }

    /** Whether a compared number can be a person's age in years. */
    private static boolean anAge(String value) {
        return java.util.Arrays.stream(value.split(" AND ")).allMatch(v -> v.matches("\\d{1,3}(\\.\\d+)?")
                && Double.parseDouble(v) <= 130); // "under 20", "in their twenties" (BETWEEN 20 AND 29)
    }

    /** "accounts with at least 3 orders": the anchor's rows with that many related rows (a direct approved join only). */
    void related(ParseState w, String table, Sense.Compare c, Tok t) throws Unreadable {
        String owner = w.base();
        Optional<KgEntry.Join> j = direct(owner, table);
        if (owner == null && ComparedShown.groupsHaving(w, table, c, t)) {
            return; // "which states have more than 3 candidates": the values of a listed column with that many rows
        }
        if (owner == null || j.isEmpty() || !j.get().fromTable().equals(table)) {
            throw new Unreadable("I can count related rows only along one approved join, and '" + t.text() + "' is not"
                    + " directly attached to " + (owner == null ? "anything" : owner));
        }
        if (j.get().severalColumns()) {
            throw new Unreadable("I can count related rows only along a join on one column, and " + table + " joins "
                    + owner + " on several (" + j.get().written() + ")");
        }
        String fk = KgSql.column(table, j.get().fromColumn());
        String sql = KgSql.column(j.get().toTable(), j.get().toColumn()) + " IN (SELECT " + fk + " FROM " + KgSql.table(table)
                + " GROUP BY " + fk + " HAVING count(*) " + c.op() + " " + c.value() + ")";
        String said = owner + " with " + c.op() + " " + c.value() + " " + table + " rows";
        w.filter(owner, sql, said);
        w.readings.add("'" + c.op() + " " + c.value() + " " + t.text() + "' → " + said);
    }

    /** "accounts with no loan": NOT EXISTS along one approved join. */
    void noneOf(ParseState w, String table, Tok t) throws Unreadable {
        String owner = w.base();
        Optional<KgEntry.Join> j = direct(owner, table);
        if (owner == null || j.isEmpty()) {
            throw new Unreadable("I can test for missing related rows only along one approved join, and '" + t.text()
                    + "' is not directly attached to " + (owner == null ? "anything" : owner));
        }
        w.filter(owner, "NOT EXISTS (SELECT 1 FROM " + KgSql.table(table) + " WHERE " + j.get().condition() + ")",
                owner + " without " + table);
        w.readings.add("'no " + t.text() + "' → " + owner + " rows without a " + table + " row");
    }

    private Optional<KgEntry.Join> direct(String a, String b) {
        if (a == null) {
            return Optional.empty();
        }
        return lexicon.graph().joins().stream().filter(KgEntry.Join::curated).filter(j -> b.equals(j.other(a))).findFirst();
    }

    /**
     * The date a date phrase names when no date column was: "orders from London customers were placed in 2024" — after
     * "was/were/been" and a verb the phrase belongs to the question's subject; otherwise to the entity it follows, and
     * when that entity and the subject both have a date ("orders of customers in 2024") the question is asked back.
     */
    private Sense.Attr clauseDate(ParseState w, int i, Tok t) throws Unreadable {
        Optional<Sense.Attr> ofSubject = w.subject == null ? Optional.empty() : lexicon.dateColumn(w.subject);
        boolean passive = i >= 2 && w.toks.get(i - 1).plain() && w.toks.get(i - 2).is("was", "were", "been", "be", "is", "are");
        if (passive && ofSubject.isPresent()) {
            return ofSubject.get();
        }
        Optional<Sense.Attr> ofAnchor = w.anchor == null ? Optional.empty() : lexicon.dateColumn(w.anchor);
        boolean objectOfVerb = i >= 2 && w.toks.get(i - 1).sense() instanceof Sense.Entity e && e.table().equals(w.anchor)
                && w.toks.get(i - 2).plain() && !w.toks.get(i - 2).is("of", "from", "by", "for", "with", "to", "at", "in",
                "on"); // "accounts that made a transaction in 1993": the transaction's date
        if (ofAnchor.isPresent() && ofSubject.isPresent() && !ofAnchor.get().equals(ofSubject.get()) && !objectOfVerb) {
            throw new Unreadable("I could not tell which date '" + t.text() + "' refers to: " + ofSubject.get().name()
                    + " or " + ofAnchor.get().name() + "; name the date (e.g. '" + w.subject + " with "
                    + ofSubject.get().column() + " " + t.text() + "')");
        }
        Sense.Attr date = measuredDate(w, i, t, dateColumn(w));
        if (date == null && w.base() == null && !w.columns.isEmpty() && w.columns.stream().map(Sense.Attr::table).distinct().count() == 1) {
            date = lexicon.dateColumn(w.columns.get(0).table()).orElse(null); // "the CO2 level in January 2000": its row's date
        }
        return date;
    }

    /**
     * The date of the rows a measure sums or averages, when they have one of their own: "the total transaction amount
     * in 1993" dates the transactions, not the accounts they are grouped by. Right after the measure the phrase is the
     * measure's; elsewhere, with two dates it could be, the question is asked back.
     */
    private Sense.Attr measuredDate(ParseState w, int i, Tok t, Sense.Attr chosen) throws Unreadable {
        String table = w.measure != null ? w.measure.table()
                : w.metric != null && w.metric.tables().size() == 1 ? w.metric.tables().get(0) : null;
        Optional<Sense.Attr> ofMeasure = table == null ? Optional.empty() : lexicon.dateColumn(table);
        if (ofMeasure.isEmpty() || ofMeasure.get().equals(chosen)) {
            return chosen;
        }
        Sense before = i >= 1 ? w.toks.get(i - 1).sense() : null;
        if (before instanceof Sense.Measure || before != null && before.equals(w.measure) || chosen == null) {
            return ofMeasure.get();
        }
        throw new Unreadable("I could not tell which date '" + t.text() + "' refers to: " + chosen.name() + " or "
                + ofMeasure.get().name() + " (the date of the rows measured); name the date");
    }

    /** The date column date phrases apply to: the one named, else the only date of the anchor or the subject. */
    Sense.Attr dateColumn(ParseState w) {
        if (w.dateColumn != null) {
            return w.dateColumn;
        }
        for (String table : new String[] {w.anchor, w.subject}) {
            Optional<Sense.Attr> d = table == null ? Optional.empty() : lexicon.dateColumn(table);
            if (d.isPresent()) {
                return d.get();
            }
        }
        return null;
    }

    /** The stored value or code of {@code a} that a plain word spells exactly ("status A"), or null. */
    String codeAfter(Sense.Attr a, Tok next) {
        if (!next.plain() || !a.name().contains(".")) {
            return null;
        }
        Optional<KgEntry.Column> c = lexicon.graph().column(a.table(), a.name().substring(a.table().length() + 1));
        if (c.isEmpty()) {
            return null;
        }
        for (String v : c.get().codes().isEmpty() ? c.get().values() : List.copyOf(c.get().codes().keySet())) {
            if (v.equals(next.text())) {
                return v;
            }
        }
        return null;
    }

    /**
     * Another metric of the graph that reads the same column as a snapshot (e.g. the balance after the last
     * transaction, {@code arg_max(trans.balance, trans.date)}): then a plain aggregate of that column over all rows
     * ("average balance") is not a settled reading.
     */
    Optional<KgEntry.Metric> snapshotOf(KgEntry.Metric m) {
        Matcher plain = PLAIN_AGG.matcher(m.expression());
        return plain.matches() ? snapshotOf(plain.group(3)) : Optional.empty();
    }

    /** A metric of the graph that reads {@code column} as a snapshot (not a plain aggregate), if any. */
    Optional<KgEntry.Metric> snapshotOf(String column) {
        return lexicon.graph().metrics().stream().filter(o -> !PLAIN_AGG.matcher(o.expression()).matches()
                && o.expression().matches("(?s)\\s*\\w+\\(\\s*" + Pattern.quote(column) + "\\b.*")).findFirst();
    }

    static Sense.Attr numericAttr(Tok t) {
        return t.sense() instanceof Sense.Attr a && a.numeric() ? a : null;
    }

    /** The nearest earlier token that is not a stop word. */
    static Tok previousContent(ParseState w, int i) {
        for (int j = i - 1; j >= 0; j--) {
            Tok p = w.toks.get(j);
            if (p.sense() != null || !(Phrases.stop().contains(p.word()) || p.is("a", "an", "the", "of"))) {
                return p;
            }
        }
        return null;
    }

    static boolean singular(Tok t) {
        String last = t.words().get(t.words().size() - 1);
        String shown = t.text().toLowerCase(Locale.ROOT);
        return shown.endsWith(last) && !shown.endsWith("s");
    }

    static boolean qualifies(Tok next, String table) {
        return next.sense() instanceof Sense.Attr a && a.table().equals(table)
                || next.sense() instanceof Sense.Choice c && c.options().stream().anyMatch(a -> a.table().equals(table));
    }

    /** Whether the token at {@code j} (or past "of", "the", "is" from it, away from the column) is a value of column {@code a}. */
    private boolean namesValueColumn(ParseState w, int j, Sense.Attr a, int step) {
        while (j >= 0 && j < w.toks.size() && w.toks.get(j).is("of", "the", "is", "are", "was", "were", "equals", "equal", "to")) {
            j += step;
        }
        Tok v = j < 0 || j >= w.toks.size() ? null : w.toks.get(j); // a stored value, or a number only this column holds ("county 06037")
        Optional<Sense.Cond> held = v == null ? Optional.empty() : v.sense() instanceof Sense.Cond c ? Optional.of(c)
                : v.number() && step > 0 ? NumberValues.of(lexicon, v.word()) : Optional.empty();
        return held.filter(c -> c.sql().startsWith(a.sql() + " = ")).isPresent();
    }

    /** A comparison right after the column, or after "is": "unit price above 35", "whose unit price is above 35". */
    private static boolean comparedAfter(ParseState w, int i) {
        int j = i + 1;
        while (j < w.toks.size() && w.toks.get(j).is("is", "are", "was", "were", "by", "of")) { // "felt by at least one", "debts of over 10"
            j++;
        }
        return j < w.toks.size() && w.toks.get(j).sense() instanceof Sense.Compare;
    }

    private static boolean numberFollows(ParseState w, int i) {
        for (int j = i + 1; j < w.toks.size() && j <= i + 3; j++) {
            Tok n = w.toks.get(j);
            if (n.number()) {
                return true;
            }
            if (!n.plain() || !n.is("of", "a", "an", "the", "is", "equal", "to")) {
                return false;
            }
        }
        return false;
    }

    static List<String> words(List<Tok> toks) {
        List<String> out = new ArrayList<>();
        toks.stream().filter(Tok::plain).forEach(t -> out.add(t.word()));
        return out;
    }

    /**
     * Whether a value is said in the plural as the thing counted ("deaths" for type = 'Death'): in a table of one kind of
     * event that may name all its rows as well as the one category, so the question is asked.
     */
    static boolean nounOfRows(Tok t, Sense.Cond c) {
        java.util.regex.Matcher v = java.util.regex.Pattern.compile("= '([^']*)'$").matcher(c.sql());
        String said = t.text().toLowerCase(java.util.Locale.ROOT);
        return v.find() && said.endsWith("s") && !v.group(1).toLowerCase(java.util.Locale.ROOT).endsWith("s")
                && Phrases.key(said).equals(Phrases.key(v.group(1))); // "deaths" of 'Death', not "republicans" of 'REP'
    }
}
