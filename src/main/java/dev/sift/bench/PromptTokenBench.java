package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
import dev.sift.knowledge.Knowledge;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * What the model is sent per question, over whole runs: each suite question is asked once through the real planner
 * with a scripted stand-in model that runs the item's gold SQL through {@code run_sql} (when it has one) and then
 * answers, so every request of a two-step run is recorded: the first (system prompt, question and, natively, the
 * tool definitions) and the next, which adds the call and its observation. Tokens are counted with the o200k_base
 * encoding (GPT-4o's; jtokkit comes with LangChain4j's OpenAI module); other models' tokenizers differ by some
 * percent. With JSON replies it also measures what the lean prompt might have left out ({@link PromptRecall}).
 */
final class PromptTokenBench {
    /** The stand-in's final reply. */
    static final String FINAL = "{\"thought\":\"recorded\",\"final_answer\":\"Recorded.\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Median, 95th percentile and maximum of one measure over a suite's questions. */
    record Stats(int median, int p95, int max) {
        static Stats of(List<Integer> values) {
            List<Integer> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            return new Stats(percentile(sorted, 50), percentile(sorted, 95), sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1));
        }
    }

    /** Prompt tokens of one suite's questions: the first request, the whole run, and requests per run. */
    record Result(String suite, int questions, Stats first, Stats run, double requests, PromptRecall.Totals recall) { }

    private final Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    /** Asks every question of {@code suite} through a Sift that {@code sift} builds around the scripted model. */
    Result run(Suite suite, Dataset ds, Function<LlmClient, Sift> sift, boolean recall) throws Exception {
        List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());
        String[] gold = new String[1];
        ScriptedLlm model = new ScriptedLlm(request -> {
            requests.add(request);
            boolean first = request.messages().size() == 2;
            return first && gold[0] != null ? call(gold[0]) : FINAL;
        });
        Sift s = sift.apply(model);
        List<Integer> firsts = new ArrayList<>();
        List<Integer> runs = new ArrayList<>();
        int asked = 0;
        PromptRecall.Totals totals = PromptRecall.Totals.NONE;
        Knowledge knowledge = recall ? knowledge(s, ds) : null;
        for (Suite.Item item : suite.items()) {
            int before = requests.size();
            gold[0] = item.goldSql();
            s.ask(item.question(), ds, AgentConfig.defaults());
            List<LlmRequest> these = requests.subList(before, requests.size());
            firsts.add(these.isEmpty() ? 0 : tokens(these.get(0)));
            runs.add(these.stream().mapToInt(this::tokens).sum());
            asked += these.size();
            if (knowledge != null && !these.isEmpty() && item.goldSql() != null) {
                // the prompt is the stable system message and the question's part, which opens the first user message
                String prompt = these.get(0).messages().get(0).content() + "\n\n" + these.get(0).messages().get(1).content();
                totals = totals.plus(PromptRecall.of(item.goldSql(), prompt, knowledge));
            }
        }
        return new Result(suite.name(), firsts.size(), Stats.of(firsts), Stats.of(runs),
                firsts.isEmpty() ? 0 : (double) asked / firsts.size(), knowledge == null ? null : totals);
    }

    private static Knowledge knowledge(Sift s, Dataset ds) {
        try (var ws = s.open(ds)) {
            return s.knowledge().lazy(ws).get();
        }
    }

    /** The stand-in's first reply for an item with gold SQL: run it. */
    static String call(String sql) {
        ObjectNode o = JSON.createObjectNode().put("thought", "scripted").put("tool", "run_sql");
        o.putObject("args").put("sql", sql);
        return o.toString();
    }

    /** The request's text as the model reads it: every message and tool call, and the tool definitions when any. */
    int tokens(LlmRequest request) {
        int n = 0;
        for (LlmMessage m : request.messages()) {
            n += encoding.countTokens(m.content());
            if (m.call() != null) {
                n += encoding.countTokens(m.call().name()) + encoding.countTokens(m.call().arguments());
            }
        }
        if (!request.tools().isEmpty()) {
            n += encoding.countTokens(JSON.valueToTree(request.tools()).toString());
        }
        return n;
    }

    /** Nearest-rank percentile of sorted values. */
    static int percentile(List<Integer> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    static void print(String mode, Result r, PrintWriter out) {
        out.printf("%-8s %-6s %4d questions  first request: median %,6d  p95 %,6d  max %,6d;  whole run (%.1f requests):"
                        + " median %,6d  p95 %,6d  max %,6d%n", r.suite(), mode, r.questions(), r.first().median(),
                r.first().p95(), r.first().max(), r.requests(), r.run().median(), r.run().p95(), r.run().max());
        if (r.recall() != null) {
            r.recall().print(out);
        }
    }
}
