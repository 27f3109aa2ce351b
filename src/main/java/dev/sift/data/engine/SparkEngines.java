package dev.sift.data.engine;

import dev.sift.data.LiveEngine;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;

import java.util.Map;

/** The one place that touches {@link SparkEngine}, so Spark's classes load only for a Spark URL. */
final class SparkEngines {
    private SparkEngines() { }

    static LiveEngine open(EngineUrl url, Map<String, String> options, Workspace.Limits limits, EngineFile file) {
        SparkEngine engine = new SparkEngine(url, options, limits);
        engine.attach(file);
        return engine;
    }

    static EngineFile describe(LiveEngine engine, EngineUrl url) throws QueryException {
        return ((SparkEngine) engine).describe(url.stored());
    }

    static void attach(LiveEngine engine, EngineFile file) {
        ((SparkEngine) engine).attach(file);
    }
}
