package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.SiftConfig;
import dev.sift.agent.grounding.Grounding;
import dev.sift.agent.grounding.Judge;
import dev.sift.agent.grounding.JudgeConfig;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmClients;
import dev.sift.llm.LlmConfig;
import dev.sift.llm.MeteredLlm;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/** Builds {@link Sift} from the configuration for a command. */
public final class Runtime {
    private static final Logger LOG = LoggerFactory.getLogger(Runtime.class);

    private Runtime() { }

    /** The configuration: the environment over {@code $SIFT_HOME/sift.yaml} (read here, when a command starts). */
    public static SiftConfig config() {
        return SiftConfig.fromEnv();
    }

    public static Sift sift() {
        return sift(config());
    }

    /** The planner's model and the judge's (its own, or the planner's), both metered, from {@code settings}. */
    public static Sift sift(SiftConfig settings) {
        LlmConfig config = settings.llm();
        JudgeConfig judging = settings.judging();
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        LlmClient llm = LlmClients.fromConfig(config).map(c -> metered(c, meters, config, "planner")).orElse(null);
        Judge judge = null;
        if (judging.sampleRate() > 0) {
            LlmClient judgeLlm = judging.llm() == null ? llm
                    : LlmClients.fromConfig(judging.llm()).map(c -> metered(c, meters, judging.llm(), "judge")).orElse(null);
            judge = judgeLlm == null ? null : new Judge(judgeLlm, judging.maxEvidenceChars());
        }
        Grounding grounding = judge == null ? Grounding.CHECK_ONLY : new Grounding(judging, judge);
        LOG.info("Groundedness: {}", judge == null ? "answer check, judge off" : "answer check, " + judging.describe());
        return new Sift(settings, llm, settings.limits(), grounding, meters);
    }

    private static LlmClient metered(LlmClient c, PrometheusMeterRegistry meters, LlmConfig config, String role) {
        return new MeteredLlm(c, meters, config.provider(), role);
    }

    public static Sift offline() {
        SiftConfig config = config();
        return new Sift(config, null, config.limits(), Grounding.CHECK_ONLY,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
}
