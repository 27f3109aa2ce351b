package dev.sift.session;

import dev.sift.data.TableInfo;
import dev.sift.knowledge.Patterns;
import dev.sift.knowledge.Vocabulary;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reply to a question back. When the turn before was a clarification and the person's next line reads as an
 * answer to it (short, not a question of its own), the answer completes the clarified question: "loans" after
 * "What is the total amount?" asks "What is the total amount of loans?", "the loan amount" asks "What is the total
 * loan amount?", "by population" asks "Which district is the biggest by population?". The merged question is the
 * turn that later follow-ups lean on; the clarification itself stays out of their context.
 */
public final class ClarificationReply {
    /** Longest reply read as an answer rather than a question of its own. */
    static final int MAX_WORDS = 6;
    /** Openers of a reply that continue the conversation ("and", "so"). */
    private static final Pattern OPENERS = Patterns.ALL.get("reply.openers");
    private static final Pattern QUESTION_START = Patterns.ALL.get("reply.question_start");
    private static final Pattern FILLER = Patterns.ALL.get("reply.filler");
    private static final Pattern TRAILING = Patterns.ALL.get("reply.trailing");
    /** A reply that opens like a phrase of the question ("by population", "in Prague") is added as it is. */
    private static final Pattern PHRASE_START = Patterns.ALL.get("reply.phrase_start");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]+");
    /** Words of a reply that never name what it answers ("the", "one"). */
    private static final Set<String> SKIPPED = Vocabulary.WORDS.list("reply_skipped");

    private ClarificationReply() {
    }

    /**
     * The merged turn when {@code asked} answers the clarification that ends {@code thread}; empty when the last turn
     * was no question back, or when {@code asked} reads as a question of its own.
     */
    public static Optional<Resolution> merge(String asked, List<Turn> thread, List<TableInfo> tables) {
        if (thread.isEmpty()) {
            return Optional.empty();
        }
        Turn last = thread.get(thread.size() - 1);
        boolean setAside = last.kind() == TurnKind.ABANDON && last.question().isBlank();
        if (!"clarification".equals(last.answerKind()) || setAside || !readsAsReply(asked)) {
            return Optional.empty();
        }
        String reply = clean(asked);
        if (last.kind() == TurnKind.AMBIGUOUS) {
            return picked(reply, last).map(n -> new Resolution(TurnKind.REPLY, reading(last, n), List.of("'" + reply
                    + "' picks reading " + n + " of turn " + last.index() + " (\"" + last.question() + "\")"), "rules"));
        }
        String merged = complete(last.question(), reply, tables);
        return Optional.of(new Resolution(TurnKind.REPLY, merged, List.of("'" + reply + "' answers the question back of"
                + " turn " + last.index() + " (\"" + last.question() + "\")"), "rules"));
    }

    /** How an ambiguous turn keeps each of its readings among its references: "reading 2: What is …". */
    static final String READING = "reading ";

    private static String reading(Turn t, int n) {
        return t.references().stream().filter(r -> r.startsWith(READING + n + ": ")).findFirst().orElseThrow()
                .substring((READING + n + ": ").length());
    }

    /**
     * The reading of an ambiguous turn a reply picks: by its number ("2", "two", "the second"), else the one reading that
     * shares the most of the reply's words ("the accounts"); empty when none or several do.
     */
    static Optional<Integer> picked(String reply, Turn ambiguous) {
        int count = (int) ambiguous.references().stream().filter(r -> r.startsWith(READING)).count();
        List<String> words = WORD.matcher(reply.toLowerCase(Locale.ROOT)).results().map(m -> m.group()).toList();
        for (String w : words) {
            String n = w.matches("\\d+") ? w : Vocabulary.WORDS.map("ordinals").getOrDefault(w,
                    Vocabulary.WORDS.map("number_words").get(w));
            if (n != null && Integer.parseInt(n) >= 1 && Integer.parseInt(n) <= count) {
                return Optional.of(Integer.parseInt(n));
            }
        }
        int[] shared = new int[count + 1];
        for (int i = 1; i <= count; i++) {
            List<String> of = WORD.matcher(reading(ambiguous, i).toLowerCase(Locale.ROOT)).results().map(m -> m.group()).toList();
            shared[i] = (int) words.stream().filter(w -> !SKIPPED.contains(w) && of.contains(w)).distinct().count();
        }
        int most = java.util.Arrays.stream(shared).max().orElse(0);
        List<Integer> best = java.util.stream.IntStream.rangeClosed(1, count).filter(i -> shared[i] == most).boxed().toList();
        return most > 0 && best.size() == 1 ? Optional.of(best.get(0)) : Optional.empty();
    }

    static boolean readsAsReply(String asked) {
        String s = OPENERS.matcher(asked.trim()).replaceFirst("");
        // "and what is their largest amount?" is a follow-up of its own, not the answer to a question back
        if (s.isEmpty() || TurnClassifier.ABANDON.matcher(s).find() || QUESTION_START.matcher(s).find()
                || TurnClassifier.REFERENCE.matcher(s).find()) {
            return false;
        }
        return WORD.matcher(s).results().count() <= MAX_WORDS;
    }

    /** The reply without the words around an answer ("I mean …", "please"); a column {@code loan.amount} as words. */
    static String clean(String asked) {
        String s = TRAILING.matcher(asked.trim()).replaceFirst("");
        for (String before = ""; !before.equals(s); ) {
            before = s;
            s = FILLER.matcher(s).replaceFirst("").trim();
        }
        return s.replaceAll("(?<=\\p{L})\\.(?=\\p{L})", " ").replace('_', ' ').replaceAll("\\s+", " ").trim();
    }

    /** The clarified question completed by the reply, as one sentence. */
    static String complete(String clarified, String reply, List<TableInfo> tables) {
        String stem = clarified.trim().replaceAll("[\\s?.!]+$", "");
        if (PHRASE_START.matcher(reply).find()) {
            return stem + " " + reply + "?";
        }
        List<String> words = WORD.matcher(reply.toLowerCase(Locale.ROOT)).results().map(m -> m.group()).toList();
        for (int i = words.size() - 1; i >= 0; i--) {
            String w = words.get(i);
            if (SKIPPED.contains(w)) {
                continue;
            }
            Matcher m = Pattern.compile("(?i)\\b(?:the\\s+)?" + Pattern.quote(w) + "\\b").matcher(stem);
            int start = -1;
            int end = -1;
            while (m.find()) {
                start = m.start();
                end = m.end();
            }
            if (start >= 0) {
                String named = stem.substring(start, end);
                String with = (named.toLowerCase(Locale.ROOT).startsWith("the ") ? "the " : "")
                        + reply.replaceFirst("(?i)^the\\s+", "");
                if (!named.equalsIgnoreCase(with)) {
                    return stem.substring(0, start) + with + stem.substring(end) + "?";
                }
                return stem + "?"; // the reply repeats what the question already says
            }
        }
        String last = words.isEmpty() ? "" : words.get(words.size() - 1);
        boolean table = tables.stream().anyMatch(t -> RuleReferenceResolver.tableWords(t.name()).contains(last));
        return stem + (table ? " of " : " — ") + reply + "?";
    }
}
