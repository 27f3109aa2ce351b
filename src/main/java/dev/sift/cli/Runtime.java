package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClients;
import dev.sift.llm.LlmConfig;

/** Builds {@link Sift} from the environment for a command. */
public final class Runtime {
    private Runtime() { }

    public static Sift sift() {
        LlmConfig config = LlmConfig.fromEnv();
        return new Sift(DatasetStore.siftHome(), LlmClients.fromConfig(config).orElse(null), Workspace.Limits.defaults());
    }

    public static Sift offline() {
        return new Sift(DatasetStore.siftHome(), null, Workspace.Limits.defaults());
    }
}
