package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.SiftConfig;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClients;
import dev.sift.llm.LlmConfig;

/** Builds {@link Sift} from the configuration for a command. */
public final class Runtime {
    private Runtime() { }

    /** The configuration from the environment (read here, when a command starts). */
    public static SiftConfig config() {
        return SiftConfig.fromEnv();
    }

    public static Sift sift() {
        return new Sift(config(), LlmClients.fromConfig(LlmConfig.fromEnv()).orElse(null), Workspace.Limits.defaults());
    }

    public static Sift offline() {
        return new Sift(config(), null, Workspace.Limits.defaults());
    }
}
