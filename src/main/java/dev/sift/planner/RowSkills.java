package dev.sift.planner;

import dev.sift.planner.llm.ToolGroups;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The skills beyond SQL that the offline planner does not plan (labelling or extracting from rows' text, matching
 * records, significance tests), read from the tool groups a question wants ({@code prompts/tool_groups.yaml}), so an
 * offline answer can say plainly which one a question needs and that a model or a direct tool call is the way.
 */
final class RowSkills {
    /** What each group does, as an answer says it. */
    private static final Map<String, String> WHAT = Map.of("labelling", "labels or values read from each row's free text",
            "matching", "matching records that share no key (a fuzzy join)", "statistics", "a significance test");

    /** A skill the question needs: what it is and its tools. */
    record Need(String what, String phrase, List<String> tools) { }

    private final ToolGroups groups;

    RowSkills(ToolGroups groups) {
        this.groups = groups;
    }

    /**
     * The skill a question needs, by its groups' phrases; {@code certain} keeps only phrases of several words ("chi
     * square", "independent of", "spelled differently"), which name the skill whatever the data (a single word such as
     * "significance" may be a column's name).
     */
    Optional<Need> of(String question, boolean certain) {
        for (ToolGroups.Group g : groups.groups()) {
            if (!WHAT.containsKey(g.name())) {
                continue;
            }
            Optional<String> p = g.when().stream().filter(w -> !certain || w.contains(" "))
                    .filter(w -> new ToolGroups.Group(g.name(), g.tools(), List.of(w), g.rule()).wantedBy(question).isPresent())
                    .findFirst();
            if (p.isPresent()) {
                return Optional.of(new Need(WHAT.get(g.name()), p.get(), g.tools()));
            }
        }
        return Optional.empty();
    }
}
