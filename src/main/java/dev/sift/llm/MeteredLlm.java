package dev.sift.llm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Counts what a model costs: latency (a histogram), calls, tokens and errors by error kind, labelled by
 * provider ({@code openai}, {@code anthropic}) and role ({@code planner}, {@code judge}). Both labels come
 * from the configuration, never from a reply, so the series stay few.
 */
public final class MeteredLlm implements LlmClient {
    /** Latency buckets: a cached reply to a slow model. */
    static final Duration[] BUCKETS = {Duration.ofMillis(50), Duration.ofMillis(250), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(60), Duration.ofSeconds(120)};

    private final LlmClient inner;
    private final MeterRegistry registry;
    private final String provider;
    private final String role;
    private final Timer latency;
    private final Counter input;
    private final Counter output;
    private final Counter promptCached;

    public MeteredLlm(LlmClient inner, MeterRegistry registry, String provider, String role) {
        this.inner = inner;
        this.registry = registry;
        this.provider = provider;
        this.role = role;
        this.latency = Timer.builder("sift.llm.latency").description("Language model call latency")
                .tags("provider", provider, "role", role).serviceLevelObjectives(BUCKETS).register(registry);
        this.input = tokens("input");
        this.output = tokens("output");
        this.promptCached = tokens("prompt_cached");
    }

    private Counter tokens(String kind) {
        return Counter.builder("sift.llm.tokens").description("Language model tokens, by kind")
                .tags("provider", provider, "role", role, "kind", kind).register(registry);
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        long t0 = System.nanoTime();
        try {
            LlmResponse r = inner.complete(request);
            input.increment(r.inputTokens());
            output.increment(r.outputTokens());
            promptCached.increment(r.cachedTokens()); // of the input tokens, those the provider's prompt cache held
            calls(r.cached() ? "cached" : "ok").increment();
            return r;
        } catch (LlmException e) {
            calls("error").increment();
            Counter.builder("sift.llm.errors").description("Language model calls that failed, by kind")
                    .tags("provider", provider, "role", role, "kind", e.kind().name().toLowerCase(Locale.ROOT))
                    .register(registry).increment();
            throw e;
        } finally {
            latency.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        }
    }

    private Counter calls(String outcome) {
        return Counter.builder("sift.llm.calls").description("Language model calls, by outcome")
                .tags("provider", provider, "role", role, "outcome", outcome).register(registry);
    }

    @Override
    public String describe() {
        return inner.describe();
    }
}
