package dev.sift.data.engine;

import org.apache.spark.sql.classic.SparkSession;

import java.nio.file.Path;

/** Spark in this process: the session a dataset's copy or a test runs on, and the set-up every session needs first. */
public final class LocalSpark {
    private LocalSpark() { }

    /**
     * A session on {@code local[1]}: no web UI or metrics servlet, bound to the loopback address, one shuffle
     * partition, managed tables under {@code warehouse}.
     */
    public static SparkSession session(String appName, Path warehouse) {
        initLogging();
        return SparkSession.builder().master("local[1]").appName(appName)
                .config("spark.ui.enabled", "false")
                .config("spark.metrics.conf.*.sink.servlet.class", NoMetricsServlet.class.getName())
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "1")
                .config("spark.sql.warehouse.dir", warehouse.toString())
                .getOrCreate();
    }

    /**
     * Log4j initialises once per process; a cancelled task interrupted inside that first initialisation would leave it
     * broken for every later task, so it is done before any task runs, on a thread nobody interrupts.
     */
    static void initLogging() {
        try {
            Class.forName("org.apache.logging.log4j.ThreadContext", true, SparkEngine.class.getClassLoader());
        } catch (ClassNotFoundException ignored) {
            // Spark without Log4j: nothing to initialise
        }
    }
}
