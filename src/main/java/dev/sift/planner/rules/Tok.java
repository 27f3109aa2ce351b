package dev.sift.planner.rules;

import java.util.List;

/**
 * One token of a read question: a phrase that matched a {@link Sense}, or a single plain word (sense null).
 * {@code text} is the user's own words (for the answer's "read as" line); {@code words} their comparable form.
 */
public record Tok(String text, List<String> words, Sense sense) {
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("\\d+(\\.\\d+)?");

    public boolean plain() {
        return sense == null;
    }

    public String word() {
        return words.get(0);
    }

    public boolean is(String... any) {
        if (sense != null) {
            return false;
        }
        for (String a : any) {
            if (words.get(0).equals(a)) {
                return true;
            }
        }
        return false;
    }

    /** Replaces tokens {@code [from, to)} of {@code toks} by one token of their words, read as {@code sense}. */
    static void replaceRun(List<Tok> toks, int from, int to, Sense sense) {
        List<Tok> run = toks.subList(from, to);
        String text = String.join(" ", run.stream().map(Tok::text).toList());
        List<String> words = run.stream().flatMap(k -> k.words().stream()).toList();
        run.clear();
        toks.add(from, new Tok(text, words, sense));
    }

    public boolean number() {
        return sense == null && NUMBER.matcher(words.get(0)).matches();
    }
}
