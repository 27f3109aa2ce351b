package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
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
 * What the model is sent per question: each suite question is asked once through the real planner with a
 * recording stand-in model that answers at once, so the one request recorded per question is the system prompt,
 * the question and (natively) the tool definitions. Tokens are counted with the o200k_base encoding (GPT-4o's;
 * jtokkit comes with LangChain4j's OpenAI module); other models' tokenizers differ by some percent.
 */
final class PromptTokenBench {
    /** The stand-in's reply: a final answer, so each question costs exactly one recorded request. */
    static final String REPLY = "{\"thought\":\"recorded\",\"final_answer\":\"Recorded.\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Prompt tokens of one suite's questions. */
    record Result(String suite, int questions, int median, int p95, int max) { }

    private final Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    /** Asks every question of {@code suite} through a Sift that {@code sift} builds around the recording model. */
    Result run(Suite suite, Dataset ds, Function<LlmClient, Sift> sift) throws Exception {
        List<Integer> tokens = Collections.synchronizedList(new ArrayList<>());
        ScriptedLlm recorder = new ScriptedLlm(request -> {
            tokens.add(tokens(request));
            return REPLY;
        });
        Sift s = sift.apply(recorder);
        List<Integer> perQuestion = new ArrayList<>();
        for (Suite.Item item : suite.items()) {
            int before = tokens.size();
            s.ask(item.question(), ds, AgentConfig.defaults());
            perQuestion.add(tokens.size() > before ? tokens.get(before) : 0);
        }
        List<Integer> sorted = new ArrayList<>(perQuestion);
        Collections.sort(sorted);
        return new Result(suite.name(), sorted.size(), percentile(sorted, 50), percentile(sorted, 95),
                sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1));
    }

    /** The request's text as the model reads it: every message, and the tool definitions when there are any. */
    int tokens(LlmRequest request) {
        int n = 0;
        for (LlmMessage m : request.messages()) {
            n += encoding.countTokens(m.content());
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
        out.printf("%-8s %-6s %4d questions  median %,6d  p95 %,6d  max %,6d prompt tokens%n", r.suite(), mode,
                r.questions(), r.median(), r.p95(), r.max());
    }
}
