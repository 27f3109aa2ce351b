package dev.sift.data.engine;

import org.apache.spark.sql.classic.SparkSession;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark in this process: the session a dataset's copy or a test runs on, and the set-up every session needs first. */
public final class LocalSpark {
    /** The address every Spark process Sift starts for itself listens on and advertises. */
    public static final String LOOPBACK = "127.0.0.1";
    private static final Pattern MASTER_HOST = Pattern.compile("spark://([^:/,]+)(:\\d+)?/?");

    private LocalSpark() { }

    /**
     * A session on {@code local[1]}: no web UI or metrics servlet, bound to the loopback address, one shuffle
     * partition, managed tables under {@code warehouse}.
     */
    public static SparkSession session(String appName, Path warehouse) {
        return session("local[1]", appName, warehouse, java.util.Map.of("spark.sql.shuffle.partitions", "1"));
    }

    /** As above on {@code master} (here or a standalone master on loopback), with {@code conf} on top. */
    public static SparkSession session(String master, String appName, Path warehouse, java.util.Map<String, String> conf) {
        initLogging();
        SparkSession.Builder b = loopback(SparkSession.builder().master(master).appName(appName)
                .config("spark.ui.enabled", "false")
                .config("spark.metrics.conf.*.sink.servlet.class", NoMetricsServlet.class.getName())
                .config("spark.sql.warehouse.dir", warehouse.toString()));
        conf.forEach(b::config);
        return b.getOrCreate();
    }

    /**
     * Binds the driver to the loopback address and names this host by it. Spark otherwise looks for a
     * non-loopback interface to advertise (and warns "resolves to a loopback address … using 192.0.2.2 instead");
     * the host name is process-wide, so only for masters that are in this process or on this host.
     */
    static SparkSession.Builder loopback(SparkSession.Builder builder) {
        org.apache.spark.util.Utils.setCustomHostname(LOOPBACK);
        return builder.config("spark.driver.host", LOOPBACK).config("spark.driver.bindAddress", LOOPBACK);
    }

    /** Whether {@code master} runs here: {@code local[…]}, or a standalone master on the loopback address. */
    static boolean onThisHost(String master) {
        if (master.startsWith("local")) {
            return true;
        }
        Matcher m = MASTER_HOST.matcher(master);
        return m.matches() && (m.group(1).equals(LOOPBACK) || m.group(1).equals("localhost"));
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
