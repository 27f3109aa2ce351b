package dev.sift.agent;

import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;

import java.util.List;

/**
 * The answers Sift writes itself, when no planner answer can stand: every one says what happened and, where
 * the run gathered results, shows them plainly rather than guessing. Planner answers are the planners' own.
 */
public final class FinalAnswers {
    private FinalAnswers() { }

    /** The planner's replies stayed unreadable after a correction. */
    public static String unreadable(String problem) {
        return "The model's replies could not be read as a decision, even after a correction: " + problem
                + " No answer was produced; nothing was guessed.";
    }

    /** The model failed (unreachable, timed out, refused the request). */
    public static String modelFailed(String message, List<Evidence> evidence) {
        return "The language model could not be used, so this run stopped: " + message + (evidence.isEmpty()
                ? " Nothing was guessed." : "\nResults gathered before it failed:\n" + EvidenceText.plainText(evidence));
    }

    /** The step budget ran out and the planner could not give a final answer either: the evidence itself, plainly. */
    public static String budgetSpent(List<Evidence> evidence) {
        return evidence.isEmpty() ? "I could not reach an answer within the step budget, and no query results"
                + " were gathered." : "I could not finish within the step budget. The results gathered so far:\n"
                + EvidenceText.plainText(evidence);
    }

    /** The same call failed {@code times} times in a row of the run: the run stops with what it gathered. */
    public static String repeatedFailure(String tool, int times, String error, List<Evidence> evidence) {
        return "I stopped because the same " + tool + " call failed " + times + " times (" + error + ")"
                + (evidence.isEmpty() ? ", and no results were gathered, so there is no answer; nothing was guessed."
                : ". The results gathered before that:\n" + EvidenceText.plainText(evidence));
    }

    /** Asked for the final answer at the step budget, the model called a tool instead. */
    public static String noFinalFromModel() {
        return "The model did not give a final answer within the step budget.";
    }

    /** Longer model answers are cut here, with the cut stated. */
    public static final int MAX_ANSWER_CHARS = 20_000;
    private static final String WARNING = "Warning: ";

    /**
     * The plain warning an answer leads with when its numbers stay unsupported: after the repair turn, or with no
     * turn left to repair them (an answer forced at the step budget).
     */
    public static String unsupportedWarning(List<String> numbers, boolean afterRepair) {
        return WARNING + "no query result supports " + String.join(", ", numbers) + (afterRepair ? ", even after a"
                + " repair turn" : "") + ": this answer is not checked against the data; do not rely on its numbers.";
    }

    /** The answer with the warning in front (a paragraph of its own). */
    public static String warned(String warning, String answer) {
        return warning + "\n\n" + answer;
    }

    /** The warning an answer leads with, or null. */
    public static String leadingWarning(String answer) {
        if (answer == null || !answer.startsWith(WARNING + "no query result supports ")) {
            return null;
        }
        int end = answer.indexOf("\n\n");
        return end < 0 ? answer : answer.substring(0, end);
    }

    /** A model's answer cut at {@link #MAX_ANSWER_CHARS}, saying where and of how much. */
    public static String capped(String answer) {
        if (answer == null || answer.length() <= MAX_ANSWER_CHARS) {
            return answer;
        }
        return answer.substring(0, MAX_ANSWER_CHARS).stripTrailing() + String.format(java.util.Locale.ROOT,
                "\n… (answer cut at %,d of %,d characters)", MAX_ANSWER_CHARS, answer.length());
    }

    /** The person set the conversation aside without asking anything new. */
    public static String setAside() {
        return "Understood: the earlier questions are set aside. What would you like to know?";
    }
}
