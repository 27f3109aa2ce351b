package dev.sift.planner.rules;

import dev.sift.knowledge.Phrases;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A name the data does not hold, explained in brackets by a condition it does: "Texas counties (county ids beginning
 * with 48)" is read as the bracket says, and "Texas" is dropped with a line of "Read as" saying so. Only a capitalised
 * name that is no phrase or value of the dataset is dropped, and only before a bracket holding a code or number.
 */
final class Glosses {
    /** A capitalised name (one or two words), an optional noun, and a bracket with a digit in it. */
    private static final Pattern GLOSSED = Pattern.compile(
            "\\b(\\p{Lu}[\\p{L}-]*(?:\\s+\\p{Lu}[\\p{L}-]*)?)(\\s+\\p{L}+)?\\s*\\(([^()]*\\d[^()]*)\\)");

    /** One or two words, then a bracket holding a name alone: "stations (nst)", "magnitude types (magType)". */
    private static final Pattern NAMED = Pattern.compile("\\b((?:\\p{L}+\\s+)?(\\p{L}+))\\s*\\(\\s*([\\p{L}_][\\p{L}\\d_]*)\\s*\\)");

    private Glosses() { }

    /**
     * {@code text} with a word the data does not name, or the words of a column, followed by that column's own name in
     * brackets, read as the column: "how many stations (nst)" is nst, "magnitude types (magType)" is magType, said once.
     */
    static String columnNamed(String text, Lexicon lexicon, List<String> moved) {
        Matcher m = NAMED.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Sense named = lexicon.sense(Phrases.words(m.group(3))).orElse(null);
            Sense both = lexicon.sense(Phrases.words(m.group(1))).orElse(null);
            Sense last = lexicon.sense(Phrases.words(m.group(2))).orElse(null);
            String kept = m.group();
            if (named instanceof Sense.Attr && named.equals(both)) {
                kept = m.group(3); // "magnitude types (magType)": one column, said twice
            } else if (named instanceof Sense.Attr && (named.equals(last) || last == null && !Phrases.stop().contains(
                    Phrases.stem(m.group(2).toLowerCase(java.util.Locale.ROOT))))) {
                kept = m.group(1).substring(0, m.group(1).length() - m.group(2).length()) + m.group(3);
                if (last == null) {
                    moved.add("'" + m.group(2) + "' read as what the brackets after it name, " + m.group(3));
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(kept));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@code text} with each such name dropped; each drop is said in {@code moved}. */
    static String read(String text, Lexicon lexicon, List<String> moved) {
        Matcher m = GLOSSED.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            List<String> words = Phrases.words(name);
            boolean known = lexicon.sense(words).isPresent() || !lexicon.values().resolve(name).isEmpty()
                    || words.stream().anyMatch(w -> lexicon.sense(List.of(w)).isPresent());
            String kept = known ? m.group() : (m.group(2) == null ? "" : m.group(2).strip() + " ") + "(" + m.group(3) + ")";
            if (!known) {
                moved.add("'" + name + "' read as what the brackets after it say, '" + m.group(3).strip() + "'");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(kept));
        }
        m.appendTail(out);
        return out.toString();
    }
}
