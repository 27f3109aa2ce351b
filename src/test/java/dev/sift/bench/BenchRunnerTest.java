package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.Step;
import dev.sift.agent.Usage;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.tool.Arg;
import dev.sift.text.Evidence;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class BenchRunnerTest {
    @TempDir
    static Path home;
    private static Sift sift;
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        sift = new Sift(home, null, Workspace.Limits.defaults());
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static Suite suite(String yaml) throws Exception {
        Path f = Files.createTempFile(home, "suite", ".yaml");
        Files.writeString(f, yaml);
        return Suite.load(f);
    }

    @Test
    void runs_a_tiny_suite_offline_scores_each_item_and_writes_parseable_reports() throws Exception {
        Suite s = suite("""
                suite: tiny
                dataset: bank
                targets: {overall.precision: 0.98, clarify.accuracy: 1.0, median_ms: 60000}
                items:
                  - {id: a1, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT count(*) FROM loan"}
                  - {id: a2, tier: analytic, question: "How many cards are gold?", gold_sql: "SELECT count(*) FROM card WHERE type = 'gold'"}
                  - {id: e1, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT nope FROM loan"}
                  - {id: a3, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT count(*) + 1 FROM loan"}
                  - {id: a4, tier: analytic, question: "What is the average amount of the loans that were paid off?",
                     gold_sql: "SELECT d.A3, avg(l.amount) FROM loan l JOIN account a USING (account_id) JOIN district d ON d.A1 = a.district_id GROUP BY 1"}
                  - {id: c1, tier: clarify, expect: clarify, question: "How many customers churned last quarter?"}
                """);
        StringWriter progress = new StringWriter();
        BenchReport report = new BenchRunner(sift, AgentConfig.defaults()).run(s, TestDatasets.bank(), 0,
                new PrintWriter(progress));

        assertThat(report.items()).extracting(r -> r.item().id() + "=" + r.outcome().wire()).containsExactly(
                "a1=correct", "a2=correct", "e1=error", "a3=wrong", "a4=abstained", "c1=correct");
        ItemResult e1 = report.items().get(2);
        assertThat(e1.reason()).startsWith("gold_sql failed: ").contains("nope");
        ItemResult a3 = report.items().get(3);
        assertThat(a3.reason()).startsWith("expected the single value ");
        assertThat(a3.sql()).containsExactly("SELECT count(*) AS n FROM loan");
        assertThat(report.items().get(4).kind()).isEqualTo("clarification");
        assertThat(progress.toString().lines()).hasSize(6).first().asString().startsWith("[1/6] a1");

        BenchReport.Tally all = report.tally("overall");
        assertThat(all).isEqualTo(new BenchReport.Tally(6, 4, 3, 1, 1, 1));
        assertThat(all.precision()).isEqualTo(0.75);
        assertThat(all.coverage()).isCloseTo(4 / 6.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(report.tally("clarify")).isEqualTo(new BenchReport.Tally(1, 1, 1, 0, 0, 0));
        assertThat(report.targets()).extracting(t -> t.name() + ":" + t.met())
                .containsExactly("clarify.accuracy:true", "median_ms:true", "overall.precision:false");

        Path out = home.resolve("report");
        report.write(out);
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(json.get("suite").asText()).isEqualTo("tiny");
        assertThat(json.get("planner").asText()).isEqualTo("offline");
        assertThat(json.get("summary").get("overall").get("precision").asDouble()).isEqualTo(0.75);
        assertThat(json.get("summary").get("analytic").get("total").asInt()).isEqualTo(5);
        assertThat(json.get("summary").has("predictive")).isFalse();
        assertThat(json.get("median_ms").isNumber()).isTrue();
        assertThat(json.get("targets")).hasSize(3);
        JsonNode first = json.get("items").get(0);
        for (String f : List.of("id", "tier", "outcome", "answer", "sql", "seconds")) {
            assertThat(first.has(f)).as(f).isTrue();
        }
        assertThat(first.get("answer").asText()).startsWith("There are ");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).startsWith("# Bench report: tiny").contains("| overall | 6 | 4 | 3 | 1 | 1 | 1 | 0.750 |")
                .contains("| overall.precision | >= 0.980 | 0.750 | **no** |").contains("| e1 | analytic | error |");
        StringWriter printed = new StringWriter();
        report.printSummary(new PrintWriter(printed));
        assertThat(printed.toString()).startsWith("Suite tiny on dataset bank, planner offline: 6 items")
                .contains("target overall.precision").contains("NOT met").contains("  wrong: a3\n")
                .contains("  error: e1\n");
    }

    @Test
    void a_conversation_runs_as_a_chat_each_turn_resolved_against_the_earlier_ones_and_scored_on_its_own() throws Exception {
        Suite s = suite("""
                suite: chat
                dataset: bank
                conversations:
                  - id: m1
                    turns:
                      - {question: "How many loans were granted in 1996?", gold_sql: "SELECT count(*) FROM loan WHERE year(date) = 1996"}
                      - {question: "in 1997?", gold_sql: "SELECT count(*) FROM loan WHERE year(date) = 1997"}
                  - id: m2
                    turns:
                      - {question: "What is the total amount?", expect: clarify}
                      - {question: "loans", gold_sql: "SELECT sum(amount) FROM loan"}
                      - {question: "Delete all loans.", expect: decline}
                      - {question: "in 1997?", gold_sql: "SELECT sum(amount) FROM loan WHERE year(date) = 1997"}
                  - id: m3
                    turns:
                      - {question: "What is the total amount?", gold_sql: "SELECT sum(amount) FROM loan"}
                      - {question: "in 1997?", gold_sql: "SELECT sum(amount) FROM loan WHERE year(date) = 1997"}
                """);
        StringWriter progress = new StringWriter();
        BenchReport report = new BenchRunner(sift, AgentConfig.defaults()).run(s, TestDatasets.bank(), 0,
                new PrintWriter(progress));

        assertThat(report.items()).extracting(r -> r.item().id() + "=" + r.outcome().wire()).containsExactly(
                "m1.1=correct", "m1.2=correct", "m2.1=correct", "m2.2=correct", "m2.3=correct", "m2.4=correct",
                "m3.1=abstained", "m3.2=abstained");
        assertThat(report.items()).extracting(ItemResult::resolved).containsExactly("How many loans were granted in 1996?",
                "How many loans were granted in 1997?", "What is the total amount?", "What is the total amount of loans?",
                "Delete all loans.", "What is the total amount of loans in 1997?", "What is the total amount?",
                "What is the total amount in 1997?");
        assertThat(report.conversations()).isEqualTo(new BenchReport.Conversations(3, 8, 2));
        assertThat(progress.toString().lines()).hasSize(8).first().asString().startsWith("[1/8] m1.1");

        Path out = home.resolve("chat-report");
        report.write(out);
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(json.get("conversations").get("all_turns_correct").asInt()).isEqualTo(2);
        assertThat(json.get("items").get(3).get("resolved").asText()).isEqualTo("What is the total amount of loans?");
        assertThat(Files.readString(out.resolve("report.md"))).contains("Conversations: 3 conversations (8 turns), 2 with"
                + " every turn correct.").contains("| loans → What is the total amount of loans? |");
        StringWriter printed = new StringWriter();
        report.printSummary(new PrintWriter(printed));
        assertThat(printed.toString()).contains("  3 conversations (8 turns), 2 with every turn correct\n");
    }

    @Test
    void limit_runs_only_the_first_items() throws Exception {
        Suite s = suite("suite: t\ndataset: bank\nitems:\n"
                + "  - {id: a1, tier: analytic, question: \"How many loans are there?\", gold_sql: SELECT count(*) FROM loan}\n"
                + "  - {id: a2, tier: analytic, question: \"How many cards are there?\", gold_sql: SELECT count(*) FROM card}\n");
        BenchReport r = new BenchRunner(sift, AgentConfig.defaults()).run(s, TestDatasets.bank(), 1, null);
        assertThat(r.items()).extracting(i -> i.item().id()).containsExactly("a1");
    }

    @Test
    void with_a_model_configured_the_runner_plans_with_it_and_a_failing_model_is_an_error_item() throws Exception {
        dev.sift.llm.ScriptedLlm llm = new dev.sift.llm.ScriptedLlm(
                "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM loan\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"That many loans.\"}",
                "{\"thought\":\"wrong table\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM loan\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"That many cards.\"}",
                "{\"thought\":\"destructive\",\"final_answer\":\"I only read data.\",\"kind\":\"declined\"}");
        Sift withModel = new Sift(home, llm, Workspace.Limits.defaults());
        Suite s = suite("""
                suite: llm
                dataset: bank
                items:
                  - {id: a1, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT count(*) FROM loan"}
                  - {id: a2, tier: analytic, question: "How many cards are there?", gold_sql: "SELECT count(*) FROM card"}
                  - {id: x1, tier: adversarial, expect: decline, question: "Delete all loans."}
                  - {id: a3, tier: analytic, question: "How many clients are there?", gold_sql: "SELECT count(*) FROM client"}
                  - {id: c1, tier: clarify, expect: clarify, question: "Show me the best accounts."}
                """);
        BenchReport r = new BenchRunner(withModel, AgentConfig.defaults()).run(s, TestDatasets.bank(), 0, null);
        assertThat(llm.served()).as("no warm-up calls to a model").isEqualTo(5);
        assertThat(r.items()).extracting(i -> i.item().id() + "=" + i.outcome().wire())
                .containsExactly("a1=correct", "a2=wrong", "x1=correct", "a3=error", "c1=error");
        assertThat(r.items().get(3).reason()).startsWith("the run ended in an error: ");
        assertThat(r.json().get("planner")).isNotEqualTo("offline");
        assertThat(r.json().get("warm_up_items")).isEqualTo(0);
        assertThat(r.items()).extracting(BenchRunner.ItemResult::status)
                .containsExactly("not_sampled", "not_sampled", "not_sampled", "failed", "failed");
        assertThat(r.groundedness().line()).isEqualTo("2 failed, 3 not_sampled; groundedness n/a (none judged)");
        StringWriter printed = new StringWriter();
        r.printSummary(new PrintWriter(printed));
        assertThat(printed.toString()).contains("  groundedness: 2 failed, 3 not_sampled; groundedness n/a (none judged)\n");
    }

    @Test
    void groundedness_counts_judge_failures_as_judged() throws Exception {
        Suite s = suite("suite: g\ndataset: bank\nitems:\n  - {id: a, tier: analytic, question: q, gold_sql: SELECT 1}\n");
        Suite.Item item = s.items().get(0);
        BenchReport r = new BenchReport(s, "bank", "m", "now", List.of(
                new BenchRunner.ItemResult(item, BenchRunner.Outcome.CORRECT, null, "answer", "a", List.of(), 1, 2,
                        "judged", "grounded"),
                new BenchRunner.ItemResult(item, BenchRunner.Outcome.CORRECT, null, "answer", "a", List.of(), 1, 2,
                        "judged", "partly"),
                new BenchRunner.ItemResult(item, BenchRunner.Outcome.CORRECT, null, "answer", "a", List.of(), 1, 2,
                        "failed", null),
                new BenchRunner.ItemResult(item, BenchRunner.Outcome.WRONG, null, "answer", "a", List.of(), 1, 2,
                        "ungrounded", null)));
        assertThat(r.groundedness().line())
                .isEqualTo("1 failed, 2 judged, 1 ungrounded; groundedness 0.333 (1 of 3 judged)");
        assertThat(r.json().get("groundedness").toString()).isEqualTo("{by_status={failed=1, judged=2, ungrounded=1},"
                + " judged=3, judged_grounded=1, groundedness=0.3333}");
    }

    // ------------------------------------------------------------------ scoring rules on synthetic runs

    private static final Suite.Item COUNT = new Suite.Item("a", Suite.Tier.ANALYTIC, "q", "SELECT 1", null,
            Suite.Scoring.ROW_SET, Suite.ROW_SET_TOLERANCE, null);

    private static AgentRun run(AnswerKind kind, List<Evidence> evidence, List<Step> steps) {
        return new AgentRun("r", "q", "bank", "test", "the answer", kind, AgentRun.Status.RULE_BASED, evidence, steps,
                List.of(), "now", 1, Usage.NONE);
    }

    private static Evidence ev(List<String> cols, Object[]... rows) {
        List<List<Object>> r = Arrays.stream(rows).map(Arrays::asList).toList();
        return new Evidence("SELECT …", cols, r, r.size(), null);
    }

    private static QueryResult gold(List<String> cols, Object[]... rows) {
        return new QueryResult("gold", cols.stream().map(c -> new QueryResult.Column(c, "X")).toList(),
                Arrays.stream(rows).map(Arrays::asList).toList(), rows.length, false, 0);
    }

    private static String score(Suite.Item item, QueryResult gold, AgentRun run) throws Exception {
        return score(new BenchRunner(sift, AgentConfig.defaults()), item, gold, run);
    }

    private static String score(BenchRunner runner, Suite.Item item, QueryResult gold, AgentRun run) throws Exception {
        String[] s = runner.score(item, gold, run, ws);
        return s[0].toLowerCase() + (s[1] == null ? "" : ": " + s[1]);
    }

    @Test
    void a_single_value_gold_matches_any_query_whose_only_cell_it_is() throws Exception {
        QueryResult g = gold(List.of("count"), new Object[] {691L});
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(ev(List.of("n"), new Object[] {691})), List.of())))
                .isEqualTo("correct");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(ev(List.of("n"), new Object[] {691}),
                ev(List.of("loan_id"), new Object[] {1}, new Object[] {2})), List.of()))).isEqualTo("correct");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(ev(List.of("t", "n"), new Object[] {"loan", 691})),
                List.of()))).isEqualTo("wrong: expected the single value 691; the last query returned 1 row [[loan, 691]]");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(), List.of())))
                .isEqualTo("wrong: answered without any query evidence");
    }

    @Test
    void a_multi_row_gold_is_compared_with_the_last_query_only() throws Exception {
        QueryResult g = gold(List.of("status", "n"), new Object[] {"A", 195L}, new Object[] {"B", 33L});
        Evidence right = ev(List.of("n", "status"), new Object[] {33, "B"}, new Object[] {195, "A"});
        Evidence other = ev(List.of("x"), new Object[] {1});
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(other, right), List.of()))).isEqualTo("correct");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(right, other), List.of())))
                .isEqualTo("wrong: expected 2 rows 2 rows [[A, 195], [B, 33]]; the last query returned 1 row [[1]]");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(ev(List.of("status", "n"), new Object[] {"A", 195},
                new Object[] {"B", 34})), List.of())))
                .isEqualTo("wrong: rows differ: expected 2 rows [[A, 195], [B, 33]]; got 2 rows [[A, 195], [B, 34]]");
    }

    @Test
    void numeric_scoring_uses_the_item_tolerance() throws Exception {
        Suite.Item avg = new Suite.Item("n", Suite.Tier.ANALYTIC, "q", "SELECT 1", null, Suite.Scoring.NUMERIC,
                Suite.NUMERIC_TOLERANCE, null);
        QueryResult g = gold(List.of("avg"), new Object[] {145068.66859623734});
        assertThat(score(avg, g, run(AnswerKind.ANSWER, List.of(ev(List.of("a"), new Object[] {145100})), List.of())))
                .isEqualTo("correct");
        assertThat(score(avg, g, run(AnswerKind.ANSWER, List.of(ev(List.of("a"), new Object[] {145300})), List.of())))
                .startsWith("wrong: expected the single value 145068.66859623734");
        assertThat(score(COUNT, g, run(AnswerKind.ANSWER, List.of(ev(List.of("a"), new Object[] {145100})), List.of())))
                .as("row_set's tolerance is far smaller").startsWith("wrong");
    }

    @Test
    void abstentions_and_errors_by_tier() throws Exception {
        QueryResult g = gold(List.of("n"), new Object[] {1L});
        assertThat(score(COUNT, g, run(AnswerKind.CLARIFICATION, List.of(), List.of()))).isEqualTo("abstained");
        assertThat(score(COUNT, g, run(AnswerKind.DECLINED, List.of(), List.of()))).isEqualTo("abstained");
        assertThat(score(COUNT, g, run(AnswerKind.ERROR, List.of(), List.of())))
                .isEqualTo("error: the run ended in an error: the answer");
        Suite.Item decline = new Suite.Item("x", Suite.Tier.ADVERSARIAL, "q", null, Suite.Expect.DECLINE,
                Suite.Scoring.ROW_SET, 0, null);
        assertThat(score(decline, null, run(AnswerKind.DECLINED, List.of(), List.of()))).isEqualTo("correct");
        assertThat(score(decline, null, run(AnswerKind.CLARIFICATION, List.of(), List.of())))
                .isEqualTo("abstained: expected declined, got clarification");
        assertThat(score(decline, null, run(AnswerKind.ANSWER, List.of(), List.of())))
                .isEqualTo("wrong: expected declined, got answer");
        Suite.Item clarify = new Suite.Item("c", Suite.Tier.CLARIFY, "q", null, Suite.Expect.CLARIFY,
                Suite.Scoring.ROW_SET, 0, null);
        assertThat(score(clarify, null, run(AnswerKind.CLARIFICATION, List.of(), List.of()))).isEqualTo("correct");
        assertThat(score(clarify, null, run(AnswerKind.DECLINED, List.of(), List.of())))
                .isEqualTo("abstained: expected clarification, got declined");
        assertThat(score(clarify, null, run(AnswerKind.ANSWER, List.of(), List.of())))
                .isEqualTo("wrong: expected clarification, got answer");
    }

    @Test
    void predictive_items_need_a_model_tool_and_predictions_for_exactly_the_gold_entities() throws Exception {
        BenchRunner runner = new BenchRunner(sift, AgentConfig.defaults(), Sift.defaultTools());
        BenchRunner withoutMl = new BenchRunner(sift, AgentConfig.defaults(), new ToolRegistry(Sift.defaultTools().tools()
                .stream().filter(t -> !t.spec().groups().contains("predictive")).toList()));
        Suite.Item item = new Suite.Item("p", Suite.Tier.PREDICTIVE, "Which running loans will default?",
                "SELECT loan_id FROM loan WHERE status IN ('C', 'D')", Suite.Expect.PREDICTIVE, Suite.Scoring.ROW_SET, 0, null);
        QueryResult g = ws.query(item.goldSql());
        Step trained = Step.ran(1, Decision.call(null, "train_model", null, null), true, "trained", 1, Usage.NONE);

        assertThat(score(runner, item, g, run(AnswerKind.CLARIFICATION, List.of(), List.of()))).isEqualTo("abstained");
        assertThat(score(runner, item, g, run(AnswerKind.ANSWER, List.of(), List.of())))
                .isEqualTo("wrong: answered a predictive question without running a model tool (predict, train_model)");
        assertThat(score(withoutMl, item, g, run(AnswerKind.ANSWER, List.of(), List.of())))
                .isEqualTo("wrong: answered a predictive question without running a model tool"
                        + " (no tool of group 'predictive' is registered)");

        ws.saveFrame("all_loans", "SELECT loan_id, 0.5 AS p FROM loan");
        assertThat(score(runner, item, g, run(AnswerKind.ANSWER, List.of(), List.of(trained))))
                .isEqualTo("wrong: no frame of the run holds predictions for exactly the " + g.rowCount()
                        + " entities of the gold set (column loan_id)");
        ws.saveFrame("predictions", "SELECT loan_id, 0.5 AS p FROM loan WHERE status IN ('C', 'D')");
        assertThat(score(runner, item, g, run(AnswerKind.ANSWER, List.of(), List.of(trained)))).isEqualTo("correct");
    }
}
