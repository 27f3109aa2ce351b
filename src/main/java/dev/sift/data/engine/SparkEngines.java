package dev.sift.data.engine;

import dev.sift.data.Workspace;

import java.util.Map;

/** The one place that names {@link SparkEngine} and {@link ConnectEngine}, so Spark's classes load only for a Spark URL. */
final class SparkEngines {
    private SparkEngines() { }

    static CatalogEngine open(EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        return new SparkEngine(url, options, limits);
    }

    static CatalogEngine connect(EngineUrl url, Map<String, String> options, Map<String, String> env, Workspace.Limits limits) {
        return new ConnectEngine(url, options, env, limits);
    }
}
