package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.FileLoader;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The runner end to end on a benchmark layout it is given: real loop, real dataset, the tasks' own validators. */
class DabRunnerTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String QUERY = "SELECT avg(price) AS avg_price FROM products";

    @TempDir
    Path tmp;
    Path root;
    DatasetStore store;
    AtomicInteger builds = new AtomicInteger();

    @BeforeEach
    void layout() throws Exception {
        assumeTrue(new DabValidator("python3", Duration.ofSeconds(5)).unavailable() == null,
                "python3 is not installed: DataAgentBench validators need it; skipping");
        root = Files.createDirectories(tmp.resolve("bench"));
        Path ds = Files.createDirectories(root.resolve("shop"));
        Files.writeString(ds.resolve("db_config.yaml"), "db_clients: {}\n");
        Files.writeString(ds.resolve("db_description.txt"), "The products table lists each product with its price.\n");
        task(ds, "query1", "What is the average product price?",
                "return ('12.5' in llm_output, 'looked for 12.5')");
        task(ds, "query2", "Which product is the cheapest?", "raise RuntimeError('broken validator')");
        task(ds, "query3", "How many products are there?", "import time\ntime.sleep(30)\nreturn (True, 'late')");
        Path csv = tmp.resolve("products.csv");
        Files.writeString(csv, "name,price\npen,5\nbook,20\n");
        store = new DatasetStore(tmp.resolve("home/datasets"));
    }

    static void task(Path ds, String query, String question, String body) throws Exception {
        Path q = Files.createDirectories(ds.resolve(query));
        Files.writeString(q.resolve("query.json"), JSON.writeValueAsString(question));
        Files.writeString(q.resolve("validate.py"), "def validate(llm_output: str):\n" + body.indent(4));
        Files.writeString(q.resolve("ground_truth.csv"), "x\n");
    }

    DabRunner.Datasets datasets() {
        return (d, progress) -> {
            builds.incrementAndGet();
            return store.ensure("dab_" + d.name(), new FileLoader(List.of(tmp.resolve("products.csv"))), progress);
        };
    }

    /** A model that queries the average once, then answers with {@code answer} (again if asked to repair). */
    static ScriptedLlm model(String answer) {
        return new ScriptedLlm((Function<LlmRequest, String>) r -> {
            boolean queried = r.messages().stream().map(LlmMessage::content).anyMatch(c -> c.contains("avg_price"));
            return queried ? "{\"thought\":\"answer\",\"final_answer\":" + quote(answer) + "}"
                    : "{\"thought\":\"average\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"" + QUERY + "\"}}";
        });
    }

    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    DabRunner runner(ScriptedLlm llm, int validatorSeconds) {
        return runner(llm, validatorSeconds, AgentConfig.defaults());
    }

    DabRunner runner(ScriptedLlm llm, int validatorSeconds, AgentConfig agent) {
        Path home = tmp.resolve("home");
        return new DabRunner(m -> new Sift(home, m, Workspace.Limits.defaults()), llm, datasets(),
                new DabValidator("python3", Duration.ofSeconds(validatorSeconds)),
                new DabRunner.Options(1, false, agent));
    }

    List<DabResult> run(DabRunner runner, Path out, String... queries) throws Exception {
        DabDataset d = DabDataset.read(root, "shop");
        List<DabTask> tasks = d.tasks().stream().filter(t -> List.of(queries).contains(t.query())).toList();
        return runner.run(d, tasks, out, new PrintWriter(new StringWriter()), Progress.NONE);
    }

    @Test
    void a_right_answer_passes_its_validator_and_a_wrong_one_fails() throws Exception {
        List<DabResult> right = run(runner(model("The average product price is 12.5."), 5), tmp.resolve("right"), "query1");
        assertThat(right).singleElement().satisfies(r -> {
            assertThat(r.passed()).isTrue();
            assertThat(r.reason()).isEqualTo("looked for 12.5");
            assertThat(r.error()).isNull();
            assertThat(r.kind()).isEqualTo("answer");
            assertThat(r.steps()).isGreaterThanOrEqualTo(1);
            assertThat(r.inputTokens()).isPositive();
        });
        List<DabResult> wrong = run(runner(model("The average product price is 14."), 5), tmp.resolve("wrong"), "query1");
        assertThat(wrong).singleElement().satisfies(r -> {
            assertThat(r.passed()).isFalse();
            assertThat(r.reason()).isEqualTo("looked for 12.5");
        });
    }

    @Test
    void the_trace_keeps_steps_prompts_raw_replies_and_the_verdict() throws Exception {
        Path out = tmp.resolve("out");
        run(runner(model("The average product price is 12.5."), 5), out, "query1");
        JsonNode trace = JSON.readTree(out.resolve("shop_query1_iter1.json").toFile());
        assertThat(trace.get("prompt").asText()).isEqualTo("The products table lists each product with its price.\n\n"
                + "Question: What is the average product price?");
        assertThat(trace.at("/run/steps/0/tool").asText()).isEqualTo("run_sql");
        assertThat(trace.at("/run/evidence/0/sql").asText()).isEqualTo(QUERY);
        assertThat(trace.at("/run/raw_steps/0/raw").asText()).contains("run_sql");
        assertThat(trace.at("/model_calls/0/messages/0/content").asText()).contains("products");
        assertThat(trace.at("/model_calls/0/reply").asText()).contains(QUERY);
        assertThat(trace.at("/verdict/passed").asBoolean()).isTrue();
        assertThat(trace.at("/verdict/reason").asText()).isEqualTo("looked for 12.5");
    }

    @Test
    void a_crashing_or_hanging_validator_is_reported_and_the_run_goes_on() throws Exception {
        List<DabResult> rs = run(runner(model("The average product price is 12.5."), 6), tmp.resolve("out"),
                "query1", "query2", "query3");
        assertThat(rs).extracting(DabResult::query).containsExactly("query1", "query2", "query3");
        assertThat(rs.get(0).passed()).isTrue();
        assertThat(rs.get(1).passed()).isFalse();
        assertThat(rs.get(1).error()).contains("RuntimeError: broken validator");
        assertThat(rs.get(2).passed()).isFalse();
        assertThat(rs.get(2).error()).isEqualTo("the validator did not finish within 6 s and was stopped");
    }

    @Test
    void a_second_run_into_the_same_folder_skips_finished_task_iterations() throws Exception {
        Path out = tmp.resolve("out");
        ScriptedLlm first = model("The average product price is 12.5.");
        run(runner(first, 5), out, "query1");
        int calls = first.requests().size();
        assertThat(calls).isPositive();

        ScriptedLlm second = model("The average product price is 14.");
        List<DabResult> again = run(runner(second, 5), out, "query1");
        assertThat(second.requests()).isEmpty();
        assertThat(again).singleElement().satisfies(r -> assertThat(r.passed()).isTrue());

        Files.writeString(out.resolve("shop_query1_iter1.json"), "{ truncated");
        List<DabResult> rerun = run(runner(second, 5), out, "query1");
        assertThat(second.requests()).isNotEmpty();
        assertThat(rerun.get(0).passed()).isFalse();
        assertThat(builds.get()).isEqualTo(3); // prepared once per run; the store reuses the built dataset
        assertThat(store.list()).hasSize(1);
    }

    @Test
    void offline_the_runner_still_runs_and_reports_abstentions_honestly() throws Exception {
        Path out = tmp.resolve("offline");
        List<DabResult> rs = run(runner(null, 5), out, "query1");
        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.inputTokens()).isZero();
            assertThat(r.kind()).isIn("answer", "clarification", "declined");
        });
        DabReport report = new DabReport("offline", false, rs);
        report.write(out);
        JsonNode json = JSON.readTree(out.resolve("report.json").toFile());
        assertThat(json.at("/overall/total").asInt()).isEqualTo(1);
        assertThat(json.at("/overall/passed").asInt()).isEqualTo(rs.get(0).passed() ? 1 : 0);
        assertThat(Files.readString(out.resolve("report.md"))).contains("| shop_query1 | 1 |");
        // the offline planner reads the question alone: the description's words are not its question
        JsonNode trace = JSON.readTree(out.resolve("shop_query1_iter1.json").toFile());
        assertThat(trace.get("prompt").asText()).isEqualTo(trace.get("question").asText());
    }

    @Test
    void max_steps_bounds_each_task_and_the_trace_keeps_the_budget_and_the_validators_verdict() throws Exception {
        // a model that never stops querying: the budget of 2 steps ends the run, and its forced answer is scored
        ScriptedLlm endless = new ScriptedLlm((Function<LlmRequest, String>) r -> r.messages().stream()
                .map(LlmMessage::content).anyMatch(c -> c.contains("The step budget is spent"))
                ? "{\"thought\":\"forced\",\"final_answer\":\"The average is 14.\"}"
                : "{\"thought\":\"again\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"" + QUERY + "\"}}");
        Path out = tmp.resolve("bounded");
        List<DabResult> rs = run(runner(endless, 5, AgentConfig.defaults().withMaxSteps(2)), out, "query1");
        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.steps()).isEqualTo(2);
            assertThat(r.passed()).isFalse();
            assertThat(r.reason()).isEqualTo("looked for 12.5");
        });
        JsonNode trace = JSON.readTree(out.resolve("shop_query1_iter1.json").toFile());
        assertThat(trace.get("max_steps").asInt()).isEqualTo(2);
        assertThat(trace.at("/run/notes").toString()).contains("The step budget of 2 steps ran out");
        assertThat(trace.at("/verdict/passed").asBoolean()).isFalse();
        assertThat(trace.at("/verdict/reason").asText()).isEqualTo("looked for 12.5");
        assertThat(trace.at("/verdict/error").isNull()).isTrue();
    }
}
