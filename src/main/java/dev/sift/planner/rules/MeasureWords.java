package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.Thesaurus;

/**
 * Words that bear on the number column a question measures rather than on its rows: the column named right after a
 * value ("the most flood deaths": deaths added up, not flood rows counted), the people a count column read from a verb
 * counts ("how many people did landslides kill": the deaths, whatever word names the rows), and a population, which
 * is added up within one year only.
 */
final class MeasureWords {
    private MeasureWords() { }

    /**
     * Whether a number column of the value's table follows token {@code i}, with at most the table's own name between:
     * "the most flood deaths", "the most nuclear power generated" rank by that column, not by the rows counted.
     */
    static boolean columnAfter(ParseState w, int i, String table) {
        int j = i + 1;
        while (j < w.toks.size() && w.toks.get(j).sense() instanceof Sense.Entity e && e.table().equals(table)) {
            j++;
        }
        return j < w.toks.size() && w.toks.get(j).sense() instanceof Sense.Attr a && a.numeric() && a.table().equals(table);
    }

    /**
     * "people" (or "persons") in a question whose whole-number column was read from a verb ("killed" → Deaths, "died"):
     * the people are what that column counts, so the word is read with it rather than left unmapped. (In a table of
     * places "people" is its population column, read by {@link Lexicon}.)
     */
    static boolean people(ParseState w, Tok t) {
        if (!RowNouns.people(t.word())) {
            return false;
        }
        for (Tok k : w.toks) {
            if (k.sense() instanceof Sense.Attr a && a.type().toUpperCase(java.util.Locale.ROOT).matches("(TINY|SMALL|BIG|HUGE|U)?INT.*|INTEGER")
                    && fromVerb(k, a)) {
                w.readings.add("'" + t.text() + "' → the people " + a.name() + " counts ('" + k.text() + "')");
                return true;
            }
        }
        return false;
    }

    /**
     * "census" ("each census year", "the 1950 census") where a table counts people (its headcount or population column):
     * the count of people is what the data already is, so the word adds nothing.
     */
    static boolean census(ParseState w, Tok t, Lexicon lexicon) {
        if (!RowNouns.census(t.word())) {
            return false;
        }
        java.util.Optional<Sense.Attr> heads = lexicon.graph().tables().stream().map(tb -> lexicon.graph().columns(tb.name()))
                .flatMap(cs -> RowNouns.peopleCount(cs).or(() -> RowNouns.population(cs)).stream()).map(Lexicon::attr).findFirst();
        heads.ifPresent(a -> w.readings.add("'" + t.text() + "' → the count of people " + a.name() + " holds"));
        return heads.isPresent();
    }

    /**
     * Whether "most" or "fewest" (or "the largest number of") counts the column: right before it ("the most deaths"),
     * before it with values or its table's name between ("the most flood deaths"), or before the people it counts
     * ("killed the most people").
     */
    static boolean counted(ParseState w, Sense.Attr a) {
        for (int k = 0; k < w.toks.size(); k++) {
            boolean numberOf = k > 0 && k + 1 < w.toks.size() && w.toks.get(k).is("number") && w.toks.get(k + 1).is("of")
                    && w.toks.get(k - 1).is("largest", "highest", "greatest", "biggest", "smallest", "lowest");
            if (w.toks.get(k).is("most", "fewest") || numberOf) {
                int j = k + (numberOf ? 2 : 1);
                while (j < w.toks.size() && (w.toks.get(j).sense() instanceof Sense.Cond c && c.table().equals(a.table())
                        || w.toks.get(j).sense() instanceof Sense.Entity e && e.table().equals(a.table()))) {
                    j++;
                }
                if (j < w.toks.size() && (a.equals(w.toks.get(j).sense()) || RowNouns.people(w.toks.get(j).word())
                        && w.toks.stream().anyMatch(x -> a.equals(x.sense()) && fromVerb(x, a)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the question says "total" as the first word of a column whose name begins with it (Total_Disbursements):
     * the word asks for a total across rows as well as naming the column ("the total disbursements of California's
     * candidates", "top 3 states by total disbursements").
     */
    static boolean totalSaid(ParseState w, Sense.Attr a) {
        return a != null && a.numeric() && !a.date() && a.column().toLowerCase(java.util.Locale.ROOT).startsWith("total")
                && java.util.stream.IntStream.range(0, w.toks.size()).anyMatch(k -> a.equals(w.toks.get(k).sense())
                && w.toks.get(k).text().toLowerCase(java.util.Locale.ROOT).startsWith("total ")
                && !(k > 0 && w.toks.get(k - 1).is("their", "its", "his", "her"))); // "with their total receipts": the column
    }

    /** Whether a column was read from a verb none of its name's words is ("spent" → Total_Disbursements; not "rate"). */
    static boolean verbOf(Tok k, Sense.Attr a) {
        String stem = Phrases.stem(k.word());
        boolean verb = fromVerb(k, a) || !dev.sift.knowledge.NameWords.moneyNouns(java.util.List.of(k.word())).isEmpty(); // "owes"
        return verb && dev.sift.knowledge.NameWords.split(a.column()).stream()
                .noneMatch(x -> Phrases.stem(x.toLowerCase(java.util.Locale.ROOT)).equals(stem));
    }

    /**
     * Whether a group ranked by {@code a} is ranked by the total of its rows, not its largest row: "the most deaths", "the
     * total goals", "which party spent the most" of a column that adds up.
     */
    static boolean groupTotal(ParseState w, Lexicon lexicon, Sense.Attr a) {
        return (counted(w, a) && (a.type().matches("(?i).*INT.*") || NameWords.moneyColumn(a.column())) || totalSaid(w, a) || moved(w, a))
                && addsUp(lexicon, a); // "which party had the most cash": its candidates' cash added up
    }

    /** Whether the question says {@code a} by a verb of money ("which party spent the most": Total_Disbursements). */
    static boolean moved(ParseState w, Sense.Attr a) {
        return w.toks.stream().anyMatch(k -> a.equals(k.sense()) && moneyVerb(k));
    }

    /** Whether a token is one verb of money ("spent", "lent"), not a phrase of the data. */
    static boolean moneyVerb(Tok k) {
        return !k.text().contains(" ") && !dev.sift.knowledge.NameWords.moneyNouns(java.util.List.of(k.word())).isEmpty();
    }

    /** Whether a column was read from a verb of the question ("killed" → Deaths), not from its own name. */
    private static boolean fromVerb(Tok k, Sense.Attr a) {
        return !k.text().contains(" ") && !Phrases.stem(k.word()).equals(Phrases.stem(a.name().toLowerCase(java.util.Locale.ROOT)))
                && !Thesaurus.nounsOfVerb(k.word()).isEmpty();
    }

    /**
     * Refuses a total of a population column ("pop") over several years: how many people live somewhere is a count at one
     * moment, so it adds up across places within one year ("in 2005") or per year, never across years.
     */
    static void stockWithinOnePeriod(ParseState w, Lexicon lexicon, Sense.Attr m) throws Unreadable {
        stockWithinOnePeriod(w, lexicon, m, w.group);
    }

    /** As above, for the rows grouped by {@code group} (a year or date groups them per period). */
    static void stockWithinOnePeriod(ParseState w, Lexicon lexicon, Sense.Attr m, Sense.Attr group) throws Unreadable {
        java.util.List<dev.sift.knowledge.KgEntry.Column> columns = lexicon.graph().columns(m.table()); // "pop", or a census's count
        boolean population = RowNouns.population(columns).or(() -> RowNouns.peopleCount(columns)).map(Lexicon::attr)
                .filter(m::equals).isPresent();
        java.util.List<Sense.Attr> periods = java.util.stream.Stream.concat(lexicon.yearColumn(m.table()).stream(),
                lexicon.dateColumn(m.table()).stream()).toList();
        boolean perPeriod = group != null && periods.stream().anyMatch(p -> group.sql().contains(p.sql()));
        if (population && !periods.isEmpty() && !perPeriod && w.filters.stream()
                .noneMatch(f -> periods.stream().anyMatch(p -> f.sql().contains(p.sql())))) {
            throw new Unreadable(m.name() + " counts the people at one moment, so a total over several years would count them"
                    + " again each year; say which year, or ask per year");
        }
    }

    /** Whether a number column's values add up across rows (no rate, share or level in its name, or a contest's score; no year). */
    static boolean addsUp(Lexicon lexicon, Sense.Attr a) {
        String column = a.column();
        return (NameWords.totals(column) || dev.sift.knowledge.Contests.score(lexicon.graph(), a.table(), column))
                && !lexicon.isYearColumn(a);
    }

    /** Whether the question counts rows by a word for them ("records", "rows"; not "… in the data"). */
    static boolean rowsSaid(ParseState w) {
        return w.toks.stream().anyMatch(t -> t.words().stream().anyMatch(x -> !x.equals("data") && NameWords.rowWords().contains(x)));
    }

    /**
     * In a table of counts of people (by sex, or a headcount), the column saying how many people each row stands for: a
     * share of its rows is then a share of those people ("what percentage of nurses were women in 1950"); null otherwise.
     */
    static Sense.Attr peopleCounted(ParseState w, Lexicon lexicon) {
        Sense.Attr people = w.subject == null || rowsSaid(w) ? null // "what share of the records …" counts records
                : RowNouns.peopleCount(lexicon.graph().columns(w.subject)).map(Lexicon::attr).orElse(null);
        if (people != null) {
            w.readings.add("the share of the people " + people.name() + " counts (each " + w.subject + " row stands for that many)");
        }
        return people;
    }

    /** Whether a filter is on the table's date or year: the period a share or total is within. */
    static boolean onPeriod(Lexicon lexicon, QuerySpec.Filter f, String table) {
        return java.util.stream.Stream.concat(lexicon.dateColumn(table).stream(), lexicon.yearColumn(table).stream())
                .anyMatch(a -> f.sql().contains(a.sql()));
    }
}
