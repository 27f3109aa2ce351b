package dev.sift.planner.rules;

import java.util.List;

/**
 * What {@link SpecParser} makes of a question: a query spec, the words it could not map, or the reason it cannot
 * build one. Each carries the readings made so far, which the answer or the question back states.
 */
public sealed interface Parse {
    /** How the question's phrases were read ("'customers' → table client"). */
    List<String> readings();

    /**
     * A spec to build, with its readings and the question's tokens as read: an aggregate word of the turn before that a
     * follow-up replaced ("the maximum instead" after "the average …") is left out of {@code toks}.
     */
    record Parsed(QuerySpec spec, List<String> readings, List<Tok> toks) implements Parse { }

    /** Words of the question that nothing in the dataset's knowledge or the vocabulary names. */
    record Unmapped(List<String> words, List<String> readings) implements Parse { }

    /** Every word was read, but the question is ambiguous or asks for a shape that is not built. */
    record Problem(String reason, List<String> readings) implements Parse { }
}
