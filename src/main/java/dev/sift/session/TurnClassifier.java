package dev.sift.session;

import dev.sift.knowledge.Patterns;
import dev.sift.planner.rules.Guard;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies a turn by rule: {@code abandon} when it opens by dropping the thread ("never mind", "forget
 * that", "start over"), {@code refine} when it leans on an earlier turn (a reference word such as "those",
 * "them", "their", "it", "the same", an opening such as "and", "what about", "only", or a short phrase that only
 * changes the time, a filter or the grouping: "in 1997?", "for Prague?"), otherwise {@code new}. The
 * first turn of a session is always {@code new}. A model, when configured, may overrule it (see
 * {@link LlmReferenceResolver}).
 */
public final class TurnClassifier {
    static final Pattern ABANDON = Patterns.ALL.get("turn.abandon");
    static final Pattern OPENING = Patterns.ALL.get("turn.opening");
    /** A short phrase that only changes the time, filter or grouping of the turn before ("in 1997?", "for Prague?"). */
    static final Pattern ELLIPSIS = Patterns.ALL.get("turn.ellipsis");
    static final Pattern REFERENCE = Patterns.ALL.get("turn.reference");

    /** The other end or another aggregate of the measure before ("and the smallest?", "the average?"). */
    static final Pattern OTHER_MEASURE = Patterns.ALL.get("turn.other_measure");
    /** Another superlative of the rows before ("how about the deepest one?"). */
    static final Pattern OTHER_SUPERLATIVE = Patterns.ALL.get("turn.other_superlative");
    /** A short phrase with a time in it and no question word ("issued in 1997?", "granted after 1996?"). */
    static final Pattern TIMED = Patterns.ALL.get("turn.timed");
    /** Says the turn replaces part of the one before ("the average mileage instead"). */
    static final Pattern INSTEAD = Patterns.ALL.get("turn.instead");
    /** Asks which things the count before counted ("which years?" after "In how many years …?"). */
    static final Pattern WHICH_COUNTED = Patterns.ALL.get("turn.which_counted");
    static final Pattern HOW_MANY = Patterns.ALL.get("turn.how_many");
    /** A request to draw the result before ("show that as a chart", "plot it", "as a bar chart?"). */
    static final Pattern CHART_THAT = Patterns.ALL.get("turn.chart_that");
    /** "What is their average amount?": a measure of the rows before. */
    private static final Pattern THEIR = Patterns.ALL.get("follow_up.their");

    /** The classification and, for {@code abandon}, the question that follows the dropping phrase. */
    public record Verdict(TurnKind kind, String question, String marker) { }

    /**
     * The "how many X" of {@code prior} that {@code question} asks to list ("which years?", "which ones?"): the match
     * whose start is where "how many" begins, or empty when the question is not that or names another noun.
     */
    static java.util.Optional<Matcher> countedBefore(String question, String prior) {
        Matcher which = WHICH_COUNTED.matcher(question);
        Matcher counted = HOW_MANY.matcher(prior);
        if (!which.matches() || !counted.find()) {
            return java.util.Optional.empty();
        }
        String noun = which.group(1);
        return noun == null || noun.equalsIgnoreCase(counted.group(1)) ? java.util.Optional.of(counted) : java.util.Optional.empty();
    }

    /**
     * Whether a message can only be a follow-up: it opens by continuing a turn before ("and …", "what about …", "split that
     * by …"), only changes a measure or time ("the average?", "in 1997?"), or asks for "their"/"its" measure. A reference
     * word inside a question of its own ("customers with their accounts") is not enough.
     */
    static boolean leansBack(String question) {
        return OPENING.matcher(question).find() || OTHER_MEASURE.matcher(question).find() || TIMED.matcher(question).find()
                || INSTEAD.matcher(question).find() || THEIR.matcher(question.trim().replaceAll("[\\s?.!]+$", "")).matches()
                || ELLIPSIS.matcher(question).find() && question.trim().split("\\s+").length <= 5;
    }

    public Verdict classify(String question, List<Turn> thread) {
        Matcher a = ABANDON.matcher(question);
        if (a.find()) {
            return new Verdict(TurnKind.ABANDON, question.substring(a.end()).trim(), a.group(1).toLowerCase(Locale.ROOT));
        }
        if (thread.isEmpty()) {
            return new Verdict(TurnKind.NEW, question, null);
        }
        if (Guard.asksToChange(question)) { // refused whatever it refers to, so it never merges into the question before
            return new Verdict(TurnKind.NEW, question, null);
        }
        if (OTHER_MEASURE.matcher(question).find() || OTHER_SUPERLATIVE.matcher(question).find() || TIMED.matcher(question).find()
                || INSTEAD.matcher(question).find()) {
            return new Verdict(TurnKind.REFINE, question, "measure or time");
        }
        if (countedBefore(question, thread.get(thread.size() - 1).question()).isPresent()) {
            return new Verdict(TurnKind.REFINE, question, "which");
        }
        Matcher chart = CHART_THAT.matcher(question);
        if (chart.find()) {
            return new Verdict(TurnKind.REFINE, question, "chart");
        }
        Matcher o = OPENING.matcher(question);
        if (o.find()) {
            return new Verdict(TurnKind.REFINE, question, o.group(1).toLowerCase(Locale.ROOT));
        }
        Matcher e = ELLIPSIS.matcher(question);
        if (e.find() && question.trim().split("\\s+").length <= 5) {
            return new Verdict(TurnKind.REFINE, question, e.group(1).toLowerCase(Locale.ROOT));
        }
        Matcher r = REFERENCE.matcher(question);
        if (r.find()) {
            return new Verdict(TurnKind.REFINE, question, r.group(1).toLowerCase(Locale.ROOT));
        }
        return new Verdict(TurnKind.NEW, question, null);
    }
}
