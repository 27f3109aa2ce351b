package dev.sift.planner.rules;

import dev.sift.knowledge.RowNouns;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rule of {@link SpecParser} for calendar periods ({@link Periods}): "sales by month", "orders per quarter", "flights
 * by day of the week" group by the period of a date; "which weekday has the most flights" ranks the periods; "monthly
 * average price" groups by its word alone. The date is the one the question names ("by month of ship date", "ship date
 * by month"), else the only date of the table the question is about; a table with several dates is asked about.
 */
final class PeriodRules {
    private PeriodRules() { }

    /** "per year": a grouping by the year of the subject's date; "year" is otherwise a word of rankings only. */
    static boolean year(ParseState w, Tok t, Lexicon lexicon, PhraseRules phrases) throws Unreadable {
        if (!t.is("year")) {
            return false;
        }
        if (w.groupCue) {
            boolean totals = ofTotals(w, w.at);
            String cue = (w.at > 0 ? w.toks.get(w.at - 1).text() + " " : "") + t.text(); // "per year"
            w.groupCue = false;
            Sense.Attr date = phrases.dateColumn(w);
            String table = table(w, w.at, lexicon);
            Optional<Sense.Attr> number = date != null || table == null ? Optional.empty() : lexicon.yearColumn(table);
            if (number.isPresent()) { // a whole-number year column: its own values are the years
                w.attach(number.get().table());
                w.readings.add("'" + t.text() + "' → " + number.get().name());
                return grouped(w, number.get(), totals, cue);
            }
            date = date == null && table != null ? lexicon.dateColumn(table).orElse(null) : date;
            if (date == null) {
                throw new Unreadable("I could not tell which date 'year' refers to");
            }
            w.attach(date.table());
            w.readings.add("'" + t.text() + "' → year(" + date.name() + ")");
            return grouped(w, new Sense.Attr(date.table(), "year", "year(" + date.sql() + ")", "BIGINT"), totals, cue);
        }
        if (w.ranking != null && w.ranking.awaitsTarget(w.at) || counted(w, w.at)) { // "which year had the most deaths"
            read(w, w.at, t, lexicon, phrases);
        } else if (w.ranking == null) {
            w.unmapped.add(t.text());
        }
        return true;
    }

    private static final List<String> WEEKDAYS = List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday");

    /** "on a Saturday", "on Mondays": the rows whose date falls on that weekday (of the date as stored). */
    static boolean weekday(ParseState w, int i, Tok t, Lexicon lexicon, PhraseRules phrases) throws Unreadable {
        String word = t.word().endsWith("s") ? t.word().substring(0, t.word().length() - 1) : t.word();
        if (!WEEKDAYS.contains(word)) {
            return false;
        }
        Sense.Attr date = date(w, i, t, lexicon, phrases);
        String day = Character.toUpperCase(word.charAt(0)) + word.substring(1);
        w.filter(date.table(), Periods.of(Periods.Grain.WEEKDAY, date).sql() + " = '" + day + "'",
                "the weekday of " + date.name() + " = '" + day + "'");
        w.readings.add("'" + t.text() + "' → the rows whose " + date.name() + " falls on a " + day);
        w.subjectOrAttach(date.table());
        return true;
    }

    /** Whether token {@code i} is a period word read as a grouping or a ranked target (else it is left to the other rules). */
    static boolean read(ParseState w, int i, Tok t, Lexicon lexicon, PhraseRules phrases) throws Unreadable {
        boolean weekday = t.is("day") && after(w, i, "week") > 0;
        Periods.Grain grain = weekday ? Periods.Grain.WEEKDAY : Periods.grain(t.word());
        boolean target = w.ranking != null && w.ranking.awaitsTarget(i);
        boolean counted = counted(w, i) && !w.groupCue && !target;
        if (grain == null && (target || counted) && t.is("year")) { // "which year had the most deaths": a year column, or a date's year
            String table = table(w, i, lexicon);
            Optional<Sense.Attr> year = table == null ? Optional.empty() : lexicon.yearColumn(table);
            if (year.isPresent() && !counted) {
                w.subjectOrAttach(year.get().table());
                w.ranking.target = new Ranking.Target.Values(year.get());
                w.readings.add("'" + t.text() + "' → " + year.get().name());
                return true;
            }
            grain = Periods.Grain.YEAR;
        }
        if (grain == null || !(w.groupCue || target || counted || t.word().endsWith("ly"))) {
            return false;
        }
        // "the average yearly generation", "the maximum monthly total": one figure over the periods' totals, not one per period
        boolean totals = ofTotals(w, i) || t.word().endsWith("ly") && i > 0 && aggregates(w.toks.get(i - 1));
        if (weekday) {
            w.consumed = after(w, i, "week"); // "week" of "day of the week"
        }
        if (grain == Periods.Grain.HOUR && after(w, i, "day") > 0) {
            w.consumed = after(w, i, "day"); // "day" of "hour of the day"
        }
        boolean withinYear = grain == Periods.Grain.MONTH || grain == Periods.Grain.QUARTER;
        int ofYear = withinYear ? after(w, i, "year") : -1;
        if (ofYear > 0) {
            w.consumed = ofYear; // "month of the year": the calendar month, whatever its year
        }
        ofYear = ofYear < 0 && withinYear && i > 0 && w.toks.get(i - 1).is("calendar") ? i : ofYear; // "calendar month"
        String of = table(w, i, lexicon);
        Optional<Sense.Attr> years = (grain == Periods.Grain.DECADE || grain == Periods.Grain.YEAR && of != null
                && lexicon.dateColumn(of).isEmpty()) && phrases.dateColumn(w) == null
                ? Optional.ofNullable(of).flatMap(lexicon::yearColumn) : Optional.empty(); // "yearly": a whole-number year column
        Sense.Attr date = years.isPresent() ? years.get() : date(w, i, t, lexicon, phrases);
        if (grain == Periods.Grain.HOUR && !date.type().startsWith("TIMESTAMP")) {
            throw new Unreadable(date.name() + " holds dates without a time of day, so it has no hours");
        }
        Sense.Attr period = years.isPresent() ? (grain == Periods.Grain.YEAR ? date : Periods.decadeOf(date))
                : ofYear > 0 ? Periods.withinYear(Periods.of(grain, date)).orElseThrow() : Periods.of(grain, date);
        w.subjectOrAttach(date.table());
        if (counted) { // "how many months had CO2 above 400": the months there are among the rows picked
            w.measure = period;
            w.measureTok = t;
        } else if (target) {
            w.ranking.target = new Ranking.Target.Values(period);
        } else {
            w.groupCue = false;
        }
        w.readings.add((ofYear == i ? "'calendar " : "'") + t.text() + (weekday ? " of the week" : ofYear > i ? " of the year" : "") + "' → the " + grain.word
                + (ofYear > 0 ? " of the year" : "") + " of " + date.name());
        return counted || target || grouped(w, period, totals, (i > 0 ? w.toks.get(i - 1).text() + " " : "") + t.text());
    }

    /** The period read as the grouping, or as the one whose totals one figure is over ({@link PeriodTotals}); true. */
    private static boolean grouped(ParseState w, Sense.Attr period, boolean totals, String said) {
        if (totals) {
            totalsPer(w, period, said);
        } else {
            w.group = period;
        }
        return true;
    }

    /** The column after a grouping cue ("by", "per"): the grouping, or the periods whose totals one figure is over. */
    static void grouped(ParseState w, int i, Tok t, Sense.Attr a, Lexicon lexicon) throws Unreadable {
        w.groupCue = false;
        if (lexicon.isYearColumn(a) && ofTotals(w, i)) {
            totalsPer(w, a, "per year"); // "on average, how much … per year": yearly totals averaged
        } else if (!a.numeric() && !a.date() && (ofTotals(w, i) || tallied(w, i, lexicon)) && w.toks.get(i - 1).is("per")) { // "the average number of men per job": each job's total, averaged
            totalsPer(w, a, "per " + t.text());
        } else if (!a.numeric() && !a.date() && ofTotals(w, i)) { // "for each status, how many … and their average …"
            throw new Unreadable("'" + w.toks.get(i - 1).text() + " " + t.text() + "' asks for one average of each " + a.name()
                    + "'s total; ask for the total by " + t.text());
        } else {
            w.group = a;
        }
    }

    /** The period whose totals one figure is taken over, said in the answer's "Read as" line. */
    static void totalsPer(ParseState w, Sense.Attr period, String said) {
        w.totalsPer = period;
        w.readings.add("'" + said + "' → one figure over the " + Periods.each(period) + " totals");
    }

    /**
     * Whether "per year" (or "each month") in an averaged total ("on average, how much did Iowa generate per year", "the
     * average number of deaths per year") asks for one average of the periods' totals rather than an average in each
     * period; not for an average of values ("the average price per year" is one average in each year), nor where another
     * grouping follows ("average generation per year for each source", where each group's rows are its years).
     */
    static boolean ofTotals(ParseState w, int i) {
        boolean averaged = w.toks.stream().anyMatch(k -> k.plain() && averages(k));
        boolean total = w.toks.stream().anyMatch(k -> k.is("how")) && w.toks.stream().anyMatch(k -> k.is("much", "many"))
                || java.util.stream.IntStream.range(1, i).anyMatch(k -> w.toks.get(k - 1).is("number") && w.toks.get(k).is("of"));
        int cue = i > 1 && RowNouns.census(w.toks.get(i - 1).word()) ? i - 1 : i; // "per census year"
        return cue > 0 && w.toks.get(cue - 1).is("per", "each", "every") && averaged && total
                && w.toks.subList(i + 1, w.toks.size()).stream().noneMatch(k -> k.is("each", "by", "per", "every"));
    }

    /** Whether "per X" ({@code i} at X) follows an average of a table's tally ("the average count per job"): each X's tally, averaged. */
    private static boolean tallied(ParseState w, int i, Lexicon lexicon) {
        return w.measure != null && w.toks.stream().anyMatch(k -> k.plain() && averages(k))
                && lexicon.tally(w.measure.table()).filter(w.measure::equals).isPresent()
                && w.toks.subList(i + 1, w.toks.size()).stream().noneMatch(k -> k.is("each", "by", "per", "every"));
    }

    /** Whether token {@code i} is what "how many" counts: "how many months …". */
    private static boolean counted(ParseState w, int i) {
        return i >= 2 && w.toks.get(i - 1).is("many") && w.toks.get(i - 2).is("how") && w.measure == null;
    }

    /** Whether a word is one figure over many ("average", "maximum"); "total monthly sales" are totals by month. */
    private static boolean aggregates(Tok k) {
        String fn = dev.sift.knowledge.Vocabulary.WORDS.map("aggregates").get(k.word());
        return fn != null && !fn.equals("sum");
    }

    /** Whether a word is an average or a median ("average", "mean", "median"). */
    private static boolean averages(Tok k) {
        return Set.of("avg", "median").contains(String.valueOf(dev.sift.knowledge.Vocabulary.WORDS.map("aggregates").get(k.word())));
    }

    /** The index of {@code word} in "day of (the) week", "month of the year" starting at token {@code i}, or -1. */
    private static int after(ParseState w, int i, String word) {
        int j = i + 1;
        while (j < w.toks.size() && w.toks.get(j).is("of", "the", "a")) {
            j++;
        }
        return j > i + 1 && j < w.toks.size() && w.toks.get(j).words().equals(List.of(word)) ? j : -1; // also a column's word ("year")
    }

    /**
     * The date the period is of: one named right after ("month of ship date", consumed here) or before, else the only date
     * of the table the question is about so far or of the first table named after the word.
     */
    private static Sense.Attr date(ParseState w, int i, Tok t, Lexicon lexicon, PhraseRules phrases) throws Unreadable {
        int j = i + 1;
        while (j < w.toks.size() && w.toks.get(j).is("of", "the")) {
            j++;
        }
        if (j > i + 1 && j < w.toks.size() && w.toks.get(j).sense() instanceof Sense.Attr a && a.date()) {
            w.consumed = j;
            return a;
        }
        Sense.Attr named = phrases.dateColumn(w);
        if (named != null) {
            return named;
        }
        String table = table(w, i, lexicon);
        Optional<Sense.Attr> only = table == null ? Optional.empty() : lexicon.dateColumn(table);
        if (only.isPresent()) {
            return only.get();
        }
        List<String> dates = table == null ? List.of() : lexicon.graph().columns(table).stream().map(Lexicon::attr)
                .filter(Sense.Attr::date).map(Sense.Attr::name).toList();
        throw new Unreadable("I could not tell which date '" + t.text() + "' is of" + (table == null ? ""
                : dates.isEmpty() ? ": table " + table + " has no date column" : ": table " + table + " has the dates "
                + String.join(", ", dates) + "; say e.g. 'by " + t.text() + " of " + dates.get(0).substring(
                dates.get(0).indexOf('.') + 1) + "'"));
    }

    /** The table the question is about so far, else the first named after token {@code i}, else the dataset's one table. */
    private static String table(ParseState w, int i, Lexicon lexicon) {
        String table = w.base();
        for (int k = i + 1; table == null && k < w.toks.size(); k++) {
            table = tableOf(w.toks.get(k).sense());
        }
        if (table == null && lexicon.graph().tables().size() == 1) { // "how many months are there": the one table's
            table = lexicon.graph().tables().get(0).name();
        }
        return table;
    }

    /** The table a phrase reads, or null. */
    private static String tableOf(Sense s) {
        if (s instanceof Sense.Entity e) {
            return e.table();
        }
        if (s instanceof Sense.Cond c) {
            return c.table();
        }
        if (s instanceof Sense.Attr a) {
            return a.table();
        }
        return s instanceof Sense.Measure m ? m.metric().grain() : null;
    }
}
