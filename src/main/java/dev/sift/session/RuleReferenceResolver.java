package dev.sift.session;

import dev.sift.data.TableInfo;
import dev.sift.knowledge.Patterns;

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
    private static final Pattern WHAT_ABOUT = Patterns.ALL.get("follow_up.what_about");
    /** Reference phrases removed from a refining question, longest first. */
    private static final Pattern PHRASE = Patterns.ALL.get("follow_up.reference_phrase");
    private static final Pattern OPENERS = Patterns.ALL.get("follow_up.openers");
    private static final Pattern VERB_START = Patterns.ALL.get("follow_up.verb_start");

    private static final Pattern MEASURE = Patterns.ALL.get("follow_up.measure");
    private static final Pattern SINGLE_YEAR = Patterns.ALL.get("follow_up.single_year");
    private static final Pattern CHART_KIND = Patterns.ALL.get("follow_up.chart_kind");
    private static final Pattern YEAR = Patterns.ALL.get("follow_up.year");
    private static final Pattern YEAR_ONLY = Patterns.ALL.get("follow_up.year_only");
    private static final Pattern GROUP_ONLY = Patterns.ALL.get("follow_up.group_only");
    /** The grouping at the end of a question: "by" and up to four words, none of them a time or filter word. */
    private static final Pattern GROUPING = Patterns.ALL.get("follow_up.grouping");
    private static final Pattern THEIR = Patterns.ALL.get("follow_up.their");
    /** "(the) defaulted ones": the same rows, narrowed by the words before "ones". */
    private static final Pattern ONES = Patterns.ALL.get("follow_up.ones");
    /** "instead" (or "instead of …") said with a change: the change alone is what counts. */
    private static final Pattern INSTEAD = Patterns.ALL.get("follow_up.instead");
    /** "there are", and an auxiliary before a participle, read badly after "of" ("the amount of loans were granted"). */
    private static final Pattern AUXILIARY = Patterns.ALL.get("follow_up.auxiliary");
    /** The question words before the rows a question is about ("how many", "what is the number of", "list the"). */
    /** A grouping per year ("by year", "per the year"). */
    private static final Pattern PER_YEAR = Patterns.ALL.get("follow_up.per_year");
    /** "What was the total amount …" and "How many loans are there …", said as the thing to show. */
    private static final Pattern SHOWN_WHAT = Patterns.ALL.get("follow_up.shown_what");
    private static final Pattern SHOWN_COUNT = Patterns.ALL.get("follow_up.shown_count");
    /** "the" or "only (the)" before the words that narrow rows ("only the defaulted loans"). */
    private static final Pattern ONLY_THE = Patterns.ALL.get("follow_up.only_the");
    private static final Pattern ROWS_OF = Patterns.ALL.get("follow_up.rows_of");
    /** The superlative of the question before ("the strongest quake"). */
    private static final Pattern SUPERLATIVE = Patterns.ALL.get("follow_up.superlative");

    private final TurnClassifier classifier = new TurnClassifier();

    @Override
    public Resolution resolve(String question, List<Turn> thread, List<TableInfo> tables) {
        List<Turn> answered = answered(thread);
        TurnClassifier.Verdict v = classifier.classify(question, answered);
        if (v.kind() != TurnKind.REFINE) {
            return new Resolution(v.kind(), v.question(), List.of(), "rules");
        }
        Turn prior = answered.get(answered.size() - 1);
        String stem = prior.question().replaceAll("[\\s?.!]+$", "");
        Optional<Resolution> measure = otherColumn(question, prior, stem, tables);
        if (measure.isPresent()) {
            return measure.get();
        }
        Optional<Resolution> elliptic = elliptic(question, prior, stem);
        if (elliptic.isPresent()) {
            return elliptic.get();
        }
        Matcher about = WHAT_ABOUT.matcher(question);
        if (about.matches()) {
            return whatAbout(INSTEAD.matcher(about.group(1).trim()).replaceAll("").trim(), prior, stem, tables);
        }
        return continued(question, prior, stem);
    }

    /** "The average weight instead", "what about acceleration?": the prior question measuring that column ({@link MeasureFollowUp}). */
    private static Optional<Resolution> otherColumn(String question, Turn prior, String stem, List<TableInfo> tables) {
        String x = OPENERS.matcher(question.trim()).replaceFirst("").replaceAll("[\\s?.!]+$", "").trim();
        Matcher about = WHAT_ABOUT.matcher(x);
        x = INSTEAD.matcher(about.matches() ? about.group(1).trim() : x).replaceAll("").trim();
        String said = x;
        return MeasureFollowUp.swapped(stem, x, tables).map(q -> refined(q + "?", "'" + said + "' → the question of turn "
                + prior.index() + " (\"" + prior.question() + "\") measuring " + said + " instead"));
    }

    /** "What about X?": the prior rows narrowed to X, the prior question asked of table X, or narrowed by X's words. */
    private static Resolution whatAbout(String x, Turn prior, String stem, List<TableInfo> tables) {
        if (YEAR.matcher(x).matches()) { // "what about 1950?": another year, as "in 1950?" is
            return newYear(x, x, stem, " of turn " + prior.index() + " (\"" + prior.question() + "\")");
        }
        String subject = prior.subject();
        List<String> refs = new ArrayList<>();
        Optional<String> narrowed = subject == null ? Optional.empty() : narrowed(x, stem, subject, tables);
        if (narrowed.isPresent()) {
            refs.add("'what about " + x + "' → the " + subject + " rows of turn " + prior.index() + " (\""
                    + prior.question() + "\") that are " + narrowed.get());
            return new Resolution(TurnKind.REFINE, insertBefore(stem, subject, narrowed.get()) + "?", refs, "rules");
        }
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

    /** A follow-up that points back at the prior rows ("of those", "them"): the prior question, continued by its words. */
    private static Resolution continued(String question, Turn prior, String stem) {
        String subject = prior.subject();
        List<String> refs = new ArrayList<>();
        Matcher m = PHRASE.matcher(question);
        List<String> phrases = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        while (m.find()) {
            phrases.add(m.group().trim());
            m.appendReplacement(rest, " ");
        }
        m.appendTail(rest);
        String remainder = OPENERS.matcher(rest.toString().replaceAll("\\s+", " ").trim()).replaceFirst("")
                .replaceAll("^[\\s,]+", "").replaceAll("[\\s?.!]+$", "").trim()
                .replaceFirst("(?i)^(how\\s+many)\\s+also\\b", "$1"); // "of those, how many also …": "also" is "of those"
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
        Optional<String> counted = CountedFollowUp.counted(remainder, stem);
        if (counted.isPresent()) {
            return new Resolution(TurnKind.REFINE, counted.get() + "?", refs, "rules");
        }
        String joiner = VERB_START.matcher(remainder).find() ? " that " : ", ";
        return new Resolution(TurnKind.REFINE, stem + joiner + remainder + "?", refs, "rules");
    }

    /**
     * The turns a follow-up may lean on: those that were answered. A refused, declined or failed turn, or a question
     * back that was not answered, never becomes the context of the next one (it would poison every later turn).
     */
    public static List<Turn> answered(List<Turn> thread) {
        return thread.stream().filter(t -> "answer".equals(t.answerKind())).toList();
    }

    /**
     * A follow-up that changes one part of the answered turn: a new year ("in 1997?" replaces the year, or adds it), a
     * new grouping ("by region?" replaces "by …" or adds it), another filter ("for Prague?" is added), or another
     * measure of the same rows ("what is their average amount?" → "what is the average amount of" those rows).
     */
    private static Optional<Resolution> elliptic(String question, Turn prior, String stem) {
        String q = OPENERS.matcher(question.trim()).replaceFirst("").replaceAll("[\\s?.!]+$", "").trim();
        q = INSTEAD.matcher(q).replaceAll("").trim();
        String cite = " of turn " + prior.index() + " (\"" + prior.question() + "\")";
        Matcher year = YEAR_ONLY.matcher(q);
        if (year.matches()) {
            return Optional.of(newYear(q, year.group(1), stem, cite));
        }
        Optional<Matcher> counted = TurnClassifier.countedBefore(question, stem);
        if (counted.isPresent()) { // "which years?" after "In how many years did …": those years, listed
            Matcher m = counted.get();
            return Optional.of(refined(stem.substring(0, m.start()) + "which " + m.group(1) + stem.substring(m.end()) + "?",
                    "'" + q + "' → the " + m.group(1) + " counted" + cite + ", listed"));
        }
        Matcher other = TurnClassifier.OTHER_MEASURE.matcher(q);
        if (other.matches()) {
            Matcher was = MEASURE.matcher(stem);
            String word = other.group(1).toLowerCase(Locale.ROOT);
            if (was.find()) {
                return Optional.of(refined(was.replaceFirst(word) + "?", "'" + q + "' → the question" + cite + " with the "
                        + word + " instead of the " + was.group().toLowerCase(Locale.ROOT)));
            }
        }
        Matcher superlative = TurnClassifier.OTHER_SUPERLATIVE.matcher(q);
        Matcher said = SUPERLATIVE.matcher(stem);
        if (superlative.matches() && said.find()) { // "how about the deepest one?" after "the strongest quake in Alaska"
            String word = superlative.group(1).toLowerCase(Locale.ROOT);
            return Optional.of(refined(stem.substring(0, said.start(1)) + word + stem.substring(said.end(1)) + "?", "'" + q
                    + "' → the question" + cite + " with the " + word + " instead of the " + said.group(1).toLowerCase(Locale.ROOT)));
        }
        Matcher timed = TurnClassifier.TIMED.matcher(q);
        if (timed.matches()) {
            return Optional.of(refined(YEAR.matcher(stem).find() ? YEAR.matcher(stem).replaceAll(
                    q.replaceAll("\\D+", "")) + "?" : stem + " " + q + "?", "'" + q + "' → the question" + cite + " " + q));
        }
        if (GROUP_ONLY.matcher(q).matches()) {
            return Optional.of(newGrouping(q, stem, cite));
        }
        Matcher measure = THEIR.matcher(q);
        if (measure.matches()) {
            return Optional.of(theirMeasure(measure, stem, cite));
        }
        Optional<Resolution> narrowed = chartOrNarrowed(q, stem, cite);
        if (narrowed.isEmpty() && TurnClassifier.INSTEAD.matcher(question).find() && !q.isEmpty() && !WHAT_ABOUT.matcher(q).matches()) {
            // "the average mileage instead": the words join the question before, and the parser lets them replace its own
            return Optional.of(refined(stem + ", " + q + "?", "'" + q + "' → the question" + cite + " with " + q + " instead"));
        }
        return narrowed;
    }

    /** "In 1997?": the prior question for that year instead of its own, or with it added. */
    private static Resolution newYear(String q, String year, String stem, String cite) {
        Matcher old = YEAR.matcher(stem);
        if (old.find()) {
            String was = old.group();
            return refined(old.replaceAll(year) + "?", "'" + q + "' → the question" + cite + " for " + year
                    + " instead of " + was);
        }
        return refined(stem + " " + q + "?", "'" + q + "' → the question" + cite + " " + q);
    }

    /** "By region?": the prior question grouped that way instead of its own grouping, or with it added. */
    private static Resolution newGrouping(String q, String stem, String cite) {
        // one year per group leaves nothing to compare within a single year: "per year" drops "in 1997"
        String base = PER_YEAR.matcher(q).matches() ? SINGLE_YEAR.matcher(stem).replaceAll("") : stem;
        Matcher old = GROUPING.matcher(base);
        String by = old.find() ? old.replaceFirst(" " + Matcher.quoteReplacement(q)) : base + " " + q;
        return refined(by + "?", "'" + q + "' → the question" + cite + " grouped " + q
                + (base.equals(stem) ? "" : ", over all years"));
    }

    /** "What is their average amount?": another aggregate of the same measure, or a measure of the prior rows. */
    private static Resolution theirMeasure(Matcher measure, String stem, String cite) {
        // "their largest amount" after "the average loan amount": the same measure, another aggregate
        Matcher was = MEASURE.matcher(stem);
        Matcher now = MEASURE.matcher(measure.group(2));
        String noun = measure.group(2).replaceFirst("(?i)^\\s*\\p{L}+\\s+", "").trim();
        if (was.find() && now.lookingAt() && !noun.isEmpty()
                && Pattern.compile("(?i)\\b" + Pattern.quote(noun) + "\\b").matcher(stem).find()) {
            String word = now.group().toLowerCase(Locale.ROOT);
            return refined(was.replaceFirst(word) + "?", "'their " + measure.group(2).trim() + "' → the"
                    + " question" + cite + " with the " + word + " instead of the " + was.group().toLowerCase(Locale.ROOT));
        }
        String rows = AUXILIARY.matcher(ROWS_OF.matcher(stem).replaceFirst("").trim()).replaceAll("").trim();
        String asked = (measure.group(1) == null ? "what is" : measure.group(1)) + " the " + measure.group(2).trim()
                + " of " + rows;
        return refined(Character.toUpperCase(asked.charAt(0)) + asked.substring(1) + "?",
                "'their " + measure.group(2).trim() + "' → the " + measure.group(2).trim() + " of the rows" + cite);
    }

    /** "As a bar chart": the prior result shown as a chart; a short "only …" ellipsis narrows the prior question. */
    private static Optional<Resolution> chartOrNarrowed(String q, String stem, String cite) {
        if (TurnClassifier.CHART_THAT.matcher(q).find()) {
            Matcher kind = CHART_KIND.matcher(q);
            String chart = kind.find() ? "a " + kind.group(1).toLowerCase(Locale.ROOT) + " chart" : "a chart";
            return Optional.of(refined("Show " + asShown(stem) + " as " + chart + ".", "'" + q + "' → the result" + cite
                    + " as " + chart));
        }
        if (TurnClassifier.ELLIPSIS.matcher(q).find() && q.split("\\s+").length <= 5) {
            return Optional.of(refined(stem + " " + q + "?", "'" + q + "' → the question" + cite + " narrowed " + q));
        }
        return Optional.empty();
    }

    /**
     * A question as the thing to show: "What was the total amount …" → "the total amount …", "How many loans are there
     * by status" → "the number of loans by status"; any other question keeps its words ("how many loans were granted").
     */
    static String asShown(String stem) {
        Matcher what = SHOWN_WHAT.matcher(stem);
        if (what.matches()) {
            return what.group(1).substring(0, 1).toLowerCase(Locale.ROOT) + what.group(1).substring(1);
        }
        Matcher there = SHOWN_COUNT.matcher(stem);
        if (there.matches()) {
            return ("the number of " + there.group(1) + " " + there.group(2)).trim();
        }
        return Character.toLowerCase(stem.charAt(0)) + stem.substring(1);
    }

    /**
     * The words that narrow the rows of {@code subject} in "what about X": "defaulted ones" and "defaulted loans" (after a
     * question about loans) give "defaulted"; empty when X names no narrowing of those rows.
     */
    private static Optional<String> narrowed(String x, String stem, String subject, List<TableInfo> tables) {
        List<String> nouns = tableWords(subject);
        if (nouns.stream().noneMatch(n -> Pattern.compile("(?i)\\b" + Pattern.quote(n) + "\\b").matcher(stem).find())) {
            return Optional.empty();
        }
        Matcher ones = ONES.matcher(x);
        if (ones.matches()) {
            return Optional.of(ones.group(1).trim());
        }
        List<String> w = words(x);
        if (w.size() >= 2 && w.size() <= 3 && nouns.contains(w.get(w.size() - 1))) {
            String adjectives = ONLY_THE.matcher(x).replaceFirst("")
                    .replaceFirst("(?i)\\s+" + Pattern.quote(w.get(w.size() - 1)) + "\\s*$", "").trim();
            return adjectives.isEmpty() || tableNamed(adjectives, tables).isPresent() ? Optional.empty()
                    : Optional.of(adjectives);
        }
        return Optional.empty();
    }

    /** {@code words} put before the first mention of the table's rows in the question ("how many defaulted loans …"). */
    private static String insertBefore(String stem, String subject, String words) {
        Matcher m = Pattern.compile("(?i)\\b(?:" + Pattern.quote(tableWords(subject).get(1)) + "|"
                + Pattern.quote(tableWords(subject).get(0)) + ")\\b").matcher(stem);
        m.find();
        return stem.substring(0, m.start()) + words + " " + stem.substring(m.start());
    }

    private static Resolution refined(String question, String reference) {
        return new Resolution(TurnKind.REFINE, question, List.of(reference), "rules");
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
