package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Objects;

/**
 * A tool offered to a model through its provider's native function calling: a name, what it does, and the JSON
 * Schema of its arguments (an object schema whose properties are string, integer, number, boolean, string arrays
 * or free objects).
 */
public record ToolDefinition(String name, String description, JsonNode parameters) {
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
    }
}
