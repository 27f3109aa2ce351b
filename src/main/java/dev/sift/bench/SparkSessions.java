package dev.sift.bench;

import dev.sift.data.engine.LocalSpark;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;
import java.util.Map;

/** The Spark sessions a parity copy is made through: this process's driver, or a Spark Connect client. */
final class SparkSessions {
    private SparkSessions() { }

    /** A driver in this process on {@code master} (loopback), recording the executors that run tasks in {@code executors}. */
    static org.apache.spark.sql.classic.SparkSession driver(String master, Path warehouse, Map<String, String> conf,
                                                            Path executors) {
        org.apache.spark.sql.classic.SparkSession s = LocalSpark.session(master, "sift-parity", warehouse, conf);
        s.sparkContext().addSparkListener(new TaskExecutors(executors));
        return s;
    }

    /** Whether a Spark session already runs in this process (a copy then leaves it running). */
    static boolean driverRunning() {
        return org.apache.spark.sql.classic.SparkSession.getDefaultSession().isDefined();
    }

    /** A Spark Connect session to {@code url} with {@code token} (an administrator's: it creates the copy's tables). */
    static SparkSession connect(String url, String token) {
        return org.apache.spark.sql.connect.SparkSession.builder()
                .remote(url + (token == null ? "" : "/;token=" + token)).create();
    }
}
