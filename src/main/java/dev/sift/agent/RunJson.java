package dev.sift.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.grounding.Groundedness;
import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;

import java.nio.file.Path;

/**
 * The stable JSON form of a run that {@code sift ask --json} prints and other tools read:
 * answer, kind, status, evidence [{sql, columns, rows, row_count, formats}], steps [{tool, args, ok, summary, …}] (see
 * {@link #step}),
 * notes, run_id, trace, and (model planners) tools_shown {catalogue, shown [{tool, why}], hidden},
 * grounding {claims, unsupported, repaired, unsupported_values, derived [{claim, formula}]} and, when a judge was asked, judge {verdict, unsupported, reasons,
 * model} or judge {error}. An evidence item's {@code formats} says, per column, how people read its values
 * ({@code id, year, count, amount, rate, number, text}: {@link dev.sift.data.Numbers.Kind}); the rows themselves are
 * the values as the query returned them. {@code ask --json}, the API and the reports add {@code charts}
 * [{step, tool, spec} | {suggested, spec}] (Vega-Lite specs, see {@link RunCharts}). Fields may be added; none of these
 * may change meaning.
 */
public final class RunJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunJson() { }

    /**
     * One step, the same in {@code ask --json}, the API and the web app's live events: tool, args, ok, summary
     * (what the planner was shown next), outcome, and index, thought, millis, tokens_in, tokens_out.
     * {@code observation} repeats {@code summary} under the name the live events have always used.
     */
    public static ObjectNode step(Step s) {
        ObjectNode item = JSON.createObjectNode();
        item.put("tool", s.tool());
        item.set("args", s.args());
        item.put("ok", s.ok());
        item.put("summary", s.observation());
        item.put("outcome", s.outcome().name().toLowerCase(java.util.Locale.ROOT));
        item.put("index", s.index());
        item.put("thought", s.thought());
        item.put("observation", s.observation());
        item.put("millis", s.millis());
        item.put("tokens_in", s.tokens() == null ? 0 : s.tokens().input());
        item.put("tokens_out", s.tokens() == null ? 0 : s.tokens().output());
        item.put("tokens_cached", s.tokens() == null ? 0 : s.tokens().cached());
        return item;
    }

    public static ObjectNode of(AgentRun run, Path trace) {
        ObjectNode o = JSON.createObjectNode();
        o.put("answer", run.answer());
        o.put("kind", run.kind().wire());
        o.put("status", run.status().wire());
        o.put("warning", FinalAnswers.leadingWarning(run.answer())); // null unless the answer leads with one
        ArrayNode evidence = o.putArray("evidence");
        for (Evidence e : run.evidence()) {
            ObjectNode item = evidence.addObject();
            item.put("sql", e.sql());
            item.set("columns", JSON.valueToTree(e.columns()));
            item.set("rows", JSON.valueToTree(e.rows()));
            item.put("row_count", e.rowCount());
            item.put("truncated", e.truncated());
            ArrayNode formats = item.putArray("formats");
            EvidenceText.kinds(e).forEach(k -> formats.add(k.wire()));
            if (e.frame() != null) {
                item.put("frame", e.frame());
            }
        }
        ArrayNode steps = o.putArray("steps");
        for (Step s : run.steps()) {
            steps.add(step(s));
        }
        o.set("notes", JSON.valueToTree(run.notes()));
        o.put("run_id", run.runId());
        o.put("trace", trace == null ? null : trace.toString());
        o.put("dataset", run.dataset());
        o.put("planner", run.planner());
        o.put("millis", run.millis());
        o.set("tokens", JSON.valueToTree(run.tokens()));
        Groundedness g = run.grounding();
        if (g != Groundedness.NONE) {
            ObjectNode gr = o.putObject("grounding");
            gr.put("claims", g.claims());
            gr.set("unsupported", JSON.valueToTree(g.unsupported()));
            gr.set("repaired", JSON.valueToTree(g.repaired()));
            gr.set("unsupported_values", JSON.valueToTree(g.unsupportedValues()));
            ArrayNode derived = gr.putArray("derived");
            g.derived().forEach(d -> derived.addObject().put("claim", d.claim()).put("formula", d.formula()));
        }
        if (g.judge() != null) {
            ObjectNode j = o.putObject("judge");
            j.put("verdict", g.judge().verdict());
            j.set("unsupported", JSON.valueToTree(g.judge().unsupported()));
            j.put("reasons", g.judge().reasons());
            j.put("model", g.judge().model());
        } else if (g.judgeError() != null) {
            o.putObject("judge").put("error", g.judgeError());
        }
        if (run.toolsShown() != null) {
            ObjectNode shown = o.putObject("tools_shown");
            shown.put("catalogue", run.toolsShown().catalogue());
            ArrayNode list = shown.putArray("shown");
            run.toolsShown().shown().forEach(t -> list.addObject().put("tool", t.tool()).put("why", t.why()));
            shown.set("hidden", JSON.valueToTree(run.toolsShown().hidden()));
        }
        return o;
    }
}
