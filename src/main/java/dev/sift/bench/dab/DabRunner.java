package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.RunJson;
import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs DataAgentBench tasks through the real loop and scores each final answer with the task's own validator.
 * Each dataset is built once through the sources layer ({@link Datasets}) and reused; every task iteration
 * leaves {@code <dataset>_<query>_iter<N>.json} in the output folder (the run's steps, every prompt and raw model
 * reply, the validator's verdict and reason). A task iteration whose trace already holds a verdict is read back,
 * not run again, so an interrupted run resumes where it stopped.
 */
public final class DabRunner {
    private static final Logger LOG = LoggerFactory.getLogger(DabRunner.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Builds (or reuses) the Sift dataset that folds in a benchmark dataset's databases. */
    @FunctionalInterface
    public interface Datasets {
        Dataset prepare(DabDataset dataset, Progress progress) throws Exception;
    }

    /** What to run: iterations per task, whether to compose with the hinted description, the loop's bounds. */
    public record Options(int iterations, boolean hints, AgentConfig agent) {
        public Options {
            if (iterations < 1 || iterations > 100) {
                throw new IllegalArgumentException("--iterations must be between 1 and 100, got " + iterations);
            }
        }
    }

    private final Function<LlmClient, Sift> sifts;
    private final LlmClient llm;
    private final Datasets datasets;
    private final DabValidator validator;
    private final Options options;

    /**
     * @param sifts builds the Sift that runs one task around the (recording) model client, or null offline
     * @param llm   the configured model, or null for the offline planner
     */
    public DabRunner(Function<LlmClient, Sift> sifts, LlmClient llm, Datasets datasets, DabValidator validator,
                     Options options) {
        this.sifts = sifts;
        this.llm = llm;
        this.datasets = datasets;
        this.validator = validator;
        this.options = options;
    }

    /** Runs {@code tasks} of {@code dataset} into {@code out}, one progress line per task iteration. */
    public List<DabResult> run(DabDataset dataset, List<DabTask> tasks, Path out, PrintWriter progress, Progress build)
            throws Exception {
        Files.createDirectories(out);
        Dataset ds = datasets.prepare(dataset, build);
        List<DabResult> results = new ArrayList<>();
        for (DabTask task : tasks) {
            for (int it = 1; it <= options.iterations(); it++) {
                Path trace = out.resolve(task.id() + "_iter" + it + ".json");
                DabResult r = finished(trace);
                boolean resumed = r != null;
                if (r == null) {
                    r = runOne(dataset, task, it, ds, trace);
                }
                results.add(r);
                progress.printf("%-22s iter %d  %-6s %6.1fs  %2d steps%s%s%n", task.id(), it, r.passed() ? "pass" : "fail",
                        r.runMillis() / 1000.0, r.steps(), resumed ? "  (done earlier)" : "",
                        r.error() != null ? "  " + oneLine(r.error()) : r.reason() == null ? "" : "  " + oneLine(r.reason()));
                progress.flush();
            }
        }
        return results;
    }

    private DabResult runOne(DabDataset dataset, DabTask task, int iteration, Dataset ds, Path trace) throws IOException {
        RecordingLlm recording = llm == null ? null : new RecordingLlm(llm);
        // the description is for a model; the offline planner would read its words as the question's
        String question = llm == null ? task.question() : dataset.compose(task, options.hints());
        long t0 = System.nanoTime();
        AgentRun run = null;
        String runError = null;
        try {
            run = sifts.apply(recording).ask(question, ds, options.agent()).run();
        } catch (Exception | StackOverflowError e) {
            LOG.warn("DataAgentBench task {} iteration {} failed", task.id(), iteration, e);
            runError = "the run failed: " + (e.getMessage() == null ? e.toString() : e.getMessage());
        }
        long runMillis = (System.nanoTime() - t0) / 1_000_000;
        long t1 = System.nanoTime();
        DabValidator.Verdict verdict = run == null ? DabValidator.Verdict.failed(runError)
                : validator.validate(task.validator(), run.answer());
        long validateMillis = (System.nanoTime() - t1) / 1_000_000;
        DabResult r = new DabResult(task.dataset(), task.query(), iteration, verdict.passed(), verdict.reason(),
                verdict.error(), run == null ? "error" : run.kind().wire(), run == null ? null : run.status().wire(),
                run == null ? null : run.answer(), run == null ? 0 : run.steps().size(),
                run == null ? 0 : run.tokens().input(), run == null ? 0 : run.tokens().output(), runMillis, validateMillis);
        writeTrace(trace, task, question, options.agent().maxSteps(), r, run, recording);
        return r;
    }

    private static void writeTrace(Path trace, DabTask task, String question, int maxSteps, DabResult r, AgentRun run,
                                   RecordingLlm recording) throws IOException {
        ObjectNode o = JSON.createObjectNode();
        o.put("task", task.id());
        o.put("question", task.question());
        o.put("prompt", question);
        o.put("max_steps", maxSteps);
        o.set("result", JSON.valueToTree(r));
        if (run != null) {
            ObjectNode runJson = RunJson.of(run, null);
            ArrayNode raw = runJson.putArray("raw_steps");
            run.steps().forEach(s -> raw.addObject().put("index", s.index()).put("thought", s.thought()).put("raw", s.raw())
                    .put("observation", s.observation()).put("millis", s.millis()));
            o.set("run", runJson);
        }
        ArrayNode calls = o.putArray("model_calls");
        if (recording != null) {
            for (RecordingLlm.Exchange e : recording.exchanges()) {
                ObjectNode c = calls.addObject();
                ArrayNode msgs = c.putArray("messages");
                for (LlmMessage m : e.messages()) {
                    msgs.add(JSON.valueToTree(m));
                }
                c.put("reply", e.reply());
                c.put("error", e.error());
                c.put("input_tokens", e.inputTokens());
                c.put("output_tokens", e.outputTokens());
                c.put("latency_ms", e.latencyMs());
                c.put("cached", e.cached());
            }
        }
        ObjectNode verdict = o.putObject("verdict");
        verdict.put("passed", r.passed());
        verdict.put("reason", r.reason());
        verdict.put("error", r.error());
        Path tmp = trace.resolveSibling("." + trace.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), o);
        try {
            Files.move(tmp, trace, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, trace, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The result kept in an earlier run's trace, or null when the task iteration still has to run. */
    static DabResult finished(Path trace) {
        if (!Files.isRegularFile(trace)) {
            return null;
        }
        try {
            JsonNode o = JSON.readTree(trace.toFile());
            return o.has("verdict") && o.has("result") ? JSON.treeToValue(o.get("result"), DabResult.class) : null;
        } catch (IOException e) {
            LOG.warn("Running {} again: its trace is unreadable ({})", trace, e.getMessage());
            return null;
        }
    }

    private static String oneLine(String s) {
        String one = s.replaceAll("\\s*\\R\\s*", " ").strip();
        return one.length() <= 140 ? one : one.substring(0, 139) + "…";
    }
}
