package dev.sift.planner.llm;

import dev.sift.knowledge.Knowledge;

/**
 * The dataset's facts in the prompt (keys, approved joins with their formats, candidate key pairs with their match
 * share; {@link SchemaKeys#facts}), made once per dataset's knowledge and kept with it, so every request on the
 * dataset states them in the same words: a fact that decides a join or a de-duplication never depends on the
 * question, and the prompt's stable prefix stays byte-identical for providers' prompt caches.
 */
public record DatasetFacts(String text) {
    /** Characters of facts in the prompt; query_kg section=join lists what a larger dataset leaves out. */
    public static final int BUDGET = 3000;

    /** The facts of {@code k}'s dataset, made on first use; empty text when there is no knowledge. */
    public static DatasetFacts of(Knowledge k) {
        return k == null ? new DatasetFacts("") : k.derived(DatasetFacts.class,
                x -> new DatasetFacts(SchemaKeys.facts(x.graph(), BUDGET)));
    }
}
