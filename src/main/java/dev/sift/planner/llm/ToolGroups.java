package dev.sift.planner.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sift.knowledge.Phrases;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The groups a model planner's tools are shown in (resource {@code prompts/tool_groups.yaml}): a group is shown
 * whole or not at all, so {@code predict} never appears without {@code train_model}, and its rule is in the
 * prompt exactly when the group is shown. A group is wanted by a question that uses one of its {@code when}
 * phrases. A tool in no group stands alone, without a rule.
 */
public final class ToolGroups {
    /**
     * One group: its name, its tools, the phrases of a question that want it (none: only a planner's own request
     * shows it), and the rule shown with it (null when it has none).
     */
    public record Group(String name, List<String> tools, List<String> when, String rule) {
        public Group {
            tools = List.copyOf(tools);
            when = when == null ? List.of() : List.copyOf(when);
            rule = rule == null || rule.isBlank() ? null : rule.strip();
        }

        /** A group no question's words call for. */
        public Group(String name, List<String> tools, String rule) {
            this(name, tools, List.of(), rule);
        }

        /** The first of its phrases {@code question} uses, compared as the knowledge graph compares words. */
        public Optional<String> wantedBy(String question) {
            String q = " " + Phrases.key(question) + " ";
            return when.stream().filter(p -> q.contains(" " + Phrases.key(p) + " ")).findFirst();
        }
    }

    private static final String RESOURCE = "/prompts/tool_groups.yaml";

    /** The bundled groups: immutable, so read once when the class loads, like the bundled vocabularies. */
    private static final ToolGroups BUNDLED = read();

    private final List<Group> groups;

    private ToolGroups(List<Group> groups) {
        this.groups = List.copyOf(groups);
    }

    /** The bundled groups. */
    public static ToolGroups load() {
        return BUNDLED;
    }

    private static ToolGroups read() {
        try (InputStream in = ToolGroups.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + RESOURCE + " is missing");
            }
            Group[] read = new ObjectMapper(new YAMLFactory()).readValue(in, Group[].class);
            return of(List.of(read));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Groups as given; a tool may belong to one group only. */
    public static ToolGroups of(List<Group> groups) {
        List<String> seen = new ArrayList<>();
        for (Group g : groups) {
            for (String t : g.tools()) {
                if (seen.contains(t)) {
                    throw new IllegalStateException("Tool " + t + " is in two groups of " + RESOURCE);
                }
                seen.add(t);
            }
        }
        return new ToolGroups(groups);
    }

    public List<Group> groups() {
        return groups;
    }

    /** The group of {@code tool}, if it is in one. */
    public Optional<Group> groupOf(String tool) {
        return groups.stream().filter(g -> g.tools().contains(tool)).findFirst();
    }

    /** {@code tool} and the others of its group that {@code registered} has, in group order. */
    public List<String> withGroup(String tool, Collection<String> registered) {
        return groupOf(tool).map(g -> g.tools().stream().filter(registered::contains).toList()).orElse(List.of(tool));
    }

    /**
     * The rules of the groups that are shown whole: every tool of the group registered and shown. A group with a
     * tool missing from the registry never shows its rule, which would name a tool the model cannot see.
     */
    public List<String> rules(Collection<String> shown) {
        List<String> out = new ArrayList<>();
        for (Group g : groups) {
            if (g.rule() != null && shown.containsAll(g.tools())) {
                out.add(g.rule());
            }
        }
        return out;
    }
}
