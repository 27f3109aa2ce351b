package dev.sift.agent;

import java.util.List;

/**
 * Which tools a model planner was shown for a run and why ({@code core}, a retrieval match, or a small
 * catalogue shown whole), out of a catalogue of {@code catalogue} tools; {@code hidden} were left out of the
 * prompt but stay callable.
 */
public record ToolsShown(int catalogue, List<Shown> shown, List<String> hidden) {

    /** One tool in the prompt and the reason it is there. */
    public record Shown(String tool, String why) { }

    public List<String> names() {
        return shown.stream().map(Shown::tool).toList();
    }
}
