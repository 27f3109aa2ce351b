package dev.sift.tool;

import java.util.Set;

/** What the planner is told about a tool; {@code args} is the record its JSON arguments bind to. */
public record ToolSpec(String name, String description, Class<? extends Record> args, String returns,
                       Set<String> groups) { }
