package dev.sift.session;

import java.util.List;

/**
 * A turn made explicit for the planner: its kind, the question to run (references replaced by what they
 * stand for), each reference as "'those' → …", and who resolved it ({@code rules} or {@code model}).
 */
public record Resolution(TurnKind kind, String question, List<String> references, String resolvedBy) {
    public Resolution {
        references = List.copyOf(references);
    }
}
