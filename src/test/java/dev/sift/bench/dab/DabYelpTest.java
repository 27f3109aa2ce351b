package dev.sift.bench.dab;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.data.source.DatasetSources;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.llm.PromptBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The runner on the benchmark's real yelp layout: the dataset folded in from its own db_config.yaml (a MongoDB
 * dump and a DuckDB file, one schema each), a scripted model that joins across the two on keys that differ by
 * format, and query1's own validate.py.
 */
class DabYelpTest {
    static final Path ROOT = Path.of("../shared/data/dab");
    static final String SQL = "SELECT avg(r.rating) AS avg_rating FROM user_database.review r"
            + " JOIN businessinfo_database.business b ON regexp_extract(r.business_ref, '([0-9]+)$', 1)"
            + " = regexp_extract(b.business_id, '([0-9]+)$', 1) WHERE b.description LIKE '%Indianapolis, IN%'";

    @TempDir
    static Path home;

    @BeforeAll
    static void needsData() {
        assumeTrue(Files.isDirectory(ROOT.resolve("yelp")), "../shared/data/dab/yelp not found: the DataAgentBench"
                + " sample is not in this checkout; skipping");
        assumeTrue(new DabValidator("python3", Duration.ofSeconds(5)).unavailable() == null,
                "python3 is not installed: DataAgentBench validators need it; skipping");
    }

    @Test
    void the_model_is_told_how_to_read_folded_databases_and_other_datasets_are_not() throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        DabDataset yelp = DabDataset.read(ROOT, "yelp");
        Dataset folded = sift.store().ensure("dab_yelp", DatasetSources.of(List.of(yelp.dbConfig().toAbsolutePath()
                .toString()), yelp.dir().toAbsolutePath(), Map.of()), dev.sift.data.Progress.NONE);
        try (Workspace ws = sift.open(folded)) {
            assertThat(PromptBuilder.system(ws, Knowledge.load(ws), Sift.defaultTools())).contains("regexp_extract(a.x, '([0-9]+)$', 1)")
                    .contains("Python-style literal").contains("database.table")
                    .contains("[text dates Month DD, YYYY at HH:MM AM (690, 35%), YYYY-MM-DD HH:MM:SS (681, 34%), DD Month YYYY,"
                            + " HH:MM (629, 31%)]").contains("yelping_since VARCHAR")
                    // the documents a column holds, and keys the graph matched across formats
                    .contains("JSON keys 'BusinessAcceptsCreditCards' (85%), 'BusinessParking' (66%),")
                    .contains("'BusinessParking' holds Python-literal dicts, keys 'garage', 'lot', 'street', 'valet',"
                            + " 'validated' (100% each)]")
                    .contains("hours JSON e.g. {\"Monday\":\"0:0-0:0\",\"Tuesday\":\"8:0-17:0\"… [17 null; JSON keys"
                            + " 'Friday' (100%),")
                    // two joins of keys in different formats: said once in the heading, marked on each
                    .contains("Approved joins (foreign key = key; by number: keys differ in format, joined on the number"
                            + " they carry): ")
                    .contains("user_database.review.business_ref = businessinfo_database.business.business_id (by number)");
        }
        try (Workspace ws = Workspace.open(dev.sift.TestDatasets.bank(), Workspace.Limits.defaults())) {
            assertThat(PromptBuilder.system(ws, Knowledge.load(ws), Sift.defaultTools())).doesNotContain("Python-style literal");
        }
    }

    @Test
    void a_year_in_a_question_about_reviews_reads_on_review_dates_not_on_the_elite_years_of_users() throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        DabDataset yelp = DabDataset.read(ROOT, "yelp");
        Dataset folded = sift.store().ensure("dab_yelp", DatasetSources.of(List.of(yelp.dbConfig().toAbsolutePath()
                .toString()), yelp.dir().toAbsolutePath(), Map.of()), dev.sift.data.Progress.NONE);
        try (Workspace ws = sift.open(folded)) {
            Knowledge k = Knowledge.load(ws);
            assertThat(dev.sift.knowledge.KgContext.forQuestion(k, "What is the average rating of reviews written in 2018?")
                    .render(3000)).doesNotContain("value in the data: '2018'").contains("- '2018' is a year: compare it with"
                    + " a date of the tables the question names (user_database.review.date), not with the stored text"
                    + " user_database.user.elite = '2018'");
            assertThat(dev.sift.knowledge.KgContext.forQuestion(k, "How many users were elite in 2018?").render(3000))
                    .contains("value in the data: '2018' is user_database.user.elite = '2018'");
        }
    }

    @Test
    void the_automatic_knowledge_graph_joins_reviews_to_businesses_on_the_number_their_keys_carry() throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        DabDataset yelp = DabDataset.read(ROOT, "yelp");
        Dataset folded = sift.store().ensure("dab_yelp", DatasetSources.of(List.of(yelp.dbConfig().toAbsolutePath()
                .toString()), yelp.dir().toAbsolutePath(), Map.of()), dev.sift.data.Progress.NONE);
        try (Workspace ws = sift.open(folded)) {
            var joins = dev.sift.knowledge.KgBuilder.build(ws).joins();
            assertThat(joins).filteredOn(KgEntry.Join::normalised).extracting(KgEntry.Join::written).containsExactlyInAnyOrder(
                    "user_database.review.business_ref = businessinfo_database.business.business_id",
                    "user_database.tip.business_ref = businessinfo_database.business.business_id");
            KgEntry.Join review = joins.stream().filter(j -> j.fromTable().equals("user_database.review")
                    && j.normalised()).findFirst().orElseThrow();
            assertThat(review.approved()).isTrue();
            assertThat(review.condition()).contains("regexp_extract(CAST(user_database.review.business_ref AS VARCHAR)");
            // the carried condition finds every review's business; plain equality finds none
            assertThat(ws.query("SELECT count(*) FROM user_database.review JOIN businessinfo_database.business ON "
                    + review.condition()).scalar()).isEqualTo(ws.query("SELECT count(*) FROM user_database.review").scalar());
            assertThat(ws.query("SELECT count(*) FROM user_database.review r JOIN businessinfo_database.business b"
                    + " ON r.business_ref = b.business_id").scalar()).isEqualTo(0L);
            assertThat(joins).filteredOn(j -> !j.normalised()).extracting(KgEntry.Join::written).contains(
                    "businessinfo_database.checkin.business_id = businessinfo_database.business.business_id");
        }
    }

    static ScriptedLlm model(String answer) {
        return new ScriptedLlm((Function<LlmRequest, String>) r -> r.messages().stream().map(LlmMessage::content)
                .anyMatch(c -> c.contains("avg_rating")) ? "{\"thought\":\"done\",\"final_answer\":\"" + answer + "\"}"
                : "{\"thought\":\"join the two databases\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"" + SQL + "\"}}");
    }

    List<DabResult> run(ScriptedLlm llm, Path out) throws Exception {
        Sift sift = new Sift(home, llm, Workspace.Limits.defaults());
        DabRunner.Datasets fold = (d, p) -> sift.store().ensure("dab_" + d.name(),
                DatasetSources.of(List.of(d.dbConfig().toAbsolutePath().toString()), d.dir().toAbsolutePath(), Map.of()), p);
        DabRunner runner = new DabRunner(m -> new Sift(home, m, Workspace.Limits.defaults()), llm, fold,
                new DabValidator("python3", Duration.ofSeconds(20)), new DabRunner.Options(1, false, AgentConfig.defaults()));
        DabDataset yelp = DabDataset.read(ROOT, "yelp");
        return runner.run(yelp, List.of(yelp.tasks().get(0)), out, new PrintWriter(new StringWriter()),
                dev.sift.data.Progress.NONE);
    }

    @Test
    void a_right_answer_across_both_databases_passes_query1_and_a_wrong_one_fails() throws Exception {
        List<DabResult> right = run(model("The average rating is 3.55 (3.547 over the reviews of Indianapolis businesses)."),
                home.resolve("right"));
        assertThat(right).singleElement().satisfies(r -> {
            assertThat(r.passed()).as(r.reason() + " / " + r.error()).isTrue();
            assertThat(r.reason()).startsWith("Found matching number");
        });
        assertThat(Files.readString(home.resolve("right/yelp_query1_iter1.json"))).contains("3.547008547");

        List<DabResult> wrong = run(model("The average rating is 3.9."), home.resolve("wrong"));
        assertThat(wrong).singleElement().satisfies(r -> {
            assertThat(r.passed()).isFalse();
            assertThat(r.reason()).startsWith("No matching number");
        });
        Dataset folded = new Sift(home, null, Workspace.Limits.defaults()).store().get("dab_yelp");
        assertThat(folded.tables()).extracting(t -> t.name())
                .contains("businessinfo_database.business", "user_database.review");
    }
}
