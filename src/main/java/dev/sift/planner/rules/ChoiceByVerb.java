package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A word that names two columns of one table, settled by a verb of the question that says which end of a period it
 * means: "which candidates ended with negative cash" is Ending_Cash, "who started with the most cash" Beginning_Cash,
 * "cash on hand" the cash at the period's end. Read only where exactly one of the columns names that end.
 */
final class ChoiceByVerb {
    /** Words of the question that say the start of a period, and the words of a column's name that say it. */
    private static final Set<String> START_SAID = Set.of("start", "started", "starting", "began", "begin", "opened");
    private static final Set<String> START_NAMED = Set.of("beginning", "begin", "start", "starting", "opening", "initial");
    /** Words of the question that say the end of a period ("on hand": what is held at its close). */
    private static final Set<String> END_SAID = Set.of("end", "ended", "ending", "finished", "closed", "hand");
    private static final Set<String> END_NAMED = Set.of("ending", "end", "closing", "final");

    private ChoiceByVerb() { }

    /** {@code toks} with each such choice settled, and the verb that settled it said in the token's text. */
    static List<Tok> merge(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        boolean start = out.stream().anyMatch(t -> START_SAID.contains(said(t)));
        boolean end = out.stream().anyMatch(t -> END_SAID.contains(said(t)));
        if (start == end) {
            return out; // neither, or both ("started and ended with"): nothing settled
        }
        for (int i = 0; i < out.size(); i++) {
            if (!(out.get(i).sense() instanceof Sense.Choice c) || c.options().stream().map(Sense.Attr::table).distinct().count() != 1) {
                continue;
            }
            Set<String> named = start ? START_NAMED : END_NAMED;
            List<Sense.Attr> hit = c.options().stream().filter(a -> NameWords.split(a.column()).stream()
                    .anyMatch(x -> named.contains(x.toLowerCase(java.util.Locale.ROOT)))).toList();
            if (hit.size() == 1) {
                Tok t = out.get(i);
                out.set(i, new Tok(t.text(), t.words(), hit.get(0)));
                for (int k = 0; k < out.size(); k++) { // "started", which a synonym may have read as something else, is the verb
                    String verb = said(out.get(k));
                    if (!out.get(k).plain() && (START_SAID.contains(verb) || END_SAID.contains(verb))) {
                        out.set(k, new Tok(out.get(k).text(), List.of(verb), null));
                    }
                }
            }
        }
        return out;
    }

    /** The word a one-word token was said as, in lower case. */
    private static String said(Tok t) {
        return t.text().contains(" ") ? "" : t.text().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether a plain word says the end of a period that a column the question reads names ("ended" of Ending_Cash). */
    static boolean said(ParseState w, int i, Tok t) {
        Set<String> named = !t.plain() ? Set.of() : START_SAID.contains(t.word()) ? START_NAMED : END_SAID.contains(t.word()) ? END_NAMED : Set.of();
        boolean read = !named.isEmpty() && w.toks.stream().anyMatch(k -> k.sense() instanceof Sense.Attr a && NameWords.split(a.column())
                .stream().anyMatch(x -> named.contains(x.toLowerCase(java.util.Locale.ROOT))));
        if (read && i + 1 < w.toks.size() && w.toks.get(i + 1).is("up", "off", "out")) {
            w.consumed = i + 1; // "ended up with"
        }
        return read;
    }
}
