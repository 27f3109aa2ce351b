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

    public boolean number() {
        return sense == null && NUMBER.matcher(words.get(0)).matches();
    }
}
