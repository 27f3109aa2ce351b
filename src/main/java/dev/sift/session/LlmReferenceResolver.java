package dev.sift.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.TableInfo;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.PromptTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Resolves a turn with the configured model (prompt {@code prompts/resolve_turn.md}), falling back to the
 * rules when the model fails or replies with something unusable. The first turn of a thread-less session
 * never costs a model call.
 */
public final class LlmReferenceResolver implements ReferenceResolver {
    private static final Logger LOG = LoggerFactory.getLogger(LlmReferenceResolver.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LlmClient llm;
    private final ReferenceResolver fallback;

    public LlmReferenceResolver(LlmClient llm, ReferenceResolver fallback) {
        this.llm = llm;
        this.fallback = fallback;
    }

    @Override
    public Resolution resolve(String question, List<Turn> thread, List<TableInfo> tables) {
        Resolution rules = fallback.resolve(question, thread, tables);
        if (thread.isEmpty()) {
            return rules;
        }
        StringBuilder turns = new StringBuilder();
        for (Turn t : thread) {
            String first = t.answer() == null ? "" : t.answer().lines().findFirst().orElse("");
            turns.append(t.index()).append(". ").append(t.question()).append(" → ").append(first).append('\n');
        }
        String prompt = PromptTemplate.load("resolve_turn").render(Map.of(
                "tables", String.join(", ", tables.stream().map(TableInfo::name).toList()),
                "turns", turns.toString().trim(), "question", question));
        try {
            String reply = llm.complete(LlmRequest.of(LlmMessage.user(prompt)).withMaxTokens(400)).text();
            String json = reply.substring(reply.indexOf('{'), reply.lastIndexOf('}') + 1);
            JsonNode n = JSON.readTree(json);
            TurnKind kind = TurnKind.parse(n.path("turn").asText());
            String q = n.path("question").asText("").trim();
            if (q.isEmpty() && kind != TurnKind.ABANDON && kind != TurnKind.AMBIGUOUS) {
                throw new IllegalArgumentException("empty question");
            }
            List<String> refs = new ArrayList<>();
            n.path("references").forEach(r -> refs.add(r.asText()));
            List<String> readings = new ArrayList<>();
            n.path("readings").forEach(r -> readings.add(r.asText().trim()));
            readings.removeIf(String::isEmpty);
            int sameAs = n.path("same_as").asInt(0);
            if (kind == TurnKind.AMBIGUOUS && readings.size() < 2) {
                throw new IllegalArgumentException("an ambiguous turn needs two readings or more, got " + readings.size());
            }
            if (kind == TurnKind.SAME && thread.stream().noneMatch(t -> t.index() == sameAs)) {
                throw new IllegalArgumentException("same_as " + sameAs + " is no earlier turn");
            }
            if (kind == TurnKind.AMBIGUOUS) { // kept with the turn, so a reply can pick one (ClarificationReply)
                for (int i = 0; i < readings.size(); i++) {
                    refs.add(ClarificationReply.READING + (i + 1) + ": " + readings.get(i));
                }
            }
            return new Resolution(kind, kind == TurnKind.AMBIGUOUS ? question : q, refs, "model",
                    kind == TurnKind.SAME ? sameAs : 0, kind == TurnKind.AMBIGUOUS ? readings : List.of());
        } catch (Exception e) {
            LOG.warn("Model could not resolve the turn ({}); using the rules", e.getMessage());
            return rules;
        }
    }
}
