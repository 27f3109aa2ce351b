package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpClientBuilderLoader;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.googleai.GoogleAiGeminiTokenUsage;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Mapping between Sift's LLM types and LangChain4j, shared by the provider clients. */
final class LangChain4jSupport {

    private static final Logger log = LoggerFactory.getLogger(LangChain4jSupport.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EXCERPT_CHARS = 200;

    private LangChain4jSupport() {
    }

    /**
     * An HTTP client builder pinned to HTTP/1.1. The JDK client defaults to HTTP/2 and, on plain http://,
     * sends an "Upgrade: h2c" request that vLLM/uvicorn answers with 400 "Field required" (body dropped) and
     * LM Studio never answers at all. One-shot JSON calls gain nothing from HTTP/2.
     *
     * <p>langchain4j-http-client-jdk is only a runtime dependency of the provider modules, so its builder is
     * obtained through the SPI loader and configured reflectively. If that ever fails we keep the default
     * builder (HTTP/2 attempt) rather than break every call.
     */
    static HttpClientBuilder http11(Duration timeout) {
        HttpClientBuilder b = HttpClientBuilderLoader.loadHttpClientBuilder();
        try {
            Method m = b.getClass().getMethod("httpClientBuilder", HttpClient.Builder.class);
            m.invoke(b, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Could not pin the LLM HTTP client to HTTP/1.1 ({}); local servers may reject h2c upgrades",
                    e.toString());
        }
        b.connectTimeout(timeout);
        b.readTimeout(timeout);
        return b;
    }

    static List<ChatMessage> toChatMessages(List<LlmMessage> messages) {
        List<ChatMessage> out = new ArrayList<>(messages.size());
        for (LlmMessage m : messages) {
            out.add(switch (m.role()) {
                case SYSTEM -> SystemMessage.from(m.content());
                case USER -> UserMessage.from(m.content());
                case ASSISTANT -> m.call() == null ? AiMessage.from(m.content())
                        : AiMessage.from(m.content().isBlank() ? null : m.content(), List.of(request(m.call())));
                case TOOL -> ToolExecutionResultMessage.from(m.call().id(), m.call().name(), m.content());
            });
        }
        return out;
    }

    private static ToolExecutionRequest request(ToolCall call) {
        return ToolExecutionRequest.builder().id(call.id()).name(call.name())
                .arguments(call.arguments().isBlank() ? "{}" : call.arguments()).build();
    }

    /** The tools in LangChain4j's form, which each provider module writes in its own wire format. */
    static List<ToolSpecification> toolSpecifications(List<ToolDefinition> tools) {
        List<ToolSpecification> out = new ArrayList<>(tools.size());
        for (ToolDefinition t : tools) {
            out.add(ToolSpecification.builder().name(t.name()).description(t.description())
                    .parameters(objectSchema(t.parameters())).build());
        }
        return out;
    }

    private static JsonObjectSchema objectSchema(JsonNode schema) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        schema.path("properties").fields().forEachRemaining(p -> b.addProperty(p.getKey(), element(p.getValue())));
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) {
            b.required(required);
        }
        if (schema.has("additionalProperties")) {
            b.additionalProperties(schema.get("additionalProperties").asBoolean());
        }
        return b.build();
    }

    private static JsonSchemaElement element(JsonNode p) {
        String description = p.path("description").isTextual() ? p.get("description").asText() : null;
        return switch (p.path("type").asText()) {
            case "string" -> JsonStringSchema.builder().description(description).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "array" -> JsonArraySchema.builder().description(description).items(element(p.path("items"))).build();
            case "object" -> JsonObjectSchema.builder().description(description).build();
            default -> throw new IllegalArgumentException("Tool parameter type '" + p.path("type").asText()
                    + "' has no native form (string, integer, number, boolean, array or object)");
        };
    }

    static LlmResponse toResponse(ChatResponse r, String fallbackModel, long latencyMs) {
        AiMessage ai = r.aiMessage();
        String text = ai == null || ai.text() == null ? "" : ai.text();
        List<ToolCall> calls = new ArrayList<>();
        if (ai != null && ai.hasToolExecutionRequests()) {
            for (ToolExecutionRequest t : ai.toolExecutionRequests()) {
                calls.add(new ToolCall(t.id() == null ? "" : t.id(), t.name() == null ? "" : t.name(), t.arguments()));
            }
        }
        TokenUsage usage = r.tokenUsage();
        int in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        int out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        int cachedRead = 0;
        if (usage instanceof AnthropicTokenUsage a) {
            // Anthropic counts cache reads and writes apart from input_tokens; the prompt is all three
            cachedRead = orZero(a.cacheReadInputTokens());
            in += cachedRead + orZero(a.cacheCreationInputTokens());
        } else if (usage instanceof OpenAiTokenUsage o && o.inputTokensDetails() != null) {
            cachedRead = orZero(o.inputTokensDetails().cachedTokens()); // part of prompt_tokens
        } else if (usage instanceof GoogleAiGeminiTokenUsage g) {
            cachedRead = orZero(g.cachedContentTokenCount()); // part of promptTokenCount
        }
        String model = r.modelName() != null ? r.modelName() : fallbackModel;
        return new LlmResponse(text, in, out, model, latencyMs, false, calls, Math.min(cachedRead, in));
    }

    private static int orZero(Integer n) {
        return n == null ? 0 : n;
    }

    /**
     * Turns whatever LangChain4j threw into an {@link LlmException} with a user-facing message.
     * LangChain4j wraps transport errors differently per layer, so we walk the whole cause chain.
     */
    static LlmException translate(Throwable t, String endpoint, Duration timeout) { // endpoint: the client's label()
        HttpException http = find(t, HttpException.class);
        if (http != null) {
            return httpError(http.statusCode(), http.getMessage(), endpoint, t);
        }
        if (find(t, HttpTimeoutException.class) != null || find(t, SocketTimeoutException.class) != null
                || find(t, dev.langchain4j.exception.TimeoutException.class) != null
                || find(t, InterruptedIOException.class) != null) {
            return timeout(endpoint, timeout, t);
        }
        if (find(t, ConnectException.class) != null) {
            return new LlmException(LlmException.Kind.CONNECTION, -1,
                    "LLM " + endpoint + " refused the connection",
                    "Is the server running? Check SIFT_LLM_BASE_URL.", t);
        }
        if (find(t, UnknownHostException.class) != null || find(t, UnresolvedAddressException.class) != null
                || find(t, UnresolvedModelServerException.class) != null) {
            return new LlmException(LlmException.Kind.CONNECTION, -1,
                    "LLM " + endpoint + " has a host name that could not be resolved",
                    "Check SIFT_LLM_BASE_URL and your network/DNS.", t);
        }
        // Before the IOException catch-all: Jackson's parse errors are IOExceptions too.
        if (find(t, com.fasterxml.jackson.core.JsonProcessingException.class) != null) {
            return new LlmException(LlmException.Kind.BAD_RESPONSE, -1,
                    "LLM " + endpoint + " sent a response that is not valid JSON (" + rootMessage(t) + ")",
                    "Check that SIFT_LLM_BASE_URL points at the API root (usually ending in /v1).", t);
        }
        if (find(t, java.io.IOException.class) != null) {
            return new LlmException(LlmException.Kind.CONNECTION, -1,
                    "LLM " + endpoint + " could not be reached (" + rootMessage(t) + ")",
                    "Check SIFT_LLM_BASE_URL and your network.", t);
        }
        return new LlmException(LlmException.Kind.OTHER, -1,
                "LLM call to " + endpoint + " failed: " + rootMessage(t),
                "Check the SIFT_LLM_* settings.", t);
    }

    static LlmException timeout(String endpoint, Duration timeout, Throwable cause) {
        return new LlmException(LlmException.Kind.TIMEOUT, -1,
                "LLM " + endpoint + " did not answer within " + LlmConfig.formatSeconds(timeout),
                "Check SIFT_LLM_BASE_URL or raise SIFT_LLM_TIMEOUT_S.", cause);
    }

    static LlmException httpError(int status, String body, String endpoint, Throwable cause) {
        String detail = "HTTP " + status + excerptSuffix(body);
        String problem;
        String hint;
        if (status == 401 || status == 403) {
            problem = "LLM " + endpoint + " rejected the API key (" + detail + ")";
            hint = "Check SIFT_LLM_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY).";
        } else if (status == 404) {
            problem = "LLM " + endpoint + " does not know the path or model (" + detail + ")";
            hint = "Check SIFT_LLM_BASE_URL (usually ends in /v1) and SIFT_LLM_MODEL.";
        } else if (status == 429) {
            problem = "LLM " + endpoint + " is rate-limiting requests (" + detail + ")";
            hint = "Wait a little and retry, or raise SIFT_LLM_RETRIES.";
        } else if (status >= 500) {
            problem = "LLM " + endpoint + " had a server error (" + detail + ")";
            hint = "The provider is having trouble; retry later or raise SIFT_LLM_RETRIES.";
        } else {
            problem = "LLM " + endpoint + " rejected the request (" + detail + ")";
            hint = "Check SIFT_LLM_MODEL and that the endpoint speaks this provider's API.";
        }
        return new LlmException(LlmException.Kind.HTTP, status, problem, hint, cause);
    }

    /** ": <error.message or start of the body>" so users see the provider's own explanation. */
    static String excerptSuffix(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String text = body;
        try {
            JsonNode node = JSON.readTree(body);
            JsonNode msg = node.path("error").path("message"); // OpenAI and Anthropic both use error.message
            if (msg.isTextual() && !msg.asText().isBlank()) {
                text = msg.asText();
            } else if (node.path("error").isTextual()) { // Ollama / some proxies: {"error": "..."}
                text = node.path("error").asText();
            } else if (node.path("message").isTextual()) {
                text = node.path("message").asText();
            }
        } catch (Exception notJson) {
            // keep the raw body
        }
        text = text.replaceAll("\\s+", " ").trim();
        if (text.length() > EXCERPT_CHARS) {
            text = text.substring(0, EXCERPT_CHARS) + "…";
        }
        return text.isEmpty() ? "" : ": " + text;
    }

    static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() == null ? "" : root.getMessage().strip();
        int nl = msg.indexOf('\n'); // Jackson appends multi-line source excerpts; the first line says enough
        if (nl >= 0) {
            msg = msg.substring(0, nl).strip();
        }
        if (msg.length() > EXCERPT_CHARS) {
            msg = msg.substring(0, EXCERPT_CHARS) + "…";
        }
        return root.getClass().getSimpleName() + (msg.isEmpty() ? "" : ": " + msg);
    }
}
