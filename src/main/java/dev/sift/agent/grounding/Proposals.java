package dev.sift.agent.grounding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The parts of a clarifying question or a decline that propose rather than state: its questions ("Should churn
 * mean 12 months without a transaction, or no activity in 2024?"), the options listed under a question or a
 * colon, and offers and examples ("I could instead show 1997", "for example 2023"). What remains is what it
 * asserts as fact, and only that is checked.
 */
final class Proposals {
    private static final Pattern ITEM = Pattern.compile("^\\s*([-*•]|\\d{1,2}[.)]|\\(?[a-z][.)])\\s+.*");
    private static final Pattern MARKER = Pattern.compile("\\b(e\\.g\\.|for example|for instance|such as|would you"
            + "|do you|did you|should i|shall i|could i|can i|i could|i can|you could|you can|if you|would it"
            + "|options?|alternatively|instead)\\b");

    private Proposals() { }

    /** {from, to} character spans of {@code text} that propose. */
    static List<int[]> spans(String text) {
        List<int[]> out = new ArrayList<>();
        boolean underQuestion = false;
        int at = 0;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (ITEM.matcher(line).matches() && underQuestion) {
                out.add(new int[] {at, at + line.length()});
            } else if (!t.isEmpty()) {
                sentences(line, at, out);
                underQuestion = t.endsWith("?") || t.endsWith(":");
            }
            at += line.length() + 1;
        }
        return out;
    }

    /** Sentences of one line that ask, offer or give examples. */
    private static void sentences(String line, int offset, List<int[]> out) {
        int start = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            boolean end = i == line.length() - 1;
            if (c == '?' || c == ';' || c == '!' || c == '.' && !inNumberOrAbbreviation(line, i)) {
                end = i + 1 == line.length() || Character.isWhitespace(line.charAt(i + 1));
            }
            if (end) {
                String sentence = line.substring(start, i + 1);
                if (sentence.strip().endsWith("?") || MARKER.matcher(sentence.toLowerCase(Locale.ROOT)).find()) {
                    out.add(new int[] {offset + start, offset + i + 1});
                }
                start = i + 1;
            }
        }
    }

    private static boolean inNumberOrAbbreviation(String s, int i) {
        boolean digitAround = i > 0 && i + 1 < s.length() && Character.isDigit(s.charAt(i - 1))
                && Character.isDigit(s.charAt(i + 1));
        String before = s.substring(Math.max(0, i - 4), i + 1).toLowerCase(Locale.ROOT);
        return digitAround || before.endsWith("e.g.") || before.endsWith("i.e.") || before.endsWith(" vs.");
    }

    static boolean inside(List<int[]> spans, int at) {
        for (int[] s : spans) {
            if (at >= s[0] && at < s[1]) {
                return true;
            }
        }
        return false;
    }
}
