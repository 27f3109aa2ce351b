package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A word that names two columns of one table, settled by a verb of the question that says which end of a period it
 * means: "which candidates ended with negative cash" is Ending_Cash, "who started with the most cash" Beginning_Cash,
 * "cash on hand" the cash at the period's end. Read only where the columns differ by that word alone and exactly one of
 * them names that end ("money" of receipts, disbursements and cash is still asked about).
 */
final class ChoiceByVerb {
    /** Words of the question that say the start of a period, and the words of a column's name that say it. */
    private static final Set<String> START_SAID = Set.of("start", "started", "starting", "began", "begin", "beginning", "opened");
    private static final Set<String> START_NAMED = Set.of("beginning", "begin", "start", "starting", "opening", "initial");
    /** Words of the question that say the end of a period ("on hand": what is held at its close). */
    private static final Set<String> END_SAID = Set.of("end", "ended", "ending", "finished", "closed", "hand");
    private static final Set<String> END_NAMED = Set.of("ending", "end", "closing", "final");

    private ChoiceByVerb() { }

    /** {@code toks} with each such choice settled, and the verb that settled it said in the token's text. */
    static List<Tok> merge(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        boolean start = java.util.stream.IntStream.range(0, out.size()).anyMatch(k -> START_SAID.contains(oneWord(out.get(k))) && ofAmount(out, k));
        boolean end = java.util.stream.IntStream.range(0, out.size()).anyMatch(k -> END_SAID.contains(oneWord(out.get(k))) && ofAmount(out, k));
        if (start == end) {
            return out; // neither, or both ("started and ended with"): nothing settled
        }
        for (int i = 0; i < out.size(); i++) {
            if (!(out.get(i).sense() instanceof Sense.Choice c) || c.options().stream().map(Sense.Attr::table).distinct().count() != 1
                    || c.options().stream().map(ChoiceByVerb::rest).distinct().count() != 1) {
                continue; // only columns that differ by the end of the period they name (Beginning_Cash, Ending_Cash)
            }
            Set<String> named = start ? START_NAMED : END_NAMED;
            List<Sense.Attr> hit = c.options().stream().filter(a -> NameWords.split(a.column()).stream()
                    .anyMatch(x -> named.contains(x.toLowerCase(java.util.Locale.ROOT)))).toList();
            if (hit.size() == 1) {
                Tok t = out.get(i);
                out.set(i, new Tok(t.text(), t.words(), hit.get(0)));
                for (int k = 0; k < out.size(); k++) { // "started", which a synonym may have read as something else, is the verb
                    String verb = oneWord(out.get(k));
                    if (!out.get(k).plain() && (START_SAID.contains(verb) || END_SAID.contains(verb))) {
                        out.set(k, new Tok(out.get(k).text(), List.of(verb), null));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Whether the word at {@code k} says what an amount was at a period's start or end: a verb in the past with "with" soon
     * after ("ended with", "ended up with", "began the period with"), "at the end", "on hand" — not "periods that end in
     * January".
     */
    private static boolean ofAmount(List<Tok> toks, int k) {
        boolean past = toks.get(k).text().toLowerCase(java.util.Locale.ROOT).matches("\\w+ed|began"); // "ended with", not "end with"
        boolean with = past && toks.subList(k + 1, Math.min(toks.size(), k + 4)).stream().anyMatch(t -> t.is("with"));
        boolean at = k >= 1 && toks.get(k - 1).is("at") || k >= 2 && toks.get(k - 1).is("the") && toks.get(k - 2).is("at");
        boolean onHand = k >= 1 && toks.get(k).text().equalsIgnoreCase("hand") && toks.get(k - 1).is("on");
        return with || at || onHand;
    }

    /** The words of a column's name but those of a period's start or end: "cash" of Beginning_Cash. */
    private static List<String> rest(Sense.Attr a) {
        return NameWords.split(a.column()).stream().map(x -> x.toLowerCase(java.util.Locale.ROOT))
                .filter(x -> !START_NAMED.contains(x) && !END_NAMED.contains(x)).toList();
    }

    /** The word a one-word token was said as, in lower case. */
    private static String oneWord(Tok t) {
        return t.text().contains(" ") ? "" : t.text().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether a plain word says the end of a period that a column the question reads names ("ended" of Ending_Cash). */
    static boolean said(ParseState w, int i, Tok t) {
        Set<String> named = !t.plain() ? Set.of() : START_SAID.contains(t.word()) ? START_NAMED : END_SAID.contains(t.word()) ? END_NAMED : Set.of();
        boolean read = !named.isEmpty() && w.toks.stream().anyMatch(k -> (k.sense() instanceof Sense.Attr a ? NameWords.split(a.column())
                : k.sense() instanceof Sense.Cond c ? NameWords.split(c.sql()) : List.<String>of()) // "more debts than cash": a condition
                .stream().anyMatch(x -> named.contains(x.toLowerCase(java.util.Locale.ROOT))));
        if (read && i + 1 < w.toks.size() && w.toks.get(i + 1).is("up", "off", "out")) {
            w.consumed = i + 1; // "ended up with"
        }
        return read;
    }
}
