package dev.sift.bench;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records which executors ran tasks, so a cluster bench can say the work left this process: a listener on the driver
 * (added in this process, or named by {@code spark.extraListeners} in a Connect server's) that appends each new
 * executor id to a file.
 */
public final class TaskExecutors extends SparkListener {
    private final Path file;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /** For {@code spark.extraListeners}: the file comes from the system property {@link SparkCluster#EXECUTORS_FILE}. */
    public TaskExecutors() {
        this(Path.of(System.getProperty(SparkCluster.EXECUTORS_FILE, "executors.txt")));
    }

    TaskExecutors(Path file) {
        this.file = file;
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        String id = end.taskInfo().executorId();
        if (seen.add(id)) {
            try {
                Files.writeString(file, id + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The executor ids a listener wrote to {@code file}. */
    static List<String> read(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).stream().filter(s -> !s.isBlank()).distinct().toList() : List.of();
    }
}
