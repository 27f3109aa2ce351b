package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides the shape of a read question and builds its {@link QuerySpec}: one rule per shape, mirroring
 * {@link QueryBuilder}'s switch — {@link #count}, {@link #aggregate}, {@link #metric}, {@link #share}, {@link #top}
 * (TOP_GROUPS / TOP_ROWS) and {@link #list}. A rule that cannot build its shape says why ({@link Unreadable}).
 */
final class ShapeRules {
    private static final Vocabulary V = Vocabulary.WORDS;
    private static final Map<String, String> AGG_WORD = Map.of("sum", "total", "avg", "average", "median", "median",
            "stddev_samp", "standard deviation (sample)");

    private final Lexicon lexicon;
    private final PhraseRules phrases;

    ShapeRules(Lexicon lexicon, PhraseRules phrases) {
        this.lexicon = lexicon;
        this.phrases = phrases;
    }

    QuerySpec shape(ParseState w) throws Unreadable {
        List<String> words = PhraseRules.words(w.toks);
        ImpliedReadings.before(w, lexicon);
        boolean extreme = "min".equals(w.agg) || "max".equals(w.agg);
        if (extreme && w.columns.size() == 1 && w.columns.get(0).equals(w.measure)) {
            w.columns.clear(); // "the age of the youngest victim": the lowest age
        }
        if (extreme && w.columns.size() == 1 && w.columns.get(0).date() && w.measure == null && w.ranking == null && w.group == null) {
            w.measure = w.columns.remove(0); // "the date of the last Serie A match": the latest date, not a list of dates
        }
        if (extreme && w.measure == null && w.columns.isEmpty() && w.subject != null && w.toks.stream().anyMatch(t -> t.is("when"))) {
            w.measure = lexicon.dateColumn(w.subject).orElse(null); // "when did the last victim die": its table's one date
        }
        if (w.totalsPer != null || PeriodTotals.overYears(w, lexicon)) {
            return PeriodTotals.spec(w, lexicon);
        }
        // "what's the deepest quake? give the place and depth", "which source grew the most", "… has the most counties"
        if (SuperlativeRow.read(w) || ChangeRanking.read(w) || DistinctRanking.read(w)) {
            return w.change != null ? change(w) : top(w);
        }
        if (!w.columns.isEmpty()) {
            return ColumnRules.shape(w, lexicon);
        }
        if (w.change != null) {
            return change(w);
        }
        if (w.ranking != null || WhenExtreme.read(w, lexicon)) {
            return top(w);
        }
        if (w.metric != null) {
            return metric(w);
        }
        if (ShareWords.asked(w)) {
            return share(w);
        }
        if (w.agg != null) {
            return aggregate(w);
        }
        if (words.contains("many") && words.contains("how") || words.contains("count") || pair(words, "number", "of")) {
            return count(w);
        }
        if (words.stream().anyMatch(x -> V.has(x, "distribution"))) {
            return breakdown(w);
        }
        Optional<QuerySpec> named = namedAverage(w);
        if (named.isPresent()) {
            return named.get();
        }
        if (w.group != null && w.measure == null && w.toks.stream().anyMatch(t -> t.sense() instanceof Sense.Entity e
                && e.table().equals(w.subject))) {
            return count(w); // "sales by month", "flights per weekday": the table's rows, counted per group
        }
        Optional<QuerySpec> total = howMuch(w, words);
        if (total.isPresent()) {
            return total.get();
        }
        Optional<QuerySpec> byGroup = totalByGroup(w);
        return byGroup.isPresent() ? byGroup.get() : list(w, words);
    }

    /** COUNT: "how many clients live in Prague", optionally grouped. */
    private QuerySpec count(ParseState w) throws Unreadable {
        if (w.measure != null && !w.measure.equals(w.group) && w.measure.table().equals(w.subject) && countedRightAfterHowMany(w) && (!w.measure.numeric()
                && !w.measure.date() || lexicon.isYearColumn(w.measure) || Periods.named(w.measure) // "how many years": the years there are
                || w.toks.stream().anyMatch(t -> t.is("different") || t.is("distinct") || t.is("unique")))) {
            return spec(w, QuerySpec.Shape.AGG, w.measure.table(), "distinct", w.measure, null, null); // "how many neighborhoods"
        }
        if (w.measure != null && !w.measure.equals(w.group) && w.measure.numeric() && w.measure.type().matches("(?i).*INT.*")
                && !lexicon.isYearColumn(w.measure) && countedInHowMany(w)) {
            w.readings.add("'" + (w.toks.stream().anyMatch(k -> k.is("many")) ? "how many" : "number of") + "' " + w.measureTok.text() + " → the total of "
                    + w.measure.name()); // "how many deaths", "the number of deaths"
            MeasureWords.stockWithinOnePeriod(w, lexicon, w.measure);
            return spec(w, QuerySpec.Shape.AGG, w.measure.table(), "sum", w.measure, null, null);
        }
        if (w.measure != null) {
            throw new Unreadable("I could not tell what to count: '" + w.measure.name() + "' is a value of each row, not rows");
        }
        Optional<Sense.Attr> heads = w.subject == null ? Optional.empty() : tallied(w, w.subject);
        if (heads.isPresent()) { // "how many children under 5": each row stands for that many people
            w.measure = heads.get();
            w.readings.add("'how many' → the total of " + w.measure.name() + " (each " + w.subject + " row counts that many"
                    + (heads.equals(lexicon.headcount(w.subject)) ? " people)" : ")"));
            MeasureWords.stockWithinOnePeriod(w, lexicon, w.measure); // "how many engineers are there": in which census?
            return spec(w, QuerySpec.Shape.AGG, w.subject, "sum", w.measure, null, null);
        }
        return spec(w, QuerySpec.Shape.COUNT, w.subject, null, null, null, null);
    }

    /** "how much did Iowa generate", "how much electricity came from nuclear": the total of an amount that adds up. */
    private Optional<QuerySpec> howMuch(ParseState w, List<String> words) throws Unreadable {
        if (pair(words, "how", "much") && words.indexOf("how") == 0 && w.measure == null && w.group == null && w.subject != null) {
            Optional<Sense.Attr> amount = oneAmount(w.subject);
            if (amount.isPresent()) { // "how much electricity came from nuclear": the table's one amount
                w.measure = amount.get();
                w.readings.add("'how much' → the table's one amount, " + w.measure.name());
            }
        }
        boolean said = MeasureWords.totalSaid(w, w.measure) && w.group == null; // "what are the total disbursements in CA"
        if ((pair(words, "how", "much") && words.indexOf("how") == 0 || said) && w.measure != null && w.measure.numeric()
                && !w.measure.date() && MeasureWords.addsUp(lexicon, w.measure)) {
            w.readings.add("'" + (said ? w.measureTok.text() : "how much") + "' → the total of " + w.measure.name()); // "how much did Iowa generate in 2017"
            return Optional.of(spec(w, QuerySpec.Shape.AGG, w.measure.table(), "sum", w.measure, null, null));
        }
        return Optional.empty();
    }

    /**
     * The column saying how many each row of {@code table} stands for, when the question counts those and not rows: the
     * headcount of a table of people counted as people ("how many children"), or a table's tally ("count") unless the
     * question counts rows, records or entries.
     */
    private Optional<Sense.Attr> tallied(ParseState w, String table) {
        Optional<Sense.Attr> heads = countsPeople(w) ? lexicon.headcount(table) : Optional.empty();
        return heads.isPresent() || MeasureWords.rowsSaid(w) ? heads : lexicon.tally(table);
    }

    /**
     * Whether the question counts people by a noun for them ("children", "people", "women" picking a sex), not the rows
     * ("records", "rows").
     */
    private static boolean countsPeople(ParseState w) {
        return w.toks.stream().anyMatch(t -> t.sense() instanceof Sense.Entity && !t.text().contains(" ")
                && (RowNouns.people(t.word()) || RowNouns.names(t.word(), java.util.Set.of(RowNouns.Kind.PERSON)))
                || t.sense() instanceof Sense.Cond && RowNouns.sexNoun(t.word()));
    }

    /** Whether a word names the table as an amount: one word in the singular ("electricity", "population"), not its rows. */
    private static boolean namesAmount(Tok t, String table) {
        return t.sense() instanceof Sense.Entity e && e.table().equals(table) && !t.text().contains(" ")
                && t.text().toLowerCase(java.util.Locale.ROOT).equals(dev.sift.knowledge.Thesaurus.nounBase(t.text()));
    }


    /** The table's one number column whose values add up (not its key), if it has exactly one. */
    private Optional<Sense.Attr> oneAmount(String table) {
        Optional<Sense.Attr> heads = lexicon.headcount(table);
        if (heads.isPresent()) { // a table of counts of people: how many each row stands for
            return heads;
        }
        List<Sense.Attr> amounts = lexicon.graph().columns(table).stream().map(Lexicon::attr)
                .filter(a -> a.numeric() && !a.date() && MeasureWords.addsUp(lexicon, a) && lexicon.key(table)
                        .map(k -> !a.name().equals(k.qualified())).orElse(true)).toList();
        return amounts.size() == 1 ? Optional.of(amounts.get(0)) : Optional.empty();
    }

    /**
     * "Earthquake deaths by decade": a whole-number count of things (a column named in the plural: Deaths) named with a
     * grouping and no aggregate, added up per group; "loan amounts by status" (total or average?) is still asked about.
     */
    private Optional<QuerySpec> totalByGroup(ParseState w) {
        if (w.group == null || w.measure == null || w.measure.equals(w.group) || !w.measure.numeric() || w.measure.date()
                || !MeasureWords.addsUp(lexicon, w.measure) || !w.measure.table().equals(w.group.table())) {
            return Optional.empty();
        }
        List<String> name = NameWords.split(w.measure.column());
        String last = name.isEmpty() ? "" : name.get(name.size() - 1); // "deaths by year"; "total disbursements by party"
        if (!MeasureWords.totalSaid(w, w.measure) && (!w.measure.type().matches("(?i).*INT.*") || last.equals(Thesaurus.nounBase(last)))) {
            return Optional.empty();
        }
        w.readings.add("'" + w.measureTok.text() + "' by " + w.group.name() + " → the total of " + w.measure.name() + " in each");
        return Optional.of(spec(w, QuerySpec.Shape.AGG, w.measure.table(), "sum", w.measure, null, null));
    }


    /**
     * Whether the measure is the noun "how many" counts: "how many (different) neighborhoods …", also past its table's
     * own word ("how many different energy sources" in a table read as "energy").
     */
    private static boolean countedRightAfterHowMany(ParseState w) {
        int i = w.toks.indexOf(w.measureTok);
        while (i > 0 && (w.toks.get(i - 1).is("different", "distinct", "unique")
                || w.toks.get(i - 1).sense() instanceof Sense.Entity e && e.table().equals(w.measure.table()))) {
            i--;
        }
        return i >= 2 && (w.toks.get(i - 1).is("many") && w.toks.get(i - 2).is("how") // "the number of deaths" too
                || w.toks.get(i - 1).is("of") && w.toks.get(i - 2).is("number"));
    }

    /**
     * Whether a whole-number column is what "how many" or "the number of" counts: named right after it, past values that
     * pick rows ("how many earthquake deaths"), or by the verb of people it counts ("how many people died", "… were
     * killed").
     */
    private static boolean countedInHowMany(ParseState w) {
        int i = w.toks.indexOf(w.measureTok);
        while (i > 0 && (w.toks.get(i - 1).sense() instanceof Sense.Cond || RowNouns.people(w.toks.get(i - 1).word())
                || w.toks.get(i - 1).is("were", "was", "have", "has", "had", "been", "are"))) { // "how many people were killed"
            i--;
        }
        return i >= 2 && (w.toks.get(i - 1).is("many") && w.toks.get(i - 2).is("how") // "the number of deaths" too
                || w.toks.get(i - 1).is("of") && w.toks.get(i - 2).is("number"));
    }

    /** COUNT grouped by a column: "breakdown of loans by status", "distribution of loan durations". */
    private QuerySpec breakdown(ParseState w) throws Unreadable {
        Sense.Attr by = w.group != null ? w.group : w.measure;
        if (by == null) {
            throw new Unreadable("I could not tell what to break down by");
        }
        if (w.group != null && w.measure != null) {
            throw new Unreadable("I could not tell what '" + w.measure.name() + "' is for in a breakdown");
        }
        Optional<Sense.Attr> amount = w.group == null || w.toks.stream().noneMatch(t -> namesAmount(t, w.subject))
                ? Optional.empty() : oneAmount(w.subject);
        if (amount.isPresent()) { // "breakdown of the population by age group": its total in each group
            w.measure = amount.get();
            w.readings.add("'" + w.subject + "' → the table's one amount, " + w.measure.name());
            return spec(w, QuerySpec.Shape.AGG, w.subject, "sum", w.measure, null, by);
        }
        return spec(w, QuerySpec.Shape.COUNT, w.subject, null, null, null, by);
    }

    /** AGG: total/average/median/min/max of a measure; a running value with a snapshot metric is asked about. */
    private QuerySpec aggregate(ParseState w) throws Unreadable {
        Sense.Attr m = w.measure;
        Optional<Sense.Attr> amount = m != null || !"sum".equals(w.agg) || w.toks.stream().noneMatch(t -> namesAmount(t, w.subject))
                ? Optional.empty() : oneAmount(w.subject); // "total orders" counts them: only a singular word names an amount
        if (amount.isPresent()) { // "total population by sex", "total electricity by source": the table's one amount
            m = w.measure = amount.get();
            w.readings.add("the total → the table's one amount, " + m.name());
        }
        boolean otherWords = w.toks.stream().anyMatch(t -> t.sense() instanceof Sense.Attr || t.plain() && V.has(t.word(), "time_order"));
        Optional<Sense.Attr> own = m != null || otherWords || w.toks.stream().noneMatch(t -> t.sense() instanceof Sense.Entity e
                && e.table().equals(w.subject)) ? Optional.empty() : lexicon.amount(w.subject); // not "the date of the first loan"
        if (own.isPresent()) { // "the average CO2 concentration": table co2_concentration's column CO2
            m = w.measure = own.get();
            w.readings.add("'" + w.subject + "' → its amount, " + m.name());
        }
        if (m == null && ("max".equals(w.agg) || "min".equals(w.agg)) && w.ranking == null && w.toks.stream().anyMatch(t -> t.sense()
                instanceof Sense.Entity e && e.table().equals(w.subject) && PhraseRules.singular(t)) && degree(w.subject).isPresent()) {
            w.ranking = Ranking.one("max".equals(w.agg)); // "what was the biggest quake in Alaska": that quake, by magnitude
            w.ranking.target = new Ranking.Target.Rows(w.subject, null);
            w.agg = null;
            return top(w);
        }
        if (m == null) {
            throw new Unreadable("I could not tell which number to " + w.agg + (w.agg.equals("sum") ? "" : " over"));
        }
        boolean extreme = w.agg.equals("min") || w.agg.equals("max") || w.agg.equals("range");
        if (!m.numeric() && !m.date()) {
            throw new Unreadable("'" + m.name() + "' is not a number to aggregate");
        }
        if (m.date() && !extreme) {
            throw new Unreadable("I can only give the first or last date of " + m.name());
        }
        int at = w.measureTok == null ? -1 : w.toks.indexOf(w.measureTok);
        Optional<Tok> order = at < 1 ? Optional.empty() : Optional.of(w.toks.get(at - 1)).filter(t -> t.plain()
                && V.has(t.word(), "time_order"));
        if (order.isPresent() && !m.date() && lexicon.dateColumn(m.table()).isPresent()) { // "the first CO2 value": not the lowest
            throw new Unreadable("'" + order.get().text() + " " + w.measureTok.text() + "' is the " + m.name() + " of the "
                    + (w.agg.equals("min") ? "earliest" : "latest") + " row by " + lexicon.dateColumn(m.table()).get().name()
                    + ", which I do not look up offline; ask for the " + (w.agg.equals("min") ? "lowest" : "highest") + " "
                    + w.measureTok.text() + " if that is what you mean");
        }
        Optional<KgEntry.Metric> snapshot = phrases.snapshotOf(m.sql());
        if (snapshot.isPresent() && !extreme) {
            throw new Unreadable("a " + AGG_WORD.get(w.agg) + " of " + m.name() + " over all rows is not a settled measure:"
                    + " the knowledge graph defines metric " + snapshot.get().name() + (snapshot.get().description() == null
                    ? "" : " (" + snapshot.get().description() + ")") + " over the same column; say per what and at which date");
        }
        if (w.agg.equals("sum")) {
            MeasureWords.stockWithinOnePeriod(w, lexicon, m); // "the total population of Japan": in which year?
        }
        return spec(w, QuerySpec.Shape.AGG, m.table(), w.agg, m, null, null);
    }

    /**
     * CHANGE: "how much did renewable generation grow from 2001 to 2017", "by what percent did the population grow
     * between 1900 and 2000": the measure's total (or average, when asked) in the last year against the first.
     */
    private QuerySpec change(ParseState w) throws Unreadable {
        Sense.Dates span = w.toks.stream().map(Tok::sense).filter(x -> x instanceof Sense.Dates d && d.yearFrom() > 0
                && d.yearTo() > d.yearFrom()).map(Sense.Dates.class::cast).findFirst().orElseThrow(() -> new Unreadable(
                "a change is between two years, and the question names no span ('from 2001 to 2017')"));
        boolean ranked = w.ranking != null && w.group != null; // "which source grew the most": one change per source
        Sense.Attr m = w.measure != null ? w.measure : ranked || w.toks.stream().anyMatch(t -> namesAmount(t, w.subject))
                ? oneAmount(ranked ? w.group.table() : w.subject).orElse(null) : null;
        if (m == null || !m.numeric() || m.date()) {
            throw new Unreadable("I could not tell which number's change to compute");
        }
        String fn = w.agg != null ? w.agg : MeasureWords.addsUp(lexicon, m) ? "sum" : ranked ? "avg" : null; // a level per group and year: its value
        if (!"sum".equals(fn) && !"avg".equals(fn)) {
            throw new Unreadable("the values of " + m.name() + " do not add up across rows; ask for the change in its average");
        }
        Optional<String> year = lexicon.yearColumn(m.table()).map(Sense.Attr::sql)
                .or(() -> lexicon.dateColumn(m.table()).map(d -> Periods.of(Periods.Grain.YEAR, d).sql()));
        if (year.isEmpty() || w.group != null && !ranked && !Periods.named(w.group) && !lexicon.isYearColumn(w.group)) {
            throw new Unreadable("I compute one change between two years of one date, not one per group");
        }
        Optional<Sense.Attr> yearly = lexicon.yearColumn(m.table());
        if ("either".equals(w.change) && !ranked && w.group == null && yearly.isPresent() && w.toks.get(0).is("how")
                && w.toks.get(1).is("did", "has", "have", "does", "do")) { // "how did the number of bartenders change from 1910 to 1930"
            w.group = yearly.get();
            w.readings.add("'how did … change' → the " + AGG_WORD.get(fn) + " of " + m.name() + " in each year from " + span.yearFrom()
                    + " to " + span.yearTo());
            return spec(w, QuerySpec.Shape.AGG, m.table(), fn, m, null, null);
        }
        List<QuerySpec.Filter> years = List.of(new QuerySpec.Filter(m.table(), year.get() + " = " + span.yearFrom(), "in "
                + span.yearFrom()), new QuerySpec.Filter(m.table(), year.get() + " = " + span.yearTo(), "in " + span.yearTo()));
        List<QuerySpec.Filter> kept = w.filters.stream().filter(f -> !MeasureWords.onPeriod(lexicon, f, m.table())).toList();
        w.readings.add("the " + AGG_WORD.get(fn) + " of " + m.name() + " in " + span.yearTo() + " against " + span.yearFrom());
        return new QuerySpec(ShareWords.asked(w) ? QuerySpec.Shape.PERCENT_CHANGE : QuerySpec.Shape.CHANGE, m.table(), fn, m, null,
                ranked ? w.group : null, kept, List.copyOf(w.links), ranked ? w.ranking.n : null, !"down".equals(w.change), years,
                List.of(), false);
    }

    /** METRIC: a metric of the graph ("default rate by region"). */
    private QuerySpec metric(ParseState w) throws Unreadable {
        if (w.measure != null) {
            throw new Unreadable("the question names both metric " + w.metric.name() + " and " + w.measure.name());
        }
        return spec(w, QuerySpec.Shape.METRIC, w.metric.grain(), null, null, w.metric, null);
    }

    /** "average salary" names district.A11 itself; averaging it over rows is what the graph's metric does. */
    private Optional<QuerySpec> namedAverage(ParseState w) throws Unreadable {
        String fn = w.measure == null || w.measureTok == null ? null : V.map("aggregates").get(w.measureTok.word());
        if (fn == null || !w.measure.numeric()) {
            return Optional.empty();
        }
        String expr = fn + "(" + w.measure.sql() + ")";
        Optional<KgEntry.Metric> metric = lexicon.graph().metrics().stream()
                .filter(m -> m.expression().replace(" ", "").equalsIgnoreCase(expr.replace(" ", ""))).findFirst();
        if (metric.isEmpty()) {
            return Optional.empty();
        }
        w.readings.add("'" + w.measureTok.text() + "' over several rows → metric " + metric.get().name() + " = "
                + metric.get().expression());
        return Optional.of(spec(w, QuerySpec.Shape.METRIC, metric.get().grain(), null, null, metric.get(), null));
    }

    /**
     * SHARE: the percentage of the subject's rows meeting conditions. The conditions are what follows the verb or
     * relative word after the subject ("what percentage of male clients have weekly statements": weekly), or what comes
     * before "among" ("what share of women among clients in Prague"); the filters before them say which rows the share
     * is of (male clients). With no such split, every condition is the share's (of all the subject's rows).
     */
    private QuerySpec share(ParseState w) throws Unreadable {
        if (w.group != null) {
            throw new Unreadable("I compute one percentage at a time, not one per group");
        }
        Sense.Attr amount = w.measure != null && w.measure.numeric() && !w.measure.date() && MeasureWords.addsUp(lexicon, w.measure)
                && w.measure.table().equals(w.subject) ? w.measure : null; // "what share of the generation came from …"
        for (Tok t : w.toks) { // "what share of Iowa's electricity": a share of an amount, which counting rows is not
            if (amount == null && namesAmount(t, w.subject)) {
                amount = oneAmount(w.subject).orElseThrow(() -> new Unreadable("'" + t.text() + "' names an amount here,"
                        + " not rows I can count, and table " + w.subject + " has no one number column that adds up: ask"
                        + " for the total of one of its number columns by category instead"));
                w.readings.add("'" + t.text() + "' → the table's one amount, " + amount.name());
            }
        }
        amount = amount != null || w.measure != null ? amount : MeasureWords.peopleCounted(w, lexicon); // "what percentage of nurses were women"
        Sense.Attr things = amount == null ? ShareWords.thingsCounted(w) : null; // "what percentage of counties have …"
        if (amount == null && w.measure != null && things == null) {
            throw new Unreadable("I compute shares of rows, of the different values of a column named after the percentage,"
                    + " or of an amount that adds up, and '" + w.measureTok.text() + "' (" + w.measure.name() + ") is none of these");
        }
        int split = ShareWords.split(w);
        List<QuerySpec.Filter> base = new ArrayList<>();
        List<QuerySpec.Filter> cond = new ArrayList<>();
        boolean among = split >= 0 && w.toks.get(split).is("among");
        for (int k = 0; k < w.filters.size(); k++) {
            boolean after = split >= 0 && w.filterAt.get(k) > split;
            // "what share of the electricity came from wind in 2017": a share of an amount within its period
            boolean period = amount != null && MeasureWords.onPeriod(lexicon, w.filters.get(k), w.subject != null ? w.subject : amount.table());
            (after != among && !period ? cond : base).add(w.filters.get(k));
        }
        if (cond.isEmpty()) { // no main verb: every condition is the share's, but the period it is within ("in 1910, what …")
            Sense.Attr of = amount;
            cond.addAll(base.stream().filter(f -> of == null || !MeasureWords.onPeriod(lexicon, f, of.table())).toList());
            base.removeAll(cond);
            if (cond.size() > 1 && amount != null && RowNouns.peopleCount(lexicon.graph().columns(amount.table())).map(Lexicon::attr)
                    .filter(amount::equals).isPresent()) { // "the percentage of women teachers": of everyone, or of teachers?
                throw new Unreadable("the percentage of " + String.join(" and ", cond.stream().map(QuerySpec.Filter::describe).toList())
                        + " may be of all the people counted or of those of one of them (e.g. the share of teachers who are women);"
                        + " say which (e.g. 'what percentage of teachers were women')");
            }
        }
        if (cond.isEmpty()) {
            throw new Unreadable("I could not tell which rows the percentage counts");
        }
        return new QuerySpec(QuerySpec.Shape.SHARE, w.subject, amount != null ? "sum" : things != null ? "distinct" : null,
                amount != null ? amount : things, null, null,
                List.copyOf(base), List.copyOf(w.links), null, true, List.copyOf(cond), List.of(), false);
    }

    /** LIST: "list the loans of account 16", "which clients have access to account 7", "show …". */
    private static QuerySpec list(ParseState w, List<String> words) throws Unreadable {
        boolean listing = !words.isEmpty() && (words.contains("list") || V.has(words.get(0), "listing_verbs")
                || words.get(0).equals("which") || pair(words, "what", "are"));
        if (!listing || w.measure != null && !ColumnRules.shownWith(w) || w.group != null) {
            throw new Unreadable("I could not tell whether to count, aggregate or list");
        }
        return spec(w, QuerySpec.Shape.LIST, w.subject, null, null, null, null);
    }

    /** TOP_GROUPS or TOP_ROWS: what is ranked, named by its label, and by what. */
    private QuerySpec top(ParseState w) throws Unreadable {
        Ranking r = w.ranking;
        if (r.target == null) {
            throw new Unreadable("I could not tell what to rank");
        }
        if (r.implicitOne && r.target instanceof Ranking.Target.Rows rows && rows.tok() != null && !PhraseRules.singular(rows.tok())) {
            throw new Unreadable("how many " + rows.tok().text() + " should I list? Say e.g. 'which 5 " + rows.tok().text() + " …'");
        }
        if (w.group != null) {
            throw new Unreadable("I rank one kind of thing at a time");
        }
        Ranking.textOrder(w);
        Sense.Attr by = !r.shown.isEmpty() ? r.shown.get(0) : r.target instanceof Ranking.Target.Rows rows ? lexicon.label(rows.table()).orElse(null)
                : ((Ranking.Target.Values) r.target).attr();
        if (by == null && r.target instanceof Ranking.Target.Rows rows && (Ranking.fullName(w, lexicon, rows.table())
                || Ranking.describe(w, lexicon, rows.table()))) {
            by = r.shown.get(0); // "which match had the most goals": its date and teams, with no name column to say it
        }
        if (by == null) {
            throw new Unreadable("I do not know how to name the rows being ranked");
        }
        Ranking.Order order = r.order != null ? r.order : w.measure != null ? new Ranking.Order.ByColumn(w.measure)
                : w.metric != null ? new Ranking.Order.ByMetric(w.metric) : null;
        if (r.target instanceof Ranking.Target.Rows rows && (order == null
                || order instanceof Ranking.Order.ByColumn c && c.attr().table().equals(rows.table()) && w.agg == null)) {
            Ranking.fullName(w, lexicon, rows.table()); // "Who was the oldest victim?": Vivian Austin, not Vivian
            return topRows(w, rows.table(), order == null ? null : ((Ranking.Order.ByColumn) order).attr());
        }
        String counted = order instanceof Ranking.Order.ByCount c ? c.table()
                : order instanceof Ranking.Order.ByColumn c ? c.attr().table() : null;
        Optional<Sense.Attr> heads = counted == null || w.agg != null ? Optional.empty()
                : lexicon.headcount(counted).or(() -> lexicon.tally(counted));
        if (heads.isPresent() && (order instanceof Ranking.Order.ByCount && tallied(w, counted).equals(heads)
                || order instanceof Ranking.Order.ByColumn c && c.attr().equals(heads.get()))) {
            w.agg = "sum"; // "which age group had the most people": the people of each group added up, not its largest row
            w.readings.add("the " + counted + " rows counted by " + heads.get().name() + " (how many each stands for)");
            MeasureWords.stockWithinOnePeriod(w, lexicon, heads.get(), by); // "which job had the most women": in which census?
            order = new Ranking.Order.ByColumn(heads.get());
        }
        return topGroups(w, order, by);
    }

    /** TOP_ROWS: "the 3 largest loans" (by the table's amount), "which district has the highest salary". */
    private QuerySpec topRows(ParseState w, String table, Sense.Attr by) throws Unreadable {
        Sense.Attr measure = by;
        Optional<Tok> priced = w.toks.stream().filter(k -> k.plain() && V.has(k.word(), "price_words")).findFirst();
        if (measure == null && priced.isPresent()) {
            measure = lexicon.price(table).orElseThrow(() -> new Unreadable("I could not tell which column of " + table
                    + " is its price for '" + priced.get().text() + "'"));
            w.readings.add("'" + priced.get().text() + "' → by " + measure.name());
        }
        Optional<Tok> when = w.toks.stream().filter(Ranking::inTime).findFirst();
        if (measure == null && when.isPresent() && lexicon.dateColumn(table).isPresent()) { // "the most recent event": by its date
            measure = lexicon.dateColumn(table).get();
            w.readings.add("'" + when.get().text() + "' → by " + measure.name());
            boolean titled = lexicon.nameColumn(table).filter(TableNouns::title).isPresent();
            dev.sift.knowledge.RowNouns.place(lexicon.graph().columns(table)).map(Lexicon::attr).filter(p -> w.toks.get(0).is("where")
                    && !titled && !w.ranking.shown.contains(p)).ifPresent(p -> w.ranking.shown.add(0, p)); // "where was the latest": its place
        }
        if (measure == null) {
            measure = lexicon.amount(table).or(() -> degree(table)) // "the 5 biggest quakes": by magnitude, as "strongest" is
                    .orElseThrow(() -> new Unreadable("I could not tell what to rank " + table + " rows by"));
            w.readings.add("'largest/smallest' → by " + measure.name());
        }
        if (!w.ranking.shown.isEmpty() && !w.ranking.described && MeasureWords.counted(w, measure)) {
            throw new Unreadable("'the most " + measure.name() + "' of each " + w.ranking.shown.get(0).name() + " and "
                    + w.ranking.shown.get(1).name() + " adds rows up, and I rank single rows here: ask for the total by both");
        }
        Sense.Attr ranked = measure; // shown once, after the columns that name the row
        return new QuerySpec(QuerySpec.Shape.TOP_ROWS, table, null, measure, null, null, List.copyOf(w.filters), List.copyOf(w.links),
                w.ranking.n, w.ranking.descending, List.of(), w.ranking.shown.stream().filter(a -> !a.equals(ranked)).toList(), false);
    }

    /** The number column of {@code table} that "strongest" ranks by ({@code degree_superlatives}: magnitude), if it has one. */
    private Optional<Sense.Attr> degree(String table) {
        String said = V.map("degree_superlatives").get("strongest");
        return lexicon.sense(Phrases.words(said.substring(said.indexOf(' ') + 1))).filter(s -> s instanceof Sense.Attr a
                && a.table().equals(table) && a.numeric()).map(s -> (Sense.Attr) s);
    }

    /** TOP_GROUPS: groups named by {@code by}, ordered by a count of rows, a metric or an aggregate of a column. */
    private QuerySpec topGroups(ParseState w, Ranking.Order order, Sense.Attr by) throws Unreadable {
        String grain;
        KgEntry.Metric metric = null;
        Sense.Attr measure = null;
        String agg = null;
        if (order instanceof Ranking.Order.ByCount counted) { // "which 3 regions have the most clients"
            grain = counted.table();
        } else if (order instanceof Ranking.Order.ByMetric m) {
            grain = m.metric().grain();
            metric = m.metric();
        } else if (order instanceof Ranking.Order.ByColumn c && w.agg != null && (c.attr().numeric() || "distinct".equals(w.agg))) {
            grain = c.attr().table();
            measure = c.attr();
            agg = w.measureCounted && c.attr().equals(w.measure) ? "sum" : w.agg; // "when did the number of blacksmiths peak"
        } else if (order instanceof Ranking.Order.ByColumn c && !w.verbs.isEmpty() && c.attr().numeric()
                && !c.attr().table().equals(by.table())) { // "top 3 products by quantity sold": the total sold
            grain = c.attr().table();
            measure = c.attr();
            agg = "sum";
            w.readings.add("'" + w.verbs.get(0) + "' → the total " + c.attr().name() + " of the " + grain + " rows");
        } else if (order instanceof Ranking.Order.ByColumn c && w.agg == null && c.attr().numeric() && !c.attr().equals(by)
                && c.attr().table().equals(by.table())) { // "which country had the highest life expectancy": its highest value
            grain = c.attr().table();
            measure = c.attr();
            boolean counted = MeasureWords.groupTotal(w, lexicon, c.attr());
            // "the most deaths" are all of a group's deaths, not its largest row; "which party spent the most": all it spent
            agg = counted ? "sum" : w.ranking.descending ? "max" : "min";
            if (counted) {
                MeasureWords.stockWithinOnePeriod(w, lexicon, c.attr(), by); // "which job is the biggest": in which census?
            }
            Optional<Sense.Attr> each = TableNouns.things(lexicon, by.table()).filter(t -> !t.equals(by)
                    && w.filters.stream().noneMatch(f -> f.sql().startsWith(t.sql() + " = ")));
            if (!counted && each.isPresent()) { // "Which county has the most habitat?": of which species, or all added?
                throw new Unreadable("each " + by.name() + " has a row for each " + each.get().name() + "; name one, or ask for the total or average");
            }
            w.readings.add("the " + (counted ? "total" : w.ranking.descending ? "highest" : "lowest") + " " + c.attr().name()
                    + " of each " + by.name() + " ranked");
        } else if (order == null && w.agg == null && w.measure == null && Periods.named(by) && w.toks.stream().anyMatch(k -> k.sense()
                instanceof Sense.Attr a && a.date() && by.sql().contains(a.sql()))) { // "which weekday had the most coverage end dates"
            grain = by.table();
            w.readings.add("the " + by.name() + " ranked by how many " + grain + " rows fall in it");
        } else if (order == null && w.measure == null && RowNouns.peopleCount(lexicon.graph().columns(by.table())).isPresent()) {
            grain = by.table(); // "top 5 jobs for men in 1850": in a table of counts of people, by the people each counts
            measure = RowNouns.peopleCount(lexicon.graph().columns(by.table())).map(Lexicon::attr).get();
            agg = "sum";
            MeasureWords.stockWithinOnePeriod(w, lexicon, measure, by);
            w.readings.add("the " + by.name() + " ranked by their total " + measure.name() + " (the people each row counts)");
        } else {
            throw new Unreadable("I could not tell what to rank by");
        }
        return new QuerySpec(QuerySpec.Shape.TOP_GROUPS, grain, agg, measure, metric, by, List.copyOf(w.filters),
                relink(w, grain, by.table()), w.ranking.n, w.ranking.descending, List.of(), List.of(), false);
    }

    private static QuerySpec spec(ParseState w, QuerySpec.Shape shape, String subject, String agg, Sense.Attr measure,
                                  KgEntry.Metric metric, Sense.Attr groupOverride) {
        Sense.Attr group = groupOverride != null ? groupOverride : w.group;
        if (group != null && groupOverride != null && !group.table().equals(subject)) {
            w.link(subject, group.table(), null);
        }
        return new QuerySpec(shape, subject, agg, measure, metric, group, List.copyOf(w.filters), List.copyOf(w.links),
                null, true, List.of(), List.of(), false);
    }

    /** The links re-rooted at the counted table: the ranked table joins to it, filters keep their anchors. */
    private static List<QuerySpec.Link> relink(ParseState w, String grain, String rankedTable) {
        List<QuerySpec.Link> out = new ArrayList<>();
        out.add(new QuerySpec.Link(grain, rankedTable, null));
        for (QuerySpec.Link l : w.links) {
            if (!(l.from().equals(rankedTable) && l.to().equals(grain)) && !out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    private static boolean pair(List<String> words, String a, String b) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(a) && words.get(i + 1).equals(b)) {
                return true;
            }
        }
        return false;
    }
}
