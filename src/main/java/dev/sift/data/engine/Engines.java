package dev.sift.data.engine;

import dev.sift.data.Dataset;
import dev.sift.data.LiveEngine;
import dev.sift.data.Workspace;

import java.util.Map;
import java.util.Optional;

/**
 * Opens the engine a URL names. Spark's classes are loaded only for a Spark URL, and a jar built without
 * them says how to get them instead of failing with a missing class.
 */
public final class Engines implements LiveEngine.Connector {
    static final String SPARK_MISSING = "Spark SQL is not in this build of Sift. Build the jar that bundles it with"
            + " 'mvn -Pspark -DskipTests package' (or put spark-sql_2.13 4.x on the classpath) and connect again.";
    static final String CONNECT_MISSING = "The Spark Connect client is not in this build of Sift. Build the jar that bundles"
            + " it with 'mvn -Pspark -DskipTests package' (or put spark-connect-client-jvm_2.13 4.x on the classpath) and"
            + " connect again.";

    /** For ServiceLoader. */
    public Engines() { }

    @Override
    public Optional<LiveEngine> open(Dataset dataset, Workspace.Limits limits, Map<String, String> env) {
        EngineFile file = EngineFile.read(dataset.file());
        return Optional.of(open(EngineUrl.parse(file.url()), file.options(), env, limits, file));
    }

    /** An engine for {@code url}; {@code file} is its cached schema, or null while connecting. */
    static CatalogEngine open(EngineUrl url, Map<String, String> options, Map<String, String> env,
                              Workspace.Limits limits, EngineFile file) {
        CatalogEngine engine = switch (url.kind()) {
            case POSTGRESQL -> new PostgresEngine(url, options, env, limits);
            case SPARK -> {
                if (!sparkPresent()) {
                    throw new IllegalArgumentException(SPARK_MISSING);
                }
                yield SparkEngines.open(url, options, limits);
            }
            case SPARK_CONNECT -> {
                if (!present("org.apache.spark.sql.connect.SparkSession")) {
                    throw new IllegalArgumentException(CONNECT_MISSING);
                }
                yield SparkEngines.connect(url, options, env, limits);
            }
        };
        return engine.attach(file);
    }

    static boolean sparkPresent() {
        return present("org.apache.spark.sql.SparkSession");
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, Engines.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
