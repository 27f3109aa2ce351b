package dev.sift.llm;

import java.util.Locale;

/**
 * How the planner's model calls tools ({@code SIFT_LLM_TOOLS}): {@link #JSON} asks for one JSON object per reply
 * and works with every chat endpoint; {@link #NATIVE} sends the tools' schemas in the provider's own tool-calling
 * fields (OpenAI-compatible {@code tools}/{@code tool_calls}, Anthropic {@code tool_use}/{@code tool_result}, Gemini
 * {@code functionDeclarations}/{@code functionCall}).
 */
public enum ToolCalling {
    JSON, NATIVE;

    public static final ToolCalling DEFAULT = JSON;

    /** The setting's value ({@code native} or {@code json}, any case); null gives {@link #DEFAULT}. */
    public static ToolCalling parse(String raw) {
        if (raw == null) {
            return DEFAULT;
        }
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "json" -> JSON;
            case "native" -> NATIVE;
            default -> throw new IllegalArgumentException("SIFT_LLM_TOOLS='" + raw + "' is not one of native|json");
        };
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
