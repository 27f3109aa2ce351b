package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * "Which job had the biggest share of the workforce in 1850" in a table that carries each row's share of the whole beside
 * its count of people ("perc" beside "count"): the share column, read as "the biggest total perc" in one year (a job's
 * men and women together), as the rows' own share otherwise (shares of different years' wholes do not add up). Only after
 * an end of an order ("biggest", "largest", "smallest"), where the whole the share is of is the count column itself ("the
 * workforce", "a whole year's workforce").
 */
final class ShareOfWhole {
    private static final Vocabulary V = Vocabulary.WORDS;
    /** Words between "share of" and the count that say it is all of it. */
    private static final List<String> WHOLE = List.of("the", "a", "whole", "total", "entire", "all", "its", "their", "year", "s");

    private ShareOfWhole() { }

    /** {@code toks} with each "(biggest) share of the (whole) &lt;count of people&gt;" read as the total of the share column. */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 1; i + 2 < out.size(); i++) {
            Tok share = out.get(i);
            if (!share.plain() || !V.has(share.word(), "share") || !out.get(i + 1).is("of") || !extreme(out.get(i - 1))) {
                continue;
            }
            int j = i + 2;
            while (j < out.size() && WHOLE.contains(out.get(j).word()) && (out.get(j).plain() || out.get(j).words().equals(List.of("year")))) {
                j++;
            }
            if (j >= out.size() || !(out.get(j).sense() instanceof Sense.Attr count) || !counts(count, lexicon)) {
                continue;
            }
            Optional<Sense.Attr> column = shareColumn(count.table(), lexicon);
            if (column.isEmpty()) {
                continue;
            }
            String said = String.join(" ", out.subList(i, j + 1).stream().map(Tok::text).toList());
            out.subList(i, j + 1).clear();
            out.add(i, new Tok(said, List.of(column.get().name()), column.get()));
            if (oneYear(out)) { // a share of one year's whole adds up over its parts; over years it would not
                out.add(i, new Tok("total", List.of("total"), null));
            }
        }
        return out;
    }

    /** Whether the question picks one year ("in 1850"). */
    private static boolean oneYear(List<Tok> toks) {
        return toks.stream().anyMatch(t -> t.sense() instanceof Sense.Dates d && d.yearFrom() > 0 && d.yearFrom() == d.yearTo());
    }

    private static boolean extreme(Tok t) {
        return t.plain() && V.has(t.word(), "extremes", "descending", "ascending");
    }

    /** Whether a column is its table's count of people or tally ("the workforce" → count). */
    private static boolean counts(Sense.Attr a, Lexicon lexicon) {
        return RowNouns.peopleCount(lexicon.graph().columns(a.table())).map(Lexicon::attr).or(() -> lexicon.tally(a.table()))
                .filter(a::equals).isPresent();
    }

    /** The one number column of a table named as a share ("perc", "pct", "share"), if it has exactly one. */
    private static Optional<Sense.Attr> shareColumn(String table, Lexicon lexicon) {
        List<Sense.Attr> found = lexicon.graph().columns(table).stream().filter(c -> NameWords.share(c.name())).map(Lexicon::attr)
                .filter(a -> a.numeric() && !a.date()).toList();
        return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
    }
}
