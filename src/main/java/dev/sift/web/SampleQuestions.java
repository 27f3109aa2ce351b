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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Sample questions for a dataset's chips: a curated list ({@code /samples/<dataset>.txt}) when there is one, otherwise
 * questions written from the dataset's own tables, columns and values ({@link SampleCandidates}). Each candidate is
 * asked offline before it is offered and kept only when it gets an answer (not a question back or a refusal), so every
 * chip answers and the set grows as the offline planner reads more; of a chip's phrasings the first answered is
 * kept. The list is kept with the dataset's knowledge (its fingerprint and knowledge file), so the app asks once per
 * dataset and process, and an edited knowledge file makes a new one.
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
            return k.derived(Offered.class, kk -> new Offered(answering(sift, ws, candidates(d, kk, ws)))).questions();
        }
    }

    private static List<SampleCandidates.Chip> candidates(Dataset d, Knowledge k, Workspace ws) {
        try (InputStream in = SampleQuestions.class.getResourceAsStream("/samples/" + d.name() + ".txt")) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                        .map(q -> new SampleCandidates.Chip("curated", List.of(q))).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return SampleCandidates.of(k.graph(), ws);
    }

    /** Of each chip the first phrasing the offline planner answers, at most {@link #MAX} chips, none twice. */
    private static List<String> answering(Sift sift, Workspace ws, List<SampleCandidates.Chip> chips) {
        Set<String> out = new LinkedHashSet<>();
        for (SampleCandidates.Chip chip : chips) {
            if (out.size() >= MAX) {
                break;
            }
            for (String q : chip.phrasings()) {
                if (out.contains(q)) {
                    break;
                }
                try {
                    if (sift.askOffline(q, ws).kind() == AnswerKind.ANSWER) {
                        out.add(q);
                        break;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return List.copyOf(out);
                } catch (Exception e) {
                    throw new IllegalStateException("Sample question '" + q + "' failed on dataset " + ws.dataset().name(), e);
                }
            }
        }
        return List.copyOf(out);
    }
}
