package dev.sift.planner;

import dev.sift.knowledge.Phrases;
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

    /** Each skill's group and its phrases with their comparable keys, worked out once. */
    private record Skill(ToolGroups.Group group, List<String> phrases, List<String> keys) { }

    private final List<Skill> skills;

    RowSkills(ToolGroups groups) {
        this.skills = groups.groups().stream().filter(g -> WHAT.containsKey(g.name()))
                .map(g -> new Skill(g, g.when(), g.when().stream().map(Phrases::key).toList())).toList();
    }

    /**
     * The skill a question needs, by its groups' phrases; {@code certain} keeps only phrases of several words ("chi
     * square", "independent of", "spelled differently"), which name the skill whatever the data (a single word such as
     * "significance" may be a column's name).
     */
    Optional<Need> of(String question, boolean certain) {
        String q = " " + Phrases.key(question) + " ";
        for (Skill s : skills) {
            for (int i = 0; i < s.phrases().size(); i++) {
                String p = s.phrases().get(i);
                if ((!certain || p.contains(" ")) && q.contains(" " + s.keys().get(i) + " ")) {
                    return Optional.of(new Need(WHAT.get(s.group().name()), p, s.group().tools()));
                }
            }
        }
        return Optional.empty();
    }
}
