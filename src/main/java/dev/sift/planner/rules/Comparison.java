package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A comparison of two alternatives: "Which has more orders: Toys or Books?", "Are there more loans in Prague or in
 * Brno?", "1995 or 1996: which had the higher average unemployment?". The question is read as two questions, one per
 * alternative ("how many orders Toys", "the average unemployment in 1995"), each read by the parser like any other; they
 * are compared only when both read as one number of the same kind (a count, an aggregate or a metric) that differ only
 * in what the alternatives name. The comparative word says which end wins ("more", "higher" / "fewer", "lower").
 */
public final class Comparison {
    private static final Vocabulary V = Vocabulary.WORDS;

    /**
     * The two questions; the alternatives as the result names them (a stored value, a year, else the person's words) and
     * as the person wrote them; the comparative word and whether more wins.
     */
    public record Sides(String questionA, String questionB, String labelA, String labelB, String shownA, String shownB,
                        String word, boolean more) { }

    /** The two read questions, with how each was read. */
    public record Plan(QuerySpec a, QuerySpec b, Sides sides, List<String> readings) { }

    private Comparison() { }

    /** The two questions a comparison of alternatives asks, or empty when the question compares no two alternatives. */
    public static Optional<Sides> read(List<Tok> toks) {
        List<Integer> ors = new ArrayList<>();
        int comparative = -1;
        for (int i = 0; i < toks.size(); i++) {
            if (toks.get(i).is("or")) {
                ors.add(i);
            } else if (toks.get(i).plain() && V.has(toks.get(i).word(), "comparatives")) {
                comparative = comparative < 0 ? i : comparative;
            }
        }
        if (ors.size() != 1 || comparative < 0) {
            return Optional.empty();
        }
        int o = ors.get(0);
        int bStart = o + 1;
        while (bStart < toks.size() && toks.get(bStart).plain() && V.has(toks.get(bStart).word(), "comparison_joiners")) {
            bStart++;
        }
        int bEnd = bStart;
        while (bEnd < toks.size() && alternative(toks.get(bEnd))) {
            bEnd++;
        }
        int aStart = o; // as many tokens as the second alternative has: "clients women or men" compares women and men
        while (aStart > 0 && o - aStart < bEnd - bStart && alternative(toks.get(aStart - 1))) {
            aStart--;
        }
        if (aStart == o || bEnd == bStart || o - aStart != bEnd - bStart || !parallel(toks.get(o - 1), toks.get(bEnd - 1))) {
            return Optional.empty();
        }
        String a = text(toks.subList(aStart, o));
        String b = text(toks.subList(bStart, bEnd));
        boolean years = time(toks.get(bEnd - 1)) && bEnd - bStart == 1; // labelled by their years: "1996", not "in 1996"
        String asA = asAlternative(toks.subList(aStart, o), a);
        String yearA = year(toks.get(o - 1));
        String asB = yearA != null && time(toks.get(bEnd - 1)) && !time(toks.get(o - 1)) || toks.get(o - 1).sense() instanceof Sense.Dates
                ? a.replace(yearA, year(toks.get(bEnd - 1))) : asAlternative(toks.subList(bStart, bEnd), b);
        boolean more = "more".equals(V.map("comparatives").get(toks.get(comparative).word()));
        List<Tok> rest = rest(toks, aStart, bEnd, comparative);
        boolean before = rest.isEmpty() || toks.indexOf(rest.get(0)) > aStart; // "1995 or 1996: which …": read at the end
        boolean counted = V.has(toks.get(comparative).word(), "count_comparatives")
                && rest.stream().noneMatch(t -> t.plain() && V.has(t.word(), "aggregates") || t.sense() instanceof Sense.Measure);
        String lead = counted ? "how many " : !rest.isEmpty() && rest.get(0).is("the", "a", "an") ? "what is " : "what is the ";
        return Optional.of(new Sides(question(lead, rest, toks, aStart, asA, before), question(lead, rest, toks, aStart, asB, before),
                years ? year(toks.get(o - 1)) : label(toks.get(o - 1), a), years ? year(toks.get(bEnd - 1)) : label(toks.get(bEnd - 1), b),
                a, b, toks.get(comparative).text(), more));
    }

    /** A token that may be (part of) an alternative: a phrase of the dataset, a date, or a year. */
    private static boolean alternative(Tok t) {
        return !t.plain() && !(t.sense() instanceof Sense.Compare) || t.number();
    }

    private static boolean time(Tok t) {
        return t.sense() instanceof Sense.Dates || t.number() && year(t) != null;
    }

    /** The year a token names or ends with ("1996", "in 1996", "unemployment in 1996"), or null. */
    private static String year(Tok t) {
        String last = t.words().get(t.words().size() - 1);
        return last.matches("1[89]\\d\\d|20\\d\\d") ? last : null;
    }

    /**
     * Alternatives of one kind: values of the same table, dates or years, two numbers of the same table, or a column of
     * a year and another year ("the unemployment in 1995 or in 1996").
     */
    private static boolean parallel(Tok a, Tok b) {
        boolean aTime = time(a);
        boolean bTime = time(b);
        if (aTime || bTime) {
            return aTime && bTime || bTime && a.sense() instanceof Sense.Attr && year(a) != null;
        }
        if (a.sense() instanceof Sense.Cond x && b.sense() instanceof Sense.Cond y) {
            return x.table().equals(y.table());
        }
        return a.sense() instanceof Sense.Attr x && b.sense() instanceof Sense.Attr y && x.table().equals(y.table())
                && x.numeric() && y.numeric();
    }

    /** An alternative as the result names it: the stored value it is equal to ("type OWNER" → OWNER), else its words. */
    private static String label(Tok t, String text) {
        if (t.sense() instanceof Sense.Cond c) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^[\\w.\"]+ = '((?:[^']|'')*)'$").matcher(c.sql());
            if (m.matches()) {
                return m.group(1).replace("''", "'");
            }
        }
        return text;
    }

    /** An alternative as it reads inside the question: a bare year is a time ("in 1996"). */
    private static String asAlternative(List<Tok> span, String text) {
        return span.size() == 1 && span.get(0).number() ? "in " + text : text;
    }

    /** The question's tokens without the alternatives, "or", the comparative and the words that frame a comparison. */
    private static List<Tok> rest(List<Tok> toks, int aStart, int bEnd, int comparative) {
        Set<String> named = new java.util.HashSet<>();
        for (int i = aStart; i < bEnd; i++) {
            Sense s = toks.get(i).sense();
            if (s instanceof Sense.Cond c) {
                named.add(c.table());
                named.add(c.sql().contains(" = ") ? c.sql().substring(0, c.sql().indexOf(" = ")) : "");
            }
        }
        List<Tok> out = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            Tok t = toks.get(i);
            boolean asked = i > 0 && toks.get(i - 1).is("which", "what") && (t.is("year", "one") || t.sense() instanceof Sense.Attr a
                    && named.contains(a.sql()) || t.sense() instanceof Sense.Entity e && named.contains(e.table()));
            if (i >= aStart && i < bEnd || i == comparative || asked || t.plain() && V.has(t.word(), "comparison_frame")) {
                continue;
            }
            out.add(t);
        }
        return out;
    }

    private static String question(String lead, List<Tok> rest, List<Tok> toks, int aStart, String alternative, boolean atEnd) {
        List<String> words = new ArrayList<>();
        boolean placed = false;
        for (Tok t : rest) {
            if (!atEnd && !placed && toks.indexOf(t) > aStart) {
                words.add(alternative);
                placed = true;
            }
            words.add(t.text());
        }
        if (!placed) {
            words.add(alternative);
        }
        return lead + String.join(" ", words) + "?";
    }

    private static String text(List<Tok> toks) {
        return String.join(" ", toks.stream().map(Tok::text).toList());
    }

    /** Why two read sides cannot be compared as one number each, or empty when they can. */
    public static Optional<String> incomparable(QuerySpec a, QuerySpec b) {
        Set<QuerySpec.Shape> numbers = Set.of(QuerySpec.Shape.COUNT, QuerySpec.Shape.AGG, QuerySpec.Shape.METRIC);
        if (!numbers.contains(a.shape()) || a.shape() != b.shape() || a.group() != null || b.group() != null) {
            return Optional.of("I compare two alternatives by one count, total, average or metric each, and this"
                    + " comparison does not read as one");
        }
        if (!a.subject().equals(b.subject()) || a.shape() == QuerySpec.Shape.METRIC && !a.metric().equals(b.metric())
                || a.shape() == QuerySpec.Shape.AGG && !a.aggFn().equals(b.aggFn())) {
            return Optional.of("the two alternatives read as different kinds of number, which I will not compare");
        }
        return Optional.empty();
    }
}
