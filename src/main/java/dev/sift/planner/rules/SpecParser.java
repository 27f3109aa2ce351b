package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Patterns;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Vocabulary;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a tokenized question ({@link Reader}) into a {@link QuerySpec}, or says why it cannot ({@link Parse}).
 * Precision first: every content word must be mapped, every ambiguity settled by the question itself (the table it
 * names) or by the knowledge graph. One rule per kind of token fills the {@link ParseState} — tables, conditions,
 * metrics and columns here, columns, dates, comparisons and related-row filters in {@link PhraseRules}, plain words
 * (numbers, grouping cues, aggregates, negations) in {@link #plain} — and {@link ShapeRules} decides the shape.
 * Each filter joins to the entity it follows in the question ("loans of accounts in Prague": the account's district;
 * "clients who live in Prague": the client's). A rule that cannot read its token throws {@link Unreadable}; the
 * first such reason is the answer, after the words nothing names (which are reported first).
 */
public final class SpecParser {
    private static final Vocabulary V = Vocabulary.WORDS;
    private static final Pattern PARTICIPLE = Patterns.ALL.get("parse.participle");

    private final Lexicon lexicon;
    private final PhraseRules phrases;
    private final ShapeRules shapes;

    /** The words of each follow-up merged into the turns before it, oldest first, whose values replace theirs, or null. */
    private final List<String> followUp;

    public SpecParser(Lexicon lexicon) {
        this(lexicon, null);
    }

    /** As above; a value said in a later entry of {@code followUp} (the person's own words) replaces an earlier one's. */
    public SpecParser(Lexicon lexicon, List<String> followUp) {
        this.followUp = followUp;
        this.lexicon = lexicon;
        this.phrases = new PhraseRules(lexicon);
        this.shapes = new ShapeRules(lexicon, phrases);
    }

    /**
     * The spec of a question: its plain reading, else — when it opens by naming columns ("list the account ID and opening
     * date for …", "what is the region of client 3541") — the reading of those columns of the rows it names.
     */
    public Parse parse(List<Tok> toks) {
        Parse plain = parse(toks, null);
        // "list the engineer jobs": the column named right after its own values is what is listed, not the whole rows
        Optional<ColumnRules.Head> head = plain instanceof Parse.Parsed p && !(p.spec().shape() == QuerySpec.Shape.LIST
                && p.spec().columns().isEmpty() && ColumnRules.valuesThenColumn(toks)) ? Optional.empty() : ColumnRules.head(toks);
        if (head.isEmpty()) {
            return RankedOrder.ranked(plain, toks);
        }
        Parse columns = parse(toks, head.get());
        return RankedOrder.ranked(columns instanceof Parse.Parsed || !(plain instanceof Parse.Unmapped || plain instanceof Parse.Parsed)
                ? columns : plain, toks);
    }

    private Parse parse(List<Tok> toks, ColumnRules.Head head) {
        ParseState w = new ParseState(toks, head);
        w.followUp = followUp;
        Ranking.who(w, lexicon);
        String problem = null;
        for (int i = 0; i < toks.size(); i++) {
            try {
                w.at = i;
                step(w, i);
            } catch (Unreadable e) {
                problem = problem == null ? e.getMessage() : problem;
            }
        }
        if (problem == null && toks.stream().anyMatch(t -> t.is("when")) && toks.stream().anyMatch(t -> t.is("where"))
                && java.util.stream.IntStream.range(2, toks.size()).noneMatch(k -> toks.get(k - 1).is("and") // "where and when"
                && toks.get(k - 2).is("when", "where") && toks.get(k).is("when", "where"))) {
            problem = "the question asks both when and where, and I answer one of them at a time"; // never one dropped unsaid
        }
        if (problem == null && (w.negate || w.related != null)) {
            problem = w.negate ? "I could not tell what 'no'/'without' applies to" : "I could not tell what the comparison applies to";
        }
        if (!w.verbs.isEmpty() && !readsFact(w)) {
            w.unmapped.addAll(w.verbs);
        }
        problem = problem == null ? ContestWords.settle(w, lexicon) : problem;
        boolean verb = w.measureTok != null && !dev.sift.knowledge.Thesaurus.nounsOfVerb(w.measureTok.text()).isEmpty();
        if (w.measure != null && w.measure.numeric() && (verb || w.toks.size() > 1 && w.toks.get(0).is("how") && w.toks.get(1).is("many"))) {
            // "how many people died", "the most people killed": the people are what the deaths column counts
            w.unmapped.removeIf(dev.sift.knowledge.RowNouns::people);
        }
        if (!w.unmapped.isEmpty()) {
            return new Parse.Unmapped(List.copyOf(new LinkedHashSet<>(w.unmapped)), w.readings);
        }
        if (problem != null) {
            return new Parse.Problem(problem, w.readings);
        }
        try {
            QuerySpec spec = EachOfTwo.apply(SummedCells.apply(TotalRows.apply(shapes.shape(w), lexicon, w.readings), lexicon, w.readings),
                    w.toks, lexicon, w.readings);
            return new Parse.Parsed(spec, w.readings, w.asRead());
        } catch (Unreadable e) {
            return new Parse.Problem(e.getMessage(), w.readings);
        }
    }

    /** Whether the question reads a fact table (its subject, a joined table, or the measure's or metric's table). */
    private boolean readsFact(ParseState w) {
        List<String> tables = new ArrayList<>();
        tables.add(w.subject);
        w.links.forEach(l -> {
            tables.add(l.from());
            tables.add(l.to());
        });
        if (w.measure != null) {
            tables.add(w.measure.table());
        }
        if (w.metric != null) {
            tables.addAll(w.metric.tables());
        }
        return tables.stream().anyMatch(lexicon::fact);
    }

    private void step(ParseState w, int i) throws Unreadable {
        Tok t = w.toks.get(i);
        Sense s = t.sense();
        boolean rankTarget = w.ranking != null && w.ranking.awaitsTarget(i);
        if (w.head.contains(i)) {
            ColumnRules.read(w, i, t, lexicon, phrases);
        } else if (s == null) {
            plain(w, i, t);
        } else if (s instanceof Sense.Attr && t.words().equals(List.of("year")) && (rankTarget
                || i > 0 && w.toks.get(i - 1).is("a", "single", "any", "one", "that", "this", "same"))) {
            // "the 5 deadliest years": ranked as the calendar's years are; "in a single year", "that year": no column
            plain(w, i, new Tok(t.text(), t.words(), null));
        } else if (s instanceof Sense.Entity e) {
            entity(w, i, t, e, rankTarget);
        } else if (s instanceof Sense.Cond c) {
            cond(w, t, LooseNames.plural(w, i, t, c, lexicon), rankTarget); // "the Toyota Corollas": every name beginning so
        } else if (s instanceof Sense.Via v) {
            w.read(t, v.reading());
            if (rankTarget && w.subject == null) { // "which branch has …": the district the join leads to
                w.ranking.target = new Ranking.Target.Rows(v.join().other(v.table()), t);
            }
            if (w.subject == null) {
                w.subject = v.table();
                w.anchor = v.table();
            }
            w.via = v;
        } else if (s instanceof Sense.Measure m) {
            measure(w, t, m);
        } else if (s instanceof Sense.Attr a) {
            phrases.attr(w, i, t, a, rankTarget);
        } else if (s instanceof Sense.Choice c) {
            Sense.Attr side = ContestWords.side(w, c, lexicon); // "which team … at home": home_team
            phrases.attr(w, i, t, side != null ? side : phrases.choose(w, i, t, c), rankTarget);
        } else if (s instanceof Sense.Values v) {
            Sense.Cond side = ContestWords.side(w, v, lexicon); // "home games of Barcelona": home_team
            cond(w, t, side != null ? side : phrases.chooseValue(w, i, t, v), rankTarget);
        } else if (s instanceof Sense.Ambiguous a) {
            throw new Unreadable("'" + t.text() + "' is ambiguous here: " + a.text());
        } else if (s instanceof Sense.Dates d) {
            phrases.dates(w, i, t, d);
        } else if (s instanceof Sense.Compare c) {
            phrases.compare(w, i, t, c);
        }
    }

    /** A condition of the graph or a value: a filter on its table, joined to what the phrase hangs off. */
    void cond(ParseState w, Tok t, Sense.Cond given, boolean rankTarget) throws Unreadable {
        boolean negated = w.notValue;
        Sense.Cond c = Negations.applied(w, given);
        w.read(t, c.describe());
        if (w.negate) {
            throw new Unreadable("I read 'no'/'without' only before a related table ('accounts with no loan'), not before '"
                    + t.text() + "'");
        }
        if (w.subject == null && rankTarget) {
            w.ranking.target = new Ranking.Target.Rows(c.table(), null);
        }
        if (w.subject == null && !negated) {
            TableNouns.everyRowOrSome(w, lexicon, t, c); // "how many teachers": all rows, or the rows of 'Teacher'?
        }
        TableNouns.readNumberOf(w, lexicon, t, c); // "the number of blacksmiths": the people counted
        if (w.orPending || ValueLists.listedBefore(w, c)) {
            w.orWith(t, c);
            return;
        }
        w.subjectByValue = w.subject == null;
        w.subjectOrAttach(c.table());
        w.filter(c.table(), c.sql(), c.describe());
        if (!rankTarget && w.ranking != null && w.ranking.awaitsOrder() && countedAfter(w, w.at)
                && !MeasureWords.columnAfter(w, w.at, c.table())) {
            w.ranking.order = new Ranking.Order.ByCount(c.table()); // "the most female clients": clients, counted
        }
    }

    /** Whether a word of number ("most", "fewest") comes right before token {@code i}, after the ranking started. */
    private static boolean countedAfter(ParseState w, int i) {
        for (int j = i - 1; j >= Math.max(0, w.ranking.start - 1); j--) {
            Tok k = w.toks.get(j);
            if (k.plain() && V.has(k.word(), "descending", "ascending")) {
                return !V.map("aggregates").containsKey(k.word());
            }
            if (!k.plain()) {
                return false;
            }
        }
        return false;
    }

    /**
     * Whether the table's word qualifies the column after it ("seismic network": a noun as said), which is no verb
     * ("which candidate raised …", "which district pays …").
     */
    private static boolean qualifiesNext(ParseState w, int i, Sense.Entity e) {
        Tok next = i + 1 < w.toks.size() ? w.toks.get(i + 1) : null;
        return next != null && PhraseRules.qualifies(next, e.table()) && !(next.sense() instanceof Sense.Attr a
                && MeasureWords.verbOf(next, a) && !next.text().equalsIgnoreCase(dev.sift.knowledge.Thesaurus.nounBase(next.text())));
    }

    /** A table: the subject, a ranked target, a grouping ("by district"), or a table a filter joins to. */
    private void entity(ParseState w, int i, Tok t, Sense.Entity e, boolean rankTarget) throws Unreadable {
        w.read(t, "table " + e.table());
        w.entityWords = t.words();
        w.entityTable = e.table();
        if (w.related != null) {
            Sense.Compare c = w.related;
            w.related = null;
            phrases.related(w, e.table(), c, t);
            return;
        }
        if (w.negate) {
            w.negate = false;
            phrases.noneOf(w, e.table(), t);
            return;
        }
        if (w.subject != null && !e.table().equals(w.subject) && predicate(w, i)) {
            throw new Unreadable("the question says the " + w.subject + " rows are '" + t.text() + "', which are rows of table "
                    + e.table() + ", not of " + w.subject);
        }
        boolean backToRows = e.table().equals(w.subject) && w.toks.get(i - 1).is("his", "her", "their", "its", "own"); // "their campaign"
        if (w.subject != null && i > 0 && w.toks.get(i - 1).is("the", "this", "that", "his", "her", "their", "its")
                && PhraseRules.singular(t) && !namedAfter(w, i, e.table()) && !backToRows) {
            throw new Unreadable("which " + e.table() + " do you mean by '" + w.toks.get(i - 1).text() + " " + t.text()
                    + "'? Name it by its id, e.g. '" + e.table() + " 123'");
        }
        if (qualifiesNext(w, i, e)) {
            return; // "loan duration", "loan amount": a table word qualifying the attribute after it
        }
        boolean ranksOwn = w.ranking != null && w.ranking.order instanceof Ranking.Order.ByColumn c && c.attr().table().equals(e.table());
        if (w.groupCue && w.subject != null && e.table().equals(w.subject) && (w.measure != null || ranksOwn)) {
            perOwnRow(w, t, e); // "the average quantity per order": each order once, not one group per order
            return;
        }
        if (w.groupCue && w.subject != null) {
            w.groupCue = false;
            w.attach(e.table());
            w.group = lexicon.label(e.table()).orElseThrow(() -> new Unreadable("I do not know how to name the rows of table "
                    + e.table()));
            return;
        }
        boolean named = w.ranking != null && w.ranking.target instanceof Ranking.Target.Rows r && r.tok() == null
                && r.table().equals(e.table()); // "which European car …": the value opened the rows ranked, the noun names them
        if (rankTarget || named) {
            w.ranking.target = new Ranking.Target.Rows(e.table(), t);
        } else if (w.ranking != null && w.ranking.awaitsOrder()) {
            w.ranking.order = Ranking.notSelfCounted(w.ranking, rankedBy(w, i, e.table(), t), t);
        }
        if (w.subject == null) {
            w.subject = e.table();
        } else if (headAfterValue(w, i, e)) { // "Toys orders": the orders are counted, the value qualifies them
            String qualifier = w.subject;
            w.subject = e.table();
            w.link(e.table(), qualifier, null);
        } else {
            w.attach(e.table());
        }
        w.subjectByValue = false;
        w.anchor = e.table();
    }

    /**
     * What "the most loans" or "the largest loan" ranks by: the number of the table's rows after a word of number
     * ("most", "fewest"), its amount after a word of size ("largest", "highest": the largest loan amount of each group).
     */
    private Ranking.Order rankedBy(ParseState w, int i, String table, Tok t) throws Unreadable {
        for (int j = i - 1; j >= w.ranking.start - 1 && j >= 0; j--) {
            Tok k = w.toks.get(j);
            if (k.plain() && V.has(k.word(), "descending", "ascending")) {
                String fn = V.map("aggregates").get(k.word());
                if (fn == null) {
                    break;
                }
                Sense.Attr amount = lexicon.amount(table).orElseThrow(() -> new Unreadable("I could not tell what '" + k.text()
                        + " " + t.text() + "' ranks by: table " + table + " has no amount"));
                w.agg = w.agg == null ? fn : w.agg;
                w.readings.add("'" + k.text() + " " + t.text() + "' → by the " + (fn.equals("max") ? "largest " : "smallest ")
                        + amount.name());
                w.attach(table);
                return new Ranking.Order.ByColumn(amount);
            }
        }
        return new Ranking.Order.ByCount(table);
    }

    /**
     * Whether a table is said to be what the subject's rows are: "transactions that are credits", "credits among the
     * transactions" — after "among", or after "are/is" that follows "that/which/who".
     */
    private static boolean predicate(ParseState w, int i) {
        int j = i - 1;
        while (j >= 0 && w.toks.get(j).is("the", "a", "an", "all")) {
            j--;
        }
        if (j >= 0 && w.toks.get(j).is("among")) {
            return true;
        }
        return j >= 1 && w.toks.get(j).is("are", "is", "were", "was") && V.has(w.toks.get(j - 1).word(), "relative_words")
                && w.toks.get(j - 1).plain();
    }

    /**
     * Whether the row of a singular table is named right after it: by its id ("the client 12", "the client with the id
     * 3541") or by a value of its own ("the district of Jesenik", "the district named Jesenik").
     */
    private static boolean namedAfter(ParseState w, int i, String table) {
        for (int j = i + 1; j < w.toks.size(); j++) {
            Tok t = w.toks.get(j);
            if (t.number() || t.sense() instanceof Sense.Cond c && c.table().equals(table)) {
                return true;
            }
            if (!t.plain() || !(V.has(t.word(), "key_words") || t.is("with", "the", "of", "named", "called", "whose", "is"))) {
                return false;
            }
        }
        return false;
    }

    /**
     * Whether a table right after the value that opened the question is its head noun ("how many Toys orders",
     * "London customers' orders" is not): the value of another table qualifies this one, so this one is counted.
     */
    private static boolean headAfterValue(ParseState w, int i, Sense.Entity e) {
        return w.subjectByValue && i > 0 && w.toks.get(i - 1).sense() instanceof Sense.Cond c && c.table().equals(w.subject)
                && !e.table().equals(w.subject) && w.ranking == null && w.measure == null && w.metric == null
                && w.group == null;
    }

    /**
     * "per order" after a measure of the orders table itself: grouping by the table's own key gives one group per row,
     * which is never what an average per order means; the average over the rows is. Any other aggregate per own row
     * ("total quantity per order") is asked about rather than listed row by row.
     */
    private static void perOwnRow(ParseState w, Tok t, Sense.Entity e) throws Unreadable {
        w.groupCue = false;
        java.util.function.Predicate<String> overRows = f -> "avg".equals(f) || "median".equals(f); // "the median amount per candidate"
        if (!overRows.test(w.agg) && w.toks.stream().noneMatch(k -> k.plain() && overRows.test(V.map("aggregates").get(k.word())))) {
            throw new Unreadable("'per " + t.text() + "' would give one group for each " + e.table() + " row, since " + (w.measure == null
                    ? "what is ranked" : w.measure.name()) + " is a value of each row; ask for its average per " + t.text() + ", or list the rows");
        }
        w.readings.add("'per " + t.text() + "' → each " + e.table() + " row counts once");
    }

    /** A metric of the graph, possibly named with its grouping ("loans per region"). */
    private void measure(ParseState w, Tok t, Sense.Measure m) throws Unreadable {
        w.read(t, m.reading());
        Optional<KgEntry.Metric> snapshot = phrases.snapshotOf(m.metric());
        if (snapshot.isPresent()) {
            throw new Unreadable("'" + t.text() + "' is not a settled measure: the knowledge graph also defines metric "
                    + snapshot.get().name() + (snapshot.get().description() == null ? "" : " (" + snapshot.get().description()
                    + ")") + " over the same column, so a plain " + m.metric().name() + " over all rows may not be what you"
                    + " mean; say per what and at which date");
        }
        if (w.metric != null) {
            throw new Unreadable("the question names two metrics");
        }
        w.metric = m.metric();
        w.subjectOrAttach(m.metric().grain());
        m.metric().tables().forEach(tb -> w.link(m.metric().grain(), tb, null));
        metricGroup(w, t, m.metric());
        if (w.ranking != null && w.ranking.awaitsOrder()) {
            w.ranking.order = new Ranking.Order.ByMetric(m.metric());
        }
    }

    /** "loans per region": the group named inside the metric's phrase, after its cue. */
    private void metricGroup(ParseState w, Tok t, KgEntry.Metric metric) throws Unreadable {
        List<String> ws = t.words();
        for (int k = 0; k < ws.size() - 1; k++) {
            boolean inEach = ws.get(k).equals("in") && ws.get(k + 1).equals("each");
            if (V.has(ws.get(k), "group_cues") || inEach) {
                int from = ws.get(k + 1).equals("each") ? k + 2 : k + 1;
                Optional<Sense> g = from < ws.size() ? lexicon.sense(ws.subList(from, ws.size())) : Optional.empty();
                if (g.isPresent() && g.get() instanceof Sense.Attr a) {
                    w.attach(a.table());
                    w.group = a;
                } else if (g.isPresent() && g.get() instanceof Sense.Entity e && lexicon.label(e.table()).isPresent()) {
                    w.attach(e.table());
                    w.group = lexicon.label(e.table()).get();
                } else {
                    throw new Unreadable("I could not tell how metric " + metric.name() + " is grouped");
                }
                return;
            }
        }
    }

    // ------------------------------------------------------------------ plain words

    /** A word no phrase matched: a number, a code, a grouping unit or cue, an aggregate, a negation, or filler. */
    private void plain(ParseState w, int i, Tok t) throws Unreadable {
        if (t.number()) {
            number(w, i, t);
            return;
        }
        Tok before = i > 0 ? w.toks.get(i - 1) : null;
        String code = before != null && before.sense() instanceof Sense.Attr a ? phrases.codeAfter(a, t) : null;
        if (code != null) { // "status A"
            Sense.Attr a = (Sense.Attr) before.sense();
            cond(w, new Tok(before.text() + " " + t.text(), t.words(), null), new Sense.Cond(a.table(), a.sql() + " = "
                    + Sql.quoteString(code), a.name() + " = '" + code + "'"), false);
            return;
        }
        if (i == w.consumed) {
            return; // "up" of "signed up", read with the verb before it
        }
        if (V.has(t.word(), "key_words") && keyNumberAfter(w, i)) {
            return; // "id" of "the client with the id 3541" or "whose ID is 1337", read with the number
        }
        if (!(PeriodRules.year(w, t, lexicon, phrases) || PeriodRules.read(w, i, t, lexicon, phrases) || PeriodRules.weekday(w, i, t, lexicon, phrases)
                || cue(w, i, t) || Negations.read(w, t) || aggregate(w, t) || ValueLists.or(w, t) || MeasureWords.people(w, t)
                || MeasureWords.census(w, t, lexicon) || adjective(w, t) || dateVerb(w, i, t) || ChoiceByVerb.said(w, i, t) || transactionVerb(w, t)
                || ContestWords.read(w, t) || ChangeRanking.verb(w, i, t) || Fillers.filler(t.word()) && !Fillers.nounAfterWhich(w, i, t)
                || LooseNames.kindWord(w, i, t, lexicon))) {
            w.unmapped.add(t.text());
        }
    }

    /** An id after a table ("account 16"), a value after a numeric column ("duration 60"), or the N of "top N". */
    private void number(ParseState w, int i, Tok t) throws Unreadable {
        if (w.ranking != null && i == w.ranking.start - 1) {
            return;
        }
        Tok prev = PhraseRules.previousContent(w, i);
        Tok keyed = keyedEntity(w, i);
        if (keyed != null) {
            prev = keyed;
        }
        if (prev != null && prev.sense() instanceof Sense.Entity e && (w.toks.get(i - 1) == prev || keyed != null)) {
            KgEntry.Column key = lexicon.key(e.table()).orElseThrow(() -> new Unreadable("table " + e.table()
                    + " has no identifier column for '" + t.text() + "'"));
            w.filter(e.table(), KgSql.column(e.table(), key.name()) + " = " + t.word(), key.qualified() + " = " + t.word());
            String said = keyed == null ? prev.text() + " " + t.text() : String.join(" ", w.toks.subList(w.toks.indexOf(prev), i + 1)
                    .stream().map(Tok::text).toList());
            w.readings.add("'" + said + "' → " + key.qualified() + " = " + t.word());
            return;
        }
        Optional<Sense.Attr> year = YearNouns.after(w, i, lexicon);
        Sense.Attr a = year.isPresent() ? year.get() : prev == null ? null : PhraseRules.numericAttr(prev); // "the 2001 budget"
        if (a != null) {
            w.filter(a.table(), a.sql() + " = " + t.word(), a.name() + " = " + t.word());
            w.readings.add("'" + t.text() + "' → " + a.name() + " = " + t.word());
            return;
        }
        Optional<Sense.Cond> held = NumberValues.of(lexicon, t.word()); // "which state is 90210 in": a stored code
        held.ifPresent(c -> w.filter(c.table(), c.sql(), c.describe()));
        held.ifPresentOrElse(c -> w.readings.add("'" + t.text() + "' → " + c.describe() + " (a stored value)"), () -> w.unmapped.add(t.text()));
    }

    /** Whether a number follows a key word, right after it or after "is" ("whose ID is 1337"). */
    private static boolean keyNumberAfter(ParseState w, int i) {
        int j = i + 1;
        while (j < w.toks.size() && w.toks.get(j).is("is", "was", "equals", "of")) {
            j++;
        }
        return j < w.toks.size() && w.toks.get(j).number();
    }

    /** The table a number is the id of through a key word: "the client with the id 3541", "account number 3", or null. */
    private static Tok keyedEntity(ParseState w, int i) {
        boolean key = false;
        for (int j = i - 1; j >= 0; j--) {
            Tok t = w.toks.get(j);
            if (t.sense() instanceof Sense.Entity) {
                return key ? t : null;
            }
            if (!t.plain() || !(V.has(t.word(), "key_words") || t.is("with", "the", "of", "whose", "is", "a", "an"))) {
                return null;
            }
            key |= V.has(t.word(), "key_words");
        }
        return null;
    }

    /** "by", "per", "each", "every": a grouping follows, except "held by …" (an agent), "by at least 1", "top 5 districts by …". */
    private static boolean cue(ParseState w, int i, Tok t) {
        if (!V.has(t.word(), "group_cues")) {
            return false;
        }
        Tok prev = i > 0 ? w.toks.get(i - 1) : null;
        Sense next = i + 1 < w.toks.size() ? w.toks.get(i + 1).sense() : null;
        String before = prev == null ? "" : prev.text().toLowerCase(java.util.Locale.ROOT);
        boolean agent = t.is("by") && prev != null && (prev.plain() || !(next instanceof Sense.Attr)) // "held by …", not "died, by race"
                && PARTICIPLE.matcher(before.substring(before.lastIndexOf(' ') + 1)).matches();
        boolean measureOf = t.is("by") && (next instanceof Sense.Compare || i + 1 < w.toks.size() && w.toks.get(i + 1).is("what", "how"));
        boolean listed = w.head.contains(i + 1); // "list each species with its scientific name": the values, each once
        if (!agent && !measureOf && !listed && !(w.ranking != null && t.is("by"))) {
            w.groupCue = true;
        }
        return true;
    }


    /** An aggregate word: the aggregate of the question, or of a ranked measure ("top 5 districts by total amount"). */
    private static boolean aggregate(ParseState w, Tok t) {
        String fn = V.map("aggregates").get(t.word());
        if (fn == null || MeasureSwap.aggregate(w, fn)) {
            return fn != null;
        }
        if (w.ranking == null && w.agg == null) {
            w.agg = fn;
        } else if (w.ranking != null && w.ranking.target != null && w.agg == null && V.has(t.word(), "rank_aggregates")) {
            w.agg = fn;
        }
        return true;
    }

    /** "loans that are running" = "running loans": the word and the last entity's words looked up together. */
    private boolean adjective(ParseState w, Tok t) throws Unreadable {
        if (w.entityWords == null || Fillers.filler(t.word())) {
            return false;
        }
        List<String> phrase = new ArrayList<>(List.of(t.word()));
        phrase.addAll(w.entityWords);
        Optional<Sense> adj = lexicon.sense(phrase);
        if (adj.isPresent() && adj.get() instanceof Sense.Cond c && c.table().equals(w.entityTable)) {
            cond(w, t, c, false);
            return true;
        }
        return false;
    }

    /**
     * A verb whose stem names a date column, right before a date phrase: "signed up in 2022" → customers.signup_date,
     * "ordered in 2024" → orders.order_date. The date phrase then applies to that column.
     */
    private boolean dateVerb(ParseState w, int i, Tok t) {
        int next = i + 1 < w.toks.size() && w.toks.get(i + 1).is("up", "out") ? i + 2 : i + 1;
        if (next >= w.toks.size() || !(w.toks.get(next).sense() instanceof Sense.Dates) || !t.word().matches("[a-z]{3,}")) {
            return false;
        }
        String word = t.word();
        List<String> stems = new ArrayList<>(List.of(word));
        if (word.endsWith("ied")) {
            stems.add(word.substring(0, word.length() - 3) + "y");
        } else if (word.endsWith("ed")) {
            String base = word.substring(0, word.length() - 2);
            stems.add(base);
            stems.add(word.substring(0, word.length() - 1));
            if (base.length() > 2 && base.charAt(base.length() - 1) == base.charAt(base.length() - 2)) {
                stems.add(base.substring(0, base.length() - 1)); // "shipped" → ship
            }
        }
        if (next == i + 2) { // "signed up" → signup
            String particle = w.toks.get(i + 1).word();
            stems = new ArrayList<>(stems.stream().map(x -> x + particle).toList());
        }
        Optional<Sense.Attr> date = lexicon.dateOfVerb(stems);
        if (date.isEmpty()) {
            return false;
        }
        w.consumed = next == i + 2 ? i + 1 : w.consumed;
        w.dateColumn = date.get();
        if (w.subject == null) {
            w.subject = date.get().table();
            w.anchor = date.get().table();
        }
        w.readings.add("'" + t.text() + (next == i + 2 ? " " + w.toks.get(i + 1).text() : "") + "' → the date "
                + date.get().name());
        return true;
    }

    /** "placed", "sold", "ordered": filler when the question reads a fact table, checked once it is read. */
    private static boolean transactionVerb(ParseState w, Tok t) {
        if (!V.has(t.word(), "transaction_verbs")) {
            return false;
        }
        w.verbs.add(t.text());
        return true;
    }
}
