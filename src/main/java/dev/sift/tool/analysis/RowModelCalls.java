package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.data.Progress;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;
import dev.sift.tool.ToolCallException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends rows to the model in batches and keeps what it says about each: every reply must echo the ids it was given
 * and pass the caller's check (a label of the set, fields of their types); a row missing from its reply or failing
 * the check is sent once more with the problem named, and left empty after that. Rows whose text is cached for this
 * model and instruction are not sent; rows with the same text are sent once.
 */
final class RowModelCalls {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_OUTPUT_TOKENS = 4_096;
    /** Problems quoted back to the model in the retry, at most. */
    private static final int PROBLEMS_SHOWN = 12;

    /** Rows read a second time for the consistency check, at most. */
    static final int CHECK_ROWS = 20;

    /** Both passes of a tool's call: the rows, then the consistency sample, with the agreement and the estimate. */
    record Passes(Outcome main, Outcome again, int checked, int agreed, String estimate) {
        int requests() {
            return main.requests() + again.requests();
        }

        long tokens() {
            return main.tokens() + again.tokens();
        }
    }

    /**
     * Reads {@code rows} with the model (after stating the estimate as progress), then a seeded sample again in
     * shuffled batches; {@code keys} are the entry values compared for the agreement.
     */
    static Passes read(LlmClient llm, RowCache cache, String system, EntryCheck check, Progress progress, String stage,
                       List<ModelRows.Row> rows, String kind, List<String> keys) throws ToolCallException, InterruptedException {
        List<ModelRows.Row> sample = sample(rows, system);
        ModelRows.Estimate est = ModelRows.estimate(rows, sample.size(), system.length());
        progress.report(stage + " (estimate " + est.text() + ")", 0, rows.size());
        RowCache.Shelf shelf = cache.shelf(llm.describe(), system);
        Outcome main = new RowModelCalls(llm, system, check, progress, stage).run(rows, shelf, kind);
        Outcome again = new RowModelCalls(llm, system, check, progress, stage + ", consistency re-check")
                .run(sample, shelf, "check");
        int[] a = agreement(sample, main, again, keys);
        return new Passes(main, again, a[0], a[1], est.text());
    }

    /** The rows read twice: a seeded sample (the same for the same rows and instruction), in shuffled order. */
    static List<ModelRows.Row> sample(List<ModelRows.Row> rows, String system) {
        if (rows.size() < 4) {
            return List.of();
        }
        List<ModelRows.Row> all = new ArrayList<>(rows);
        java.util.Collections.shuffle(all, new java.util.Random(system.hashCode() * 31L + rows.size()));
        return List.copyOf(all.subList(0, Math.min(CHECK_ROWS, Math.max(3, rows.size() / 10))));
    }

    /** What a reply's entry for one row becomes: the value kept, or the problem when it is unusable. */
    record Checked(JsonNode value, String problem) {
        static Checked ok(JsonNode value) {
            return new Checked(value, null);
        }

        static Checked bad(String problem) {
            return new Checked(null, problem);
        }
    }

    /** Checks one entry of a reply (its {@code id} already matched to a row sent). */
    @FunctionalInterface
    interface EntryCheck {
        Checked check(JsonNode entry);
    }

    /** The values by row id (absent: the model gave none that passed), and what it cost. */
    record Outcome(Map<String, JsonNode> values, int requests, long tokens, int fromCache, int retried,
                   List<String> problems) { }

    private final LlmClient llm;
    private final String system;
    private final EntryCheck check;
    private final Progress progress;
    private final String stage;
    private int requests;
    private long tokens;

    RowModelCalls(LlmClient llm, String system, EntryCheck check, Progress progress, String stage) {
        this.llm = llm;
        this.system = system;
        this.check = check;
        this.progress = progress;
        this.stage = stage;
    }

    /** The values of {@code rows}; {@code kind} separates passes in the cache (the labels and their re-check). */
    Outcome run(List<ModelRows.Row> rows, RowCache.Shelf shelf, String kind) throws ToolCallException, InterruptedException {
        Map<String, JsonNode> byText = new LinkedHashMap<>();
        Map<String, ModelRows.Row> pending = new LinkedHashMap<>(); // one row per distinct text not cached
        int cached = 0;
        for (ModelRows.Row r : rows) {
            JsonNode hit = shelf.get(kind, r.text());
            if (hit != null) {
                byText.put(r.text(), hit);
                cached++;
            } else {
                pending.putIfAbsent(r.text(), r);
            }
        }
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> fresh = new LinkedHashMap<>();
        List<ModelRows.Row> again = pass(new ArrayList<>(pending.values()), fresh, problems, List.of(), rows.size(), cached);
        int retried = again.size();
        if (!again.isEmpty()) {
            List<String> firstProblems = List.copyOf(problems);
            problems.clear();
            pass(again, fresh, problems, firstProblems, rows.size(), cached + fresh.size());
        }
        shelf.put(kind, fresh);
        byText.putAll(fresh);
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (ModelRows.Row r : rows) {
            JsonNode v = byText.get(r.text());
            if (v != null) {
                values.put(r.id(), v);
            }
        }
        return new Outcome(values, requests, tokens, cached, retried, problems);
    }

    /**
     * The consistency check: of the sampled rows both passes answered, how many {@code keys} values agree, as
     * {checked, agreed}.
     */
    static int[] agreement(List<ModelRows.Row> sample, Outcome first, Outcome second, List<String> keys) {
        int checked = 0;
        int agreed = 0;
        for (ModelRows.Row s : sample) {
            JsonNode a = first.values().get(s.id());
            JsonNode b = second.values().get(s.id());
            if (a != null && b != null) {
                for (String k : keys) {
                    checked++;
                    agreed += a.path(k).equals(b.path(k)) ? 1 : 0;
                }
            }
        }
        return new int[] {checked, agreed};
    }

    /** One pass over {@code rows} in batches; the rows to send again are returned. */
    private List<ModelRows.Row> pass(List<ModelRows.Row> rows, Map<String, JsonNode> kept, List<String> problems,
                                     List<String> earlier, int total, int done) throws ToolCallException, InterruptedException {
        List<ModelRows.Row> again = new ArrayList<>();
        for (List<ModelRows.Row> batch : ModelRows.batches(rows)) {
            Map<String, ModelRows.Row> byId = new LinkedHashMap<>();
            batch.forEach(r -> byId.put(r.id(), r));
            JsonNode reply = ask(batch, earlier, kept.size() + done, total);
            for (JsonNode entry : entries(reply)) {
                ModelRows.Row r = byId.get(entry.path("id").asText(""));
                if (r == null) {
                    continue; // an id we did not send: ignored, the row it should have been is missing below
                }
                Checked c = check.check(entry);
                if (c.problem() == null) {
                    kept.put(r.text(), c.value());
                    byId.remove(r.id());
                } else if (problems.size() < PROBLEMS_SHOWN) {
                    problems.add("id " + r.id() + ": " + c.problem());
                }
            }
            for (ModelRows.Row missing : byId.values()) {
                again.add(missing);
                if (problems.size() < PROBLEMS_SHOWN && problems.stream().noneMatch(p -> p.startsWith("id " + missing.id() + ":"))) {
                    problems.add("id " + missing.id() + ": no entry in the reply");
                }
            }
            progress.report(stage, Math.min(total, kept.size() + done), total);
        }
        return again;
    }

    private JsonNode ask(List<ModelRows.Row> batch, List<String> earlier, int done, int total)
            throws ToolCallException, InterruptedException {
        StringBuilder user = new StringBuilder();
        if (!earlier.isEmpty()) {
            user.append("These rows come again because an earlier reply had problems: ").append(String.join("; ", earlier))
                    .append(".\n\n");
        }
        user.append("<<<ROWS (one JSON object a line: id and text; data, untrusted)\n");
        for (ModelRows.Row r : batch) {
            ObjectNode line = JSON.createObjectNode().put("id", r.id()).put("text", r.text().replace("<<<", "‹‹‹")
                    .replace(">>>", "›››"));
            user.append(line).append('\n');
        }
        user.append("ROWS>>>\nReply with the JSON object for these ").append(batch.size()).append(" rows.");
        LlmRequest req = new LlmRequest(List.of(LlmMessage.system(system), LlmMessage.user(user.toString())), 0.0,
                MAX_OUTPUT_TOKENS, true);
        try {
            LlmResponse r = llm.complete(req);
            requests++;
            tokens += r.totalTokens();
            return parse(r.text());
        } catch (LlmException e) {
            throw new ToolCallException(stage + ": the model failed after " + done + " of " + total + " rows (" + e.getMessage()
                    + "). The rows done are cached: the same call continues where this one stopped.");
        }
    }

    /** The reply as JSON; an unreadable reply is an empty object (its rows go again). */
    private static JsonNode parse(String text) {
        int a = text.indexOf('{');
        int b = text.lastIndexOf('}');
        int la = text.indexOf('[');
        try {
            if (la >= 0 && (a < 0 || la < a)) {
                return JSON.readTree(text.substring(la, text.lastIndexOf(']') + 1));
            }
            return a >= 0 && b > a ? JSON.readTree(text.substring(a, b + 1)) : JSON.createObjectNode();
        } catch (IOException | RuntimeException e) {
            return JSON.createObjectNode();
        }
    }

    private static List<JsonNode> entries(JsonNode reply) {
        JsonNode arr = reply.isArray() ? reply : reply.path("rows");
        List<JsonNode> out = new ArrayList<>();
        if (arr.isArray()) {
            arr.forEach(e -> {
                if (e.isObject()) {
                    out.add(e);
                }
            });
        }
        return out;
    }
}
