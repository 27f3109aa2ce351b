package dev.sift.session;

import java.util.List;

/**
 * A turn made explicit for the planner: its kind, the question to run (references replaced by what they
 * stand for), each reference as "'those' → …", and who resolved it ({@code rules} or {@code model}). A turn of kind
 * {@link TurnKind#SAME} names the turn it repeats ({@code sameAs}, else 0); one of kind {@link TurnKind#AMBIGUOUS}
 * carries the stand-alone questions it could be ({@code readings}), which the person is asked to choose from; one of kind
 * {@link TurnKind#UNANCHORED} asks for the whole question.
 */
public record Resolution(TurnKind kind, String question, List<String> references, String resolvedBy, int sameAs,
                         List<String> readings) {
    public Resolution {
        references = List.copyOf(references);
        readings = List.copyOf(readings);
    }

    public Resolution(TurnKind kind, String question, List<String> references, String resolvedBy) {
        this(kind, question, references, resolvedBy, 0, List.of());
    }

    /** The question back for an ambiguous turn: each reading numbered, then which one. */
    public String askBack() {
        if (kind == TurnKind.UNANCHORED) {
            return "This reads as a follow-up, but no earlier question in this conversation was answered, so I cannot tell"
                    + " what it refers to. Ask the whole question in one message.";
        }
        StringBuilder b = new StringBuilder("Your question could lean on more than one earlier turn:");
        for (int i = 0; i < readings.size(); i++) {
            b.append(' ').append(i + 1).append(". ").append(readings.get(i));
        }
        return b.append(" Which one do you mean?").toString();
    }
}
