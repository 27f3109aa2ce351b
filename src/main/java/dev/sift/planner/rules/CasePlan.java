package dev.sift.planner.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.RunState;
import dev.sift.agent.Step;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Patterns;
import dev.sift.knowledge.PredictionTask;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline flow for a question about one case of a prediction task, or about a model's health: "which are most
 * like loan 5776?" (similar_cases), "what if loan 5776 were 24 months?" (what_if) — each after prediction_frames and
 * train_model build the task's model — and "is the default model still good?" (monitor_performance on the selected
 * or latest saved model). The answer is the last tool's observation after the reading; a failed step ends the run
 * with an answer that says which step failed and why.
 */
public final class CasePlan {
    enum Kind { SIMILAR, WHAT_IF, MONITOR }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SIMILAR = Patterns.ALL.get("case.similar");
    private static final Pattern WHAT_IF = Patterns.ALL.get("case.what_if");
    private static final Pattern HEALTH = Patterns.ALL.get("case.health");
    private static final Pattern NUMBER = Pattern.compile("(-?\\d+(?:\\.\\d+)?)");

    private final Kind kind;
    private final PredictionTask task;
    private final String caseId;
    private final String column;
    private final String value;
    private final List<String> readings;

    private CasePlan(Kind kind, PredictionTask task, String caseId, String column, String value, List<String> readings) {
        this.kind = kind;
        this.task = task;
        this.caseId = caseId;
        this.column = column;
        this.value = value;
        this.readings = List.copyOf(readings);
    }

    /** The tool each kind ends with. */
    static String tool(Kind kind) {
        return switch (kind) {
            case SIMILAR -> "similar_cases";
            case WHAT_IF -> "what_if";
            case MONITOR -> "monitor_performance";
        };
    }

    /**
     * Reads a question about one case or a model's health: empty when it is neither (or its tools are not
     * registered); a problem text when it is one but lacks what the tool needs; else the plan.
     */
    public static Optional<Object> read(String question, KnowledgeGraph kg, Collection<String> tools) {
        String q = question.toLowerCase(Locale.ROOT);
        if (HEALTH.matcher(q).find() && q.matches(".*\\bmodels?\\b.*") && tools.contains("monitor_performance")) {
            return Optional.of(new CasePlan(Kind.MONITOR, null, null, null, null, List.of("'"
                    + matched(HEALTH, q) + "' about a model → monitor_performance: the model on labelled rows newer than"
                    + " its training data")));
        }
        Kind kind = SIMILAR.matcher(q).find() ? Kind.SIMILAR : WHAT_IF.matcher(q).find() ? Kind.WHAT_IF : null;
        if (kind == null || !tools.containsAll(List.of("prediction_frames", "train_model", tool(kind)))) {
            return Optional.empty();
        }
        for (PredictionTask t : kg.predictions()) {
            Matcher ref = Pattern.compile("\\b" + Pattern.quote(t.entityTable().toLowerCase(Locale.ROOT))
                    + "s?\\s+(?:id\\s+|number\\s+|no\\.?\\s+|#)?(\\d+)\\b").matcher(q);
            if (!ref.find()) {
                continue;
            }
            List<String> readings = new ArrayList<>(List.of("'" + matched(kind == Kind.SIMILAR ? SIMILAR : WHAT_IF, q)
                    + "' about " + ref.group() + " → " + tool(kind) + " with the model of prediction " + t.name()
                    + " (" + t.description() + ")"));
            if (kind == Kind.SIMILAR) {
                return Optional.of(new CasePlan(kind, t, ref.group(1), null, null, readings));
            }
            return change(q.substring(ref.end()), kg, t).map(c -> {
                readings.add("'" + c[2] + "' → " + t.entityTable() + "." + c[0] + " = " + c[1]);
                return (Object) new CasePlan(kind, t, ref.group(1), c[0], c[1], readings);
            }).or(() -> Optional.of("This asks what model " + t.name() + " would say for " + ref.group() + " with"
                    + " something changed, but I could not tell which column of " + t.entityTable() + " changes to what."
                    + " Name it with its new value, e.g. 'what if " + ref.group() + " were 24 months?' or 'what if "
                    + ref.group() + " had amount 100000?'."));
        }
        return Optional.empty();
    }

    private static String matched(Pattern p, String q) {
        Matcher m = p.matcher(q);
        return m.find() ? m.group() : "";
    }

    /**
     * The change a what-if names after its case: a number followed by the unit of exactly one column of the entity
     * table ("24 months" → duration), or a column's name followed by a number ("amount 100000"); as {column, value,
     * the words read}.
     */
    private static Optional<String[]> change(String rest, KnowledgeGraph kg, PredictionTask t) {
        List<KgEntry.Column> columns = kg.columns(t.entityTable());
        Matcher n = NUMBER.matcher(rest);
        while (n.find()) {
            Matcher unit = Pattern.compile("^\\s*([a-z]+)").matcher(rest.substring(n.end()));
            if (unit.find()) {
                String word = unit.group(1);
                List<KgEntry.Column> hit = columns.stream().filter(c -> c.unit() != null && sameWord(c.unit(), word)).toList();
                if (hit.size() == 1) {
                    return Optional.of(new String[] {hit.get(0).name(), n.group(1), n.group(1) + " " + word});
                }
            }
        }
        for (KgEntry.Column c : columns) {
            Matcher named = Pattern.compile("\\b" + Pattern.quote(c.name().toLowerCase(Locale.ROOT))
                    + "\\b\\D{0,12}?(-?\\d+(?:\\.\\d+)?)").matcher(rest);
            if (!c.key() && named.find()) {
                return Optional.of(new String[] {c.name(), named.group(1), named.group()});
            }
        }
        return Optional.empty();
    }

    private static boolean sameWord(String unit, String word) {
        String u = unit.toLowerCase(Locale.ROOT);
        return u.equals(word) || (u + "s").equals(word) || u.equals(word + "s");
    }

    /** The first call: the task's frames, or the health check. */
    public Decision start() {
        if (kind == Kind.MONITOR) {
            return Decision.call("Check the selected (or latest saved) model on labelled rows newer than its training"
                    + " data.", "monitor_performance", JSON.createObjectNode(), null);
        }
        return Decision.call("Build the frames of prediction " + task.name() + " to train its model.", "prediction_frames",
                JSON.createObjectNode().put("task", task.name()), null);
    }

    /** The next call, or the answer, from the steps so far. */
    public Decision next(RunState state) {
        List<Step> steps = state.steps();
        Step last = steps.get(steps.size() - 1);
        if (!last.ok()) {
            return Decision.answer("a step failed", "I could not answer this offline: " + last.tool() + " failed: "
                    + last.observation(), AnswerKind.DECLINED, null);
        }
        if (kind == Kind.MONITOR || steps.size() == 3) {
            return answer(last);
        }
        if (steps.size() == 1) {
            return Decision.call("Train a classifier of " + task.label() + " on the task's history.", "train_model",
                    JSON.createObjectNode().put("source", task.name() + "_history").put("target", task.label())
                            .put("task_type", "classification").put("entity", task.entityColumn()), null);
        }
        ObjectNode args = JSON.createObjectNode().put("case_id", caseId);
        if (kind == Kind.WHAT_IF) {
            ObjectNode changes = args.putObject("changes");
            if (value.contains(".")) {
                changes.put(column, Double.parseDouble(value));
            } else {
                changes.put(column, Long.parseLong(value));
            }
        }
        return Decision.call(kind == Kind.SIMILAR ? "Find the labelled cases most like " + task.entityTable() + " "
                + caseId + "." : "Score " + task.entityTable() + " " + caseId + " with " + column + " = " + value + ".",
                tool(kind), args, null);
    }

    /** At the step budget: the answer when the last tool ran, else a decline naming where it stopped. */
    public Decision.Answer forceFinal(RunState state) {
        Step last = state.lastStep();
        if (last != null && last.ok() && tool(kind).equals(last.tool())) {
            return answer(last);
        }
        return Decision.answer(null, "I could not finish this offline within the step budget (" + state.steps().size()
                + " steps ran).", AnswerKind.DECLINED, null);
    }

    private Decision.Answer answer(Step last) {
        return Decision.answer("answered from " + last.tool(), "I read the question as: " + String.join("; ", readings)
                + ".\n" + last.observation(), AnswerKind.ANSWER, null);
    }
}
