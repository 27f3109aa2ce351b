package dev.sift.agent;

import java.util.List;

/**
 * What a run knows about the conversation it is a turn of, handed to the planner explicitly: how the turn
 * was classified ({@code new}, {@code refine}, {@code abandon}), the question as asked (the run's own
 * question is the resolved one), each resolved reference ("'those' → the cards counted in turn 1") and a
 * line per earlier turn; {@code askedBefore} holds the own words of the earlier follow-ups its question was built
 * from, oldest first ("and in Puerto Rico?" before "what's their average magnitude?").
 */
public record TurnContext(String turn, String asked, List<String> references, List<String> earlierTurns, List<String> askedBefore) {
    public static final TurnContext NONE = new TurnContext("new", null, List.of(), List.of());

    public TurnContext {
        references = List.copyOf(references);
        earlierTurns = List.copyOf(earlierTurns);
        askedBefore = List.copyOf(askedBefore);
    }

    /** A turn that continues no earlier follow-up. */
    public TurnContext(String turn, String asked, List<String> references, List<String> earlierTurns) {
        this(turn, asked, references, earlierTurns, List.of());
    }

    /**
     * The person's own words of each follow-up this turn's resolved question carries, oldest first, this turn's last
     * ({@code askedBefore} then {@code asked}); empty for a turn that is no follow-up.
     */
    public List<String> followUps() {
        if (!"refine".equals(turn) || asked == null) {
            return List.of();
        }
        List<String> out = new java.util.ArrayList<>(askedBefore);
        out.add(asked);
        return out;
    }

    public boolean isEmpty() {
        return references.isEmpty() && earlierTurns.isEmpty();
    }

    /** The block a model planner sees before the question. */
    public String render() {
        StringBuilder b = new StringBuilder("Earlier in this conversation:\n");
        earlierTurns.forEach(t -> b.append("- ").append(t).append('\n'));
        b.append("This turn is a ").append(turn).append(" question");
        if (asked != null) {
            b.append("; the person wrote: \"").append(asked).append('"');
        }
        b.append(".\n");
        if (!references.isEmpty()) {
            b.append("References resolved:\n");
            references.forEach(r -> b.append("- ").append(r).append('\n'));
        }
        return b.toString();
    }
}
