package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.Numbers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A standalone HTML report of one answer (the run's JSON: answer, status, notes, evidence tables, charts and
 * steps). Vega, Vega-Lite and vega-embed are inlined, so the file opens anywhere with no network.
 */
public final class Report {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Report() { }

    public static String html(JsonNode run) {
        StringBuilder b = new StringBuilder(1_000_000);
        b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Sift report: ").append(esc(run.path("turn").path("asked").asText(questionOf(run))))
                .append("</title><style>").append(CSS).append("</style>");
        boolean charts = run.path("charts").size() > 0;
        if (charts) {
            for (String lib : new String[] {"vega", "vega-interpreter", "vega-lite", "vega-embed"}) {
                b.append("<script>").append(resource("/web/vendor/" + lib + ".min.js").replace("</script", "<\\/script"))
                        .append("</script>");
            }
        }
        b.append("</head><body><main>");
        b.append("<p class=\"eyebrow\">Sift · dataset ").append(esc(run.path("dataset").asText())).append(" · planner ")
                .append(esc(run.path("planner").asText())).append("</p>");
        b.append("<h1>").append(esc(questionOf(run))).append("</h1>");
        b.append("<div class=\"badges\"><span class=\"badge ").append(esc(run.path("status").asText())).append("\">")
                .append(esc(run.path("status").asText())).append("</span><span class=\"badge kind\">")
                .append(esc(run.path("kind").asText())).append("</span><span class=\"muted\">")
                .append(run.path("millis").asLong()).append(" ms · ").append(run.path("steps").size())
                .append(" steps</span></div>");
        b.append("<section class=\"answer\">").append(esc(run.path("answer").asText()).replace("\n", "<br>"))
                .append("</section>");
        if (run.path("notes").size() > 0) {
            b.append("<section><h2>Notes</h2><ul>");
            run.path("notes").forEach(n -> b.append("<li>").append(esc(n.asText())).append("</li>"));
            b.append("</ul></section>");
        }
        int i = 0;
        for (JsonNode c : run.path("charts")) {
            b.append("<section><h2>Chart").append(c.path("suggested").asBoolean() ? " (suggested)" : "")
                    .append("</h2><div class=\"chart\" id=\"chart").append(i).append("\"></div>")
                    .append("<script>vegaEmbed('#chart").append(i).append("', ")
                    .append(dev.sift.text.SafeText.scriptJson(c.path("spec").toString()))
                    .append(", {actions: false, renderer: 'svg', ast: true, expr: vega.expressionInterpreter});</script></section>");
            i++;
        }
        evidence(b, run);
        steps(b, run);
        b.append("<footer class=\"muted\">Run ").append(esc(run.path("run_id").asText())).append("</footer>");
        b.append("</main></body></html>\n");
        return b.toString();
    }

    private static void evidence(StringBuilder b, JsonNode run) {
        List<JsonNode> evidence = new ArrayList<>();
        run.path("evidence").forEach(evidence::add);
        Collections.reverse(evidence); // the result the answer rests on first, the queries that led to it after
        for (JsonNode e : evidence) {
            b.append("<section><h2>Evidence</h2><pre class=\"sql\">").append(esc(e.path("sql").asText())).append("</pre>");
            b.append("<p class=\"muted\">").append(e.path("row_count").asLong()).append(" rows")
                    .append(e.has("frame") ? ", saved as frames." + esc(e.path("frame").asText()) : "")
                    .append(e.path("row_count").asLong() > e.path("rows").size() ? " (first " + e.path("rows").size()
                            + " shown)" : "").append("</p><div class=\"table\"><table><thead><tr>");
            e.path("columns").forEach(c -> b.append("<th>").append(esc(c.asText())).append("</th>"));
            b.append("</tr></thead><tbody>");
            for (JsonNode row : e.path("rows")) {
                b.append("<tr>");
                for (int c = 0; c < row.size(); c++) {
                    JsonNode v = row.get(c);
                    b.append(v.isNumber() ? "<td class=\"num\">" : "<td>").append(v.isNull() ? "<span class=\"muted\">NULL</span>"
                            : esc(cell(v, e.path("formats").path(c).asText("number")))).append("</td>");
                }
                b.append("</tr>");
            }
            b.append("</tbody></table></div></section>");
        }
    }

    private static void steps(StringBuilder b, JsonNode run) {
        if (run.path("steps").size() > 0) {
            b.append("<section><h2>Steps</h2><ol class=\"steps\">");
            for (JsonNode s : run.path("steps")) {
                b.append("<li><b>").append(esc(s.path("tool").asText("—"))).append("</b> <span class=\"muted\">")
                        .append(esc(s.path("outcome").asText())).append("</span><pre>")
                        .append(esc(s.path("args").toString())).append("</pre><pre class=\"obs\">")
                        .append(esc(s.path("summary").asText())).append("</pre></li>");
            }
            b.append("</ol></section>");
        }
    }

    /** A cell as people read it: numbers by {@link Numbers} in the kind the evidence names, text as it is. */
    static String cell(JsonNode v, String kind) {
        if (!v.isNumber()) {
            return v.asText();
        }
        Numbers.Kind k = java.util.Arrays.stream(Numbers.Kind.values()).filter(x -> x.wire().equals(kind)).findFirst()
                .orElse(Numbers.Kind.NUMBER);
        return Numbers.format(v.isIntegralNumber() ? (Object) v.longValue() : (Object) v.doubleValue(), k);
    }

    private static String questionOf(JsonNode run) {
        return run.path("question").asText(run.path("turn").path("asked").asText("Sift answer"));
    }

    static String resource(String path) {
        try (InputStream in = Report.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + path + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String CSS = """
            :root{--fg:#1d2330;--muted:#6b7385;--line:#e3e6ec;--bg:#f7f8fa;--accent:#3559e0}
            *{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
            main{max-width:920px;margin:0 auto;padding:28px 20px}h1{font-size:22px;margin:4px 0 10px}h2{font-size:15px;margin:0 0 8px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
            section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:14px 0}
            .answer{font-size:16px}.eyebrow{color:var(--muted);margin:0;font-size:13px}.muted{color:var(--muted);font-size:13px}
            .badges{display:flex;gap:8px;align-items:center;flex-wrap:wrap}.badge{border-radius:999px;padding:2px 10px;font-size:12px;font-weight:600;background:#eef1f6}
            .badge.rule_based,.badge.judged{background:#e3f5ea;color:#17663a}.badge.not_sampled{background:#fff4dc;color:#7a5800}.badge.failed{background:#fde8e8;color:#a11}.badge.llm_disabled{background:#eef1f6;color:#445}
            pre{white-space:pre-wrap;word-break:break-word;background:#f3f5f9;border-radius:6px;padding:8px;font-size:12.5px;margin:6px 0}
            .table{overflow:auto}table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;white-space:nowrap}th{background:#f3f5f9}td.num{text-align:right;font-variant-numeric:tabular-nums}
            .chart{width:100%}.steps li{margin-bottom:8px}
            """;

    /** Pretty JSON, for tests and debugging. */
    static String pretty(JsonNode n) throws IOException {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n);
    }
}
