package dev.sift.session;

import dev.sift.data.TableInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Offline resolution by rule. A refining turn is merged with the turn it refines: the reference phrase
 * ("how many of those", "them", "those cards") is replaced by the earlier question, so "How many of those
 * are gold?" after "How many cards are there?" becomes "How many cards are there that are gold?".
 * "What about X?" swaps the earlier turn's subject table for X when X names a table, and otherwise adds X
 * to the earlier question. An abandoning turn runs what follows the dropping phrase as a new question.
 */
public final class RuleReferenceResolver implements ReferenceResolver {
    private static final Pattern WHAT_ABOUT = Pattern.compile("^\\s*(?:and\\s+)?(?:what|how)\\s+about\\s+(.+?)[?.!]*\\s*$",
            Pattern.CASE_INSENSITIVE);
    /** Reference phrases removed from a refining question, longest first. */
    private static final Pattern PHRASE = Pattern.compile("(?i)\\b(?:how\\s+many|how\\s+much|what\\s+number)\\s+of\\s+"
            + "(?:those|these|them|which)\\b|\\b(?:of|among|from)\\s+(?:those|these|them)\\b"
            + "|\\b(?:those|these)\\b|\\b(?:them|they|it)\\b|\\bthe\\s+same\\b");
    private static final Pattern OPENERS = Pattern.compile("(?i)^\\s*(?:and|but|now|then|also|only|just)\\b[\\s,]*");
    private static final Pattern VERB_START = Pattern.compile("(?i)^(are|is|were|was|have|has|had|with|in|on|from"
            + "|where|whose)\\b");

    private final TurnClassifier classifier = new TurnClassifier();

    @Override
    public Resolution resolve(String question, List<Turn> thread, List<TableInfo> tables) {
        TurnClassifier.Verdict v = classifier.classify(question, thread);
        if (v.kind() != TurnKind.REFINE) {
            return new Resolution(v.kind(), v.question(), List.of(), "rules");
        }
        Turn prior = thread.get(thread.size() - 1);
        String stem = prior.question().replaceAll("[\\s?.!]+$", "");
        String subject = prior.subject();
        List<String> refs = new ArrayList<>();

        Matcher about = WHAT_ABOUT.matcher(question);
        if (about.matches()) {
            String x = about.group(1).trim();
            Optional<TableInfo> named = tableNamed(x, tables);
            if (named.isPresent() && subject != null) {
                String swapped = replaceTableWords(stem, subject, named.get().name());
                refs.add("'what about " + x + "' → the question of turn " + prior.index() + " (\"" + prior.question()
                        + "\") asked of " + named.get().name() + " instead of " + subject);
                return new Resolution(TurnKind.REFINE, swapped + "?", refs, "rules");
            }
            refs.add("'what about " + x + "' → the question of turn " + prior.index() + " (\"" + prior.question()
                    + "\") narrowed by '" + x + "'");
            return new Resolution(TurnKind.REFINE, stem + ", " + x + "?", refs, "rules");
        }

        Matcher m = PHRASE.matcher(question);
        List<String> phrases = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        while (m.find()) {
            phrases.add(m.group().trim());
            m.appendReplacement(rest, " ");
        }
        m.appendTail(rest);
        String remainder = OPENERS.matcher(rest.toString().replaceAll("\\s+", " ").trim()).replaceFirst("")
                .replaceAll("^[\\s,]+", "").replaceAll("[\\s?.!]+$", "").trim();
        String what = subject == null ? "the result of turn " + prior.index()
                : "the " + subject + " rows of turn " + prior.index();
        for (String p : phrases) {
            refs.add("'" + p.toLowerCase(Locale.ROOT) + "' → " + what + " (\"" + prior.question() + "\")");
        }
        if (phrases.isEmpty()) {
            refs.add("'" + question.trim() + "' continues turn " + prior.index() + " (\"" + prior.question() + "\")");
        }
        if (remainder.isEmpty()) {
            return new Resolution(TurnKind.REFINE, stem + "?", refs, "rules");
        }
        String joiner = VERB_START.matcher(remainder).find() ? " that " : ", ";
        return new Resolution(TurnKind.REFINE, stem + joiner + remainder + "?", refs, "rules");
    }

    /** The dataset table a question is about: the first table it names (by name or plural), if any. */
    public static String subjectOf(String question, List<TableInfo> tables) {
        List<String> words = words(question);
        for (String w : words) {
            for (TableInfo t : tables) {
                if (tableWords(t.name()).contains(w)) {
                    return t.name();
                }
            }
        }
        return null;
    }

    private static Optional<TableInfo> tableNamed(String phrase, List<TableInfo> tables) {
        List<String> words = words(phrase);
        if (words.isEmpty() || words.size() > 2) {
            return Optional.empty();
        }
        String last = words.get(words.size() - 1);
        return tables.stream().filter(t -> tableWords(t.name()).contains(last)).findFirst();
    }

    private static String replaceTableWords(String text, String from, String to) {
        List<String> f = tableWords(from);
        List<String> t = tableWords(to);
        String out = text.replaceAll("(?i)\\b" + Pattern.quote(f.get(1)) + "\\b", Matcher.quoteReplacement(t.get(1)));
        return out.replaceAll("(?i)\\b" + Pattern.quote(f.get(0)) + "\\b", Matcher.quoteReplacement(t.get(0)));
    }

    /** A table's name and its plural, lower case. */
    static List<String> tableWords(String table) {
        String n = table.toLowerCase(Locale.ROOT);
        String plural = n.endsWith("y") ? n.substring(0, n.length() - 1) + "ies"
                : n.endsWith("s") || n.endsWith("x") || n.endsWith("ch") ? n + "es" : n + "s";
        return List.of(n, plural);
    }

    private static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("[\\p{L}\\p{N}_]+").matcher(s.toLowerCase(Locale.ROOT));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
