package dev.sift.planner.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.RunState;
import dev.sift.agent.Step;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.PredictionTask;
import dev.sift.knowledge.Vocabulary;
import dev.sift.text.Evidence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The offline ML flow for a predictive question whose target the knowledge graph names ({@link PredictionTask}):
 * prediction_frames (the task's history with its label and the set to score → two frames), train_model, predict,
 * explain_prediction, then an answer built only from the tools' observations and evidence. Each call is decided
 * from the steps so far; a failed step ends the run with an answer that says which step failed and why.
 *
 * <p>{@link #read} accepts a question only when every content word is accounted for: a trigger of the task, a
 * phrase of the current set, the entity table, "top N", or a word that does not change the request ("which",
 * "likely", "why"…). Anything else ("in Prague", "every", "owners") means a narrower or different population than
 * the task scores, so the planner asks instead of answering a different question.
 */
public final class PredictivePlan {
    public static final List<String> TOOLS = List.of("prediction_frames", "train_model", "predict", "explain_prediction");
    static final int DEFAULT_TOP = 10;
    static final int MAX_TOP = 50;
    /** prediction_frames, train_model, predict, explain_prediction. */
    static final int STEPS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Vocabulary V = Vocabulary.WORDS;
    private static final Set<String> RANKING = V.list("ranking");

    /** How the question was read: the task, the top N and the readings to state in the answer. */
    public record Reading(PredictionTask task, int top, List<String> readings) { }

    private final Reading reading;
    private final String history;
    private final String current;

    public PredictivePlan(Reading reading) {
        this.reading = reading;
        this.history = reading.task().name() + "_history";
        this.current = reading.task().name() + "_current";
    }

    /**
     * Reads a predictive question against the graph's tasks: empty when no task's trigger occurs (the caller keeps
     * its general clarification); a problem text when a task matches but the question asks something it cannot
     * do as written; else the reading.
     */
    public static Optional<Object> read(String question, KnowledgeGraph kg) {
        Optional<PredictionTask> found = kg.prediction(question);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        PredictionTask task = found.get();
        List<String> words = Phrases.words(question);
        List<String> asWritten = asWritten(question, words);
        boolean[] used = new boolean[words.size()];
        List<String> readings = new ArrayList<>();
        String trigger = mark(words, asWritten, used, task.triggers());
        readings.add("'" + trigger + "' → the knowledge graph's prediction " + task.name()
                + (task.description() == null ? "" : " (" + task.description() + ")"));
        List<String> entityPhrases = kg.table(task.entityTable()).map(KgEntry.Table::phrases).orElse(List.of(task.entityTable()));
        String entity = markAll(words, asWritten, used, entityPhrases);
        String cur = markAll(words, asWritten, used, task.current().phrases());
        int top = DEFAULT_TOP;
        boolean asked = false;
        for (int i = 0; i + 1 < words.size(); i++) {
            boolean topN = words.get(i).equals("top") && words.get(i + 1).matches("\\d{1,4}");
            boolean nBest = words.get(i).matches("\\d{1,4}") && RANKING.contains(words.get(i + 1));
            if (topN || nBest) {
                top = Math.max(1, Math.min(MAX_TOP, Integer.parseInt(words.get(topN ? i + 1 : i))));
                used[i] = used[i + 1] = true;
                asked = true;
            }
        }
        boolean why = words.stream().anyMatch(w -> V.has(w, "intents.explain"));
        List<String> unmapped = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            if (!used[i] && !V.has(words.get(i), "filler.prediction") && !unmapped.contains(words.get(i))) {
                unmapped.add(words.get(i));
            }
        }
        String asks = "This asks for the prediction " + task.name() + " of the knowledge graph, which scores "
                + task.current().description() + " with a model learnt from " + task.history().description() + ".";
        if (!unmapped.isEmpty()) {
            return Optional.of(asks + " I could not fit " + unmapped.stream().map(w -> "'" + w + "'")
                    .collect(Collectors.joining(", ")) + " into it (it scores exactly that set, with no other filter or"
                    + " target), and I will not guess. Ask e.g. 'Which " + firstOr(task.current().phrases(), "current")
                    + " " + firstOr(entityPhrases.subList(Math.min(1, entityPhrases.size() - 1), entityPhrases.size()),
                    task.entityTable()) + " are likely to " + task.triggers().get(0) + "? Top 10 and why'.");
        }
        boolean implied = cur == null && why;
        if (entity == null && !implied || cur == null && !implied) {
            return Optional.of(asks + " Say which rows to score: it can only score "
                    + task.current().description() + ", e.g. 'Which " + firstOr(task.current().phrases(), "current")
                    + " " + task.entityTable() + "s are likely to " + task.triggers().get(0) + "?'.");
        }
        if (entity != null) {
            readings.add("'" + entity + "' → table " + task.entityTable());
        }
        readings.add(implied ? "the question asks why: the task explains its model on the only set it scores, "
                + task.current().description() + ": " + task.current().filter()
                : "'" + cur + "' → " + task.current().description() + ": " + task.current().filter());
        readings.add("the " + top + " highest probabilities are listed" + (asked ? " ('top " + top + "')" : " (the default)"));
        return Optional.of(new Reading(task, top, List.copyOf(readings)));
    }

    private static String firstOr(List<String> list, String or) {
        return list.isEmpty() ? or : list.get(0);
    }

    /** The question's words as written (lower case, unstemmed), aligned with {@code words}; the stems if they differ. */
    private static List<String> asWritten(String question, List<String> words) {
        List<String> raw = java.util.Arrays.stream(question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> !w.isEmpty()).toList();
        return raw.size() == words.size() ? raw : words;
    }

    /** Marks the first (longest) occurrence of one of the phrases; returns the phrase as the question has it. */
    private static String mark(List<String> words, List<String> asWritten, boolean[] used, List<String> phrases) {
        List<List<String>> keys = phrases.stream().map(Phrases::words).filter(k -> !k.isEmpty())
                .sorted((a, b) -> b.size() - a.size()).toList();
        for (List<String> k : keys) {
            for (int i = 0; i + k.size() <= words.size(); i++) {
                if (words.subList(i, i + k.size()).equals(k) && !anyUsed(used, i, k.size())) {
                    for (int j = i; j < i + k.size(); j++) {
                        used[j] = true;
                    }
                    return String.join(" ", asWritten.subList(i, i + k.size()));
                }
            }
        }
        return null;
    }

    /** Marks every occurrence of the phrases (a question may name its entity twice); the first one as the question has it. */
    private static String markAll(List<String> words, List<String> asWritten, boolean[] used, List<String> phrases) {
        String first = mark(words, asWritten, used, phrases);
        if (first != null) {
            while (mark(words, asWritten, used, phrases) != null) {
                // each call marks one more occurrence
            }
        }
        return first;
    }

    private static boolean anyUsed(boolean[] used, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (used[i]) {
                return true;
            }
        }
        return false;
    }

    /** The first call: the task's two frames (history with its label, the set to score), as a model planner builds them. */
    public Decision start() {
        PredictionTask t = reading.task();
        ObjectNode args = JSON.createObjectNode().put("task", t.name());
        return Decision.call("Build the frames of prediction " + t.name() + ": features of " + t.history().description()
                + " with label " + t.label() + ", and of " + t.current().description() + ".", "prediction_frames", args,
                null);
    }

    /** The next call, or the answer, from the steps so far (this plan's steps are the run's steps). */
    public Decision next(RunState state) {
        List<Step> steps = state.steps();
        Step last = steps.get(steps.size() - 1);
        if (!last.ok()) {
            return failed(last);
        }
        PredictionTask t = reading.task();
        return switch (steps.size()) {
            case 1 -> Decision.call("Train a classifier of " + t.label() + " on the history set.", "train_model",
                    JSON.createObjectNode().put("source", history).put("target", t.label())
                            .put("task_type", "classification").put("entity", t.entityColumn()), null);
            case 2 -> Decision.call("Score the current set.", "predict", JSON.createObjectNode().put("source", current)
                    .put("top_k", reading.top()), null);
            case 3 -> Decision.call("Explain the top " + reading.top() + " predictions.", "explain_prediction",
                    JSON.createObjectNode().put("top_k", reading.top()), null);
            default -> answer(state);
        };
    }

    /** At the step budget: the answer when the flow is complete, else a decline that says where it stopped. */
    public Decision.Answer forceFinal(RunState state) {
        Step last = state.lastStep();
        if (state.steps().size() >= STEPS && last.ok()) {
            return answer(state);
        }
        return Decision.answer(null, "I could not finish the prediction " + reading.task().name() + " offline within the"
                + " step budget (" + state.steps().size() + " of " + STEPS + " steps ran" + (last == null ? "" : ", the last was "
                + last.tool()) + ").", AnswerKind.DECLINED, null);
    }

    private Decision.Answer failed(Step last) {
        String what = switch (last.tool() == null ? "" : last.tool()) {
            case "prediction_frames" -> "building the feature frames with prediction_frames";
            case "train_model" -> "training the model";
            case "predict" -> "scoring the current set";
            case "explain_prediction" -> "explaining the predictions";
            default -> "step " + last.tool();
        };
        return Decision.answer("a step of the prediction failed", "I could not answer this prediction ("
                + reading.task().name() + ") offline: " + what + " failed: " + last.observation(), AnswerKind.DECLINED, null);
    }

    private Decision.Answer answer(RunState state) {
        PredictionTask t = reading.task();
        Step train = state.steps().get(1);
        Step explain = state.steps().get(3);
        Evidence predicted = lastEvidence(state, "predictions");
        Evidence explained = lastEvidence(state, "explanations");
        if (predicted == null || explained == null) {
            return Decision.answer("the flow left no evidence", "I could not answer this prediction (" + t.name()
                    + ") offline: the predict and explain steps left no evidence to cite.", AnswerKind.DECLINED, null);
        }
        int entityCol = indexOf(predicted, t.entityColumn());
        int probCol = indexOf(predicted, "probability");
        int caseCol = indexOf(explained, t.entityColumn());
        int sentenceCol = indexOf(explained, "explanation");
        if (entityCol < 0 || probCol < 0 || caseCol < 0 || sentenceCol < 0) {
            return Decision.answer("the evidence has another shape", "I could not answer this prediction (" + t.name()
                    + ") offline: the predictions or explanations lack the columns " + t.entityColumn()
                    + " / probability / explanation.", AnswerKind.DECLINED, null);
        }
        Map<String, String> why = new LinkedHashMap<>();
        for (List<Object> row : explained.rows()) {
            why.put(String.valueOf(row.get(caseCol)), String.valueOf(row.get(sentenceCol)));
        }
        Optional<String> calibration = line(train.observation(), "Calibration: ");
        boolean probabilities = calibration.map(l -> !l.contains("do NOT beat")).orElse(false);
        StringBuilder b = new StringBuilder("I read the question as: ").append(String.join("; ", reading.readings()))
                .append(".\nI trained a classifier of ").append(t.label()).append(" on ").append(t.history().description())
                .append(" (frame ").append(history).append(") and scored ").append(predicted.rowCount()).append(' ')
                .append(t.current().description()).append(" (frame ").append(current).append(").");
        int shown = (int) Math.min(reading.top(), predicted.rows().size());
        b.append("\nTop ").append(shown).append(probabilities ? " by calibrated probability of " : " by predicted risk of ")
                .append(t.label()).append(" = 1").append(probabilities ? ":" : " (a ranking: the model's probabilities do"
                + " not beat the base rate, so none is given):");
        for (int i = 0; i < shown; i++) {
            List<Object> row = predicted.rows().get(i);
            String id = String.valueOf(row.get(entityCol));
            b.append("\n").append(i + 1).append(". ").append(t.entityTable()).append(' ').append(id);
            if (probabilities) {
                b.append(": probability ").append(String.format(Locale.ROOT, "%.2f", ((Number) row.get(probCol)).doubleValue()));
            }
            b.append(reason(why.get(id)));
        }
        line(explain.observation(), "Overall importance").ifPresent(l -> b.append("\nMain drivers overall — ")
                .append(Character.toLowerCase(l.charAt(0))).append(l.substring(1)));
        line(train.observation(), "Quality: ").ifPresent(l -> b.append("\nModel quality — cross-validated ")
                .append(l.substring("Quality: ".length())));
        calibration.ifPresent(l -> b.append("\nCalibration — ").append(l.substring("Calibration: ".length())));
        line(train.observation(), "Reliability").ifPresent(l -> b.append('\n').append(l));
        line(train.observation(), "Capacity: ").ifPresent(l -> b.append("\nModel capacity — ")
                .append(l.substring("Capacity: ".length())));
        line(train.observation(), "Warning:").ifPresent(l -> b.append('\n')
                .append(l.contains(" Say so") ? l.substring(0, l.indexOf(" Say so")) : l));
        b.append(t.asOf() != null ? "\nPoint in time: " + t.pointInTimeRule() + ", so no feature sees what happened"
                + " after it." : "\nCaveat: the task names no moment of prediction, so its features may carry hindsight;"
                + " treat the scores as a ranking of risk.");
        return Decision.answer("answered from the model's predictions and explanations", b.toString(), AnswerKind.ANSWER, null);
    }

    /** " — because …" from an explanation sentence, or what it says when no reason holds. */
    private static String reason(String sentence) {
        int cut = sentence == null ? -1 : sentence.indexOf(" mainly because ");
        if (cut >= 0) {
            return " —" + sentence.substring(cut + " mainly".length(), sentence.length() - (sentence.endsWith(".") ? 1 : 0));
        }
        int none = sentence == null ? -1 : sentence.indexOf("; no ");
        return none >= 0 ? " — " + sentence.substring(none + 2, sentence.length() - (sentence.endsWith(".") ? 1 : 0)) : "";
    }

    private static Optional<String> line(String text, String prefix) {
        return text == null ? Optional.empty() : text.lines().filter(l -> l.startsWith(prefix)).findFirst();
    }

    private static Evidence lastEvidence(RunState state, String frame) {
        for (int i = state.evidence().size() - 1; i >= 0; i--) {
            if (frame.equals(state.evidence().get(i).frame())) {
                return state.evidence().get(i);
            }
        }
        return null;
    }

    private static int indexOf(Evidence e, String column) {
        for (int i = 0; i < e.columns().size(); i++) {
            if (e.columns().get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }
}
