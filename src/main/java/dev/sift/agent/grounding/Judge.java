package dev.sift.agent.grounding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.Clip;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;
import dev.sift.llm.PromptTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A second model that scores an answer against its evidence (prompt {@code prompts/judge.md}). Whatever goes
 * wrong — the endpoint errs or stalls past its timeout, the reply is not a verdict — is a
 * {@link JudgeException}: the run is then {@code failed}, never quietly left out of the count.
 */
public final class Judge {
    static final int MAX_TOKENS = 400;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmClient llm;
    private final int maxEvidenceChars;
    private final PromptTemplate prompt = PromptTemplate.load("judge");

    public Judge(LlmClient llm, int maxEvidenceChars) {
        this.llm = llm;
        this.maxEvidenceChars = maxEvidenceChars;
    }

    /** Why there is no verdict; the message is one line for the answer's notes. */
    public static final class JudgeException extends Exception {
        public JudgeException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Which model judges, for traces. */
    public String model() {
        return llm.describe();
    }

    public Verdict judge(String question, String evidence, String answer) throws JudgeException {
        String shown = evidence.length() <= maxEvidenceChars ? evidence
                : Clip.words(evidence, maxEvidenceChars) + "\n(evidence cut at " + maxEvidenceChars + " characters)";
        String text = prompt.render(Map.of("question", question, "evidence", shown.isBlank() ? "(no results)" : shown,
                "answer", answer));
        LlmResponse r;
        try {
            r = llm.complete(new LlmRequest(List.of(LlmMessage.user(text)), 0.0, MAX_TOKENS, false));
        } catch (LlmException e) {
            throw new JudgeException("The judge could not be reached: " + e.getMessage(), e);
        }
        return parse(r.text(), llm.describe());
    }

    static Verdict parse(String reply, String model) throws JudgeException {
        String s = reply == null ? "" : reply.trim();
        int from = s.indexOf('{');
        int to = s.lastIndexOf('}');
        JsonNode node = null;
        if (from >= 0 && to > from) {
            try {
                node = JSON.readTree(s.substring(from, to + 1));
            } catch (Exception e) {
                node = null;
            }
        }
        String verdict = node == null ? null : node.path("verdict").asText("").trim().toLowerCase(java.util.Locale.ROOT);
        if (node == null || !Verdict.VERDICTS.contains(verdict)) {
            throw new JudgeException("The judge's reply is not a verdict (expected {\"verdict\": \"grounded\"|\"partly\""
                    + "|\"ungrounded\", …}): " + abbreviate(s), null);
        }
        List<String> unsupported = new ArrayList<>();
        node.path("unsupported").forEach(n -> unsupported.add(n.isValueNode() ? n.asText() : n.toString()));
        JsonNode reasons = node.path("reasons");
        String why = reasons.isArray() ? String.join(" ", toList(reasons)) : reasons.asText("");
        return new Verdict(verdict, unsupported, why, model);
    }

    private static List<String> toList(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.isEmpty() ? "(empty)" : one.length() > 160 ? one.substring(0, 160) + "…" : one;
    }
}
