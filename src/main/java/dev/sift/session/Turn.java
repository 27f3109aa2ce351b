package dev.sift.session;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * One question and its answer in a session. {@code asked} is what the person wrote; {@code question} is
 * what the planner got after references were resolved; {@code result} is the run's JSON (the same object
 * {@code sift ask --json} prints, plus charts), so a session reopened after a restart shows everything.
 */
public record Turn(int index, String asked, String question, TurnKind kind, List<String> references,
                   String resolvedBy, String subject, String runId, String answer, String answerKind, String status,
                   List<String> frames, JsonNode result, String at, long millis) {

    public Turn {
        references = references == null ? List.of() : List.copyOf(references);
        frames = frames == null ? List.of() : List.copyOf(frames);
        result = result == null || result.isNull() ? null : result;
    }
}
