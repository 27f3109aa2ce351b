package dev.sift.data.engine;

import dev.sift.data.Workspace;

import java.util.Map;

/** The one place that names {@link SparkEngine}, so Spark's classes load only for a Spark URL. */
final class SparkEngines {
    private SparkEngines() { }

    static CatalogEngine open(EngineUrl url, Map<String, String> options, Workspace.Limits limits) {
        return new SparkEngine(url, options, limits);
    }
}
