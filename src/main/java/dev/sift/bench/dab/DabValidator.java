package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Scores an answer with a task's own {@code validate.py}: {@code validate(llm_output) -> (bool, reason)}, the
 * benchmark's code, run by {@code python3} in a subprocess under a time limit. The answer goes in on standard
 * input (never on a command line); the verdict comes back as one JSON line. A validator that raises, prints
 * something unreadable, or outlives its limit is a {@link Verdict} with {@code error} set, never an exception:
 * one broken task must not stop a benchmark run.
 */
public final class DabValidator {
    /** Loads validate.py from argv[1], feeds it stdin, prints {"passed": bool, "reason": str} last. */
    static final String HARNESS = String.join("\n",
            "import importlib.util, json, sys",
            "spec = importlib.util.spec_from_file_location('task_validate', sys.argv[1])",
            "mod = importlib.util.module_from_spec(spec)",
            "spec.loader.exec_module(mod)",
            "out = mod.validate(sys.stdin.read())",
            "ok, reason = (out[0], out[1]) if isinstance(out, (tuple, list)) and len(out) >= 2 else (out, '')",
            "print('\\n' + json.dumps({'passed': bool(ok), 'reason': str(reason)}))");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code error} is null when the validator ran and returned; {@code passed} is false whenever it is set. */
    public record Verdict(boolean passed, String reason, String error) {
        static Verdict failed(String error) {
            return new Verdict(false, null, error);
        }
    }

    private final String python;
    private final Duration limit;

    public DabValidator(String python, Duration limit) {
        this.python = python;
        this.limit = limit;
    }

    /** Null when {@code python} runs, else why not (the benchmark's validators need it). */
    public String unavailable() {
        try {
            Process p = new ProcessBuilder(python, "--version").redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return python + " --version did not finish in 10 s";
            }
            return p.exitValue() == 0 ? null : python + " --version exited with " + p.exitValue();
        } catch (IOException e) {
            return python + " was not found (" + e.getMessage() + "); install Python 3 to score DataAgentBench tasks"
                    + " (e.g. apt-get install python3)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    public Verdict validate(Path validator, String answer) {
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("sift-dab-validate", ".out");
            p = new ProcessBuilder(List.of(python, "-I", "-c", HARNESS, validator.toAbsolutePath().toString()))
                    .directory(validator.toAbsolutePath().getParent().toFile())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try (var in = p.getOutputStream()) {
                in.write((answer == null ? "" : answer).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the validator exited before reading its input: its output says why
            }
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                return Verdict.failed("the validator did not finish within " + limit.toSeconds() + " s and was stopped");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8).strip();
            String last = printed.isEmpty() ? "" : printed.substring(printed.lastIndexOf('\n') + 1).strip();
            if (p.exitValue() != 0 || !last.startsWith("{")) {
                return Verdict.failed("the validator failed (exit " + p.exitValue() + "): " + tail(printed));
            }
            JsonNode v = JSON.readTree(last);
            return new Verdict(v.path("passed").asBoolean(false), v.path("reason").asText(""), null);
        } catch (IOException e) {
            return Verdict.failed("the validator could not be run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p != null) {
                p.destroyForcibly();
            }
            return Verdict.failed("interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file; the OS cleans its temp folder
                }
            }
        }
    }

    private static String tail(String s) {
        String one = s.replaceAll("\\s*\\R\\s*", " | ").strip();
        return one.length() <= 400 ? one : "…" + one.substring(one.length() - 400);
    }
}
