package dev.sift.web;

import dev.sift.Sift;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Sample questions for a dataset's chips: a curated list ({@code /samples/<dataset>.txt}) when there is one, otherwise
 * questions written from the dataset's own names ({@link dev.sift.planner.rules.SampleQuestions}). Each is answered
 * offline before it is offered, so every chip answers; the list is kept with the dataset's knowledge (an edited
 * knowledge file makes a new one).
 */
final class SampleQuestions {
    /** Chips the app shows at most. */
    static final int MAX = 6;

    /** What was offered for one dataset's knowledge. */
    private record Offered(List<String> questions) { }

    private SampleQuestions() { }

    static List<String> of(Sift sift, Dataset d) throws Exception {
        try (Workspace ws = sift.open(d)) {
            Knowledge k = sift.knowledge().of(ws);
            return k.derived(Offered.class, kk -> new Offered(answering(sift, ws, candidates(d, kk)))).questions();
        }
    }

    private static List<String> candidates(Dataset d, Knowledge k) {
        try (InputStream in = SampleQuestions.class.getResourceAsStream("/samples/" + d.name() + ".txt")) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dev.sift.planner.rules.SampleQuestions.candidates(k.graph());
    }

    /** The candidates the offline planner answers (an answer, not a clarification or refusal), at most {@link #MAX}. */
    private static List<String> answering(Sift sift, Workspace ws, List<String> candidates) {
        List<String> out = new ArrayList<>();
        for (String q : candidates) {
            if (out.size() >= MAX) {
                break;
            }
            try {
                if (sift.askOffline(q, ws).kind() == AnswerKind.ANSWER) {
                    out.add(q);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) {
                throw new IllegalStateException("Sample question '" + q + "' failed on dataset " + ws.dataset().name(), e);
            }
        }
        return List.copyOf(out);
    }
}
