package dev.sift.bench;

import dev.sift.cli.Runtime;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** {@code --out DIR}: where a benchmark run writes its reports (and traces), shared by {@code bench run} and {@code bench dab}. */
public final class ReportDirOption {
    @Option(names = "--out", paramLabel = "DIR", description = "where report.json, report.md (and dab's traces) go"
            + " (default: $SIFT_HOME/bench/<suite or dab>-<time>); dab resumes in a folder it used before")
    Path dir;

    /** The folder given, else a new one under the home's {@code bench} folder named by {@code run} and the time. */
    Path resolve(String run) {
        return dir != null ? dir : Runtime.config().home().resolve("bench").resolve(run + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
