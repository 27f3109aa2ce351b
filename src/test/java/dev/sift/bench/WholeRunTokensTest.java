package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.data.source.DatasetSources;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a DataAgentBench-style task costs over its whole run: DataAgentBench's yelp query1 (two databases folded into
 * one dataset) answered by a scripted model in the steps a planner takes on it — look at the reviews, list the
 * city's businesses with their long descriptions, try a join that finds nothing, join on the number the keys carry,
 * answer — every request counted in o200k_base tokens, as bench prompt-tokens counts them.
 */
class WholeRunTokensTest {
    static final Path ROOT = Path.of("../shared/data/dab");
    /** Tokens of the whole run before the prompt was split, trimmed and older results shortened (main at 1a6eef6). */
    static final int BEFORE = 18_630;

    static final List<String> STEPS = List.of(
            "{\"thought\":\"look at reviews\",\"tool\":\"inspect_data\",\"args\":{\"table\":\"user_database.review\"}}",
            "{\"thought\":\"find the city\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT business_id, name, description"
                    + " FROM businessinfo_database.business WHERE description LIKE '%Indianapolis%' LIMIT 15\"}}",
            "{\"thought\":\"join\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM user_database.review r"
                    + " JOIN businessinfo_database.business b ON r.business_ref = b.business_id\"}}",
            "{\"thought\":\"the keys carry a number\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT b.business_id,"
                    + " avg(r.rating) AS avg_rating, count(*) AS reviews FROM user_database.review r JOIN"
                    + " businessinfo_database.business b ON regexp_extract(r.business_ref, '([0-9]+)$', 1) ="
                    + " regexp_extract(b.business_id, '([0-9]+)$', 1) WHERE b.description LIKE '%Indianapolis, IN%'"
                    + " GROUP BY ALL ORDER BY reviews DESC\"}}",
            "{\"thought\":\"overall\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT avg(r.rating) AS avg_rating FROM"
                    + " user_database.review r JOIN businessinfo_database.business b ON regexp_extract(r.business_ref,"
                    + " '([0-9]+)$', 1) = regexp_extract(b.business_id, '([0-9]+)$', 1) WHERE b.description LIKE"
                    + " '%Indianapolis, IN%'\"}}",
            "{\"thought\":\"done\",\"final_answer\":\"The average rating is 3.55 (3.547 over the reviews of Indianapolis"
                    + " businesses).\"}");

    @TempDir
    static Path home;

    @BeforeAll
    static void needsData() {
        assumeTrue(Files.isDirectory(ROOT.resolve("yelp")), "../shared/data/dab/yelp not found: the DataAgentBench"
                + " sample is not in this checkout; skipping");
    }

    /** Every request of the scripted run, in order. */
    static List<LlmRequest> run() throws Exception {
        List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());
        ScriptedLlm model = new ScriptedLlm(r -> {
            requests.add(r);
            return STEPS.get(Math.min(requests.size() - 1, STEPS.size() - 1));
        });
        Sift sift = new Sift(home, model, Workspace.Limits.defaults());
        Dataset yelp = sift.store().ensure("dab_yelp", DatasetSources.of(List.of(ROOT.resolve("yelp/db_config.yaml")
                .toAbsolutePath().toString()), ROOT.resolve("yelp").toAbsolutePath(), Map.of()), dev.sift.data.Progress.NONE);
        AgentRun run = sift.ask("What is the average rating of all businesses located in Indianapolis, Indiana?", yelp,
                AgentConfig.defaults()).run();
        assertThat(run.answer()).contains("3.55");
        return requests;
    }

    @Test
    void a_dab_style_task_costs_at_least_thirty_percent_fewer_tokens_than_before() throws Exception {
        List<LlmRequest> requests = run();
        PromptTokenBench count = new PromptTokenBench();
        int total = requests.stream().mapToInt(count::tokens).sum();
        System.out.println("whole run: " + requests.size() + " requests, " + total + " tokens; per request "
                + requests.stream().map(count::tokens).toList());
        assertThat(requests).hasSize(STEPS.size());
        // 12,935 measured: 30.6 % fewer (the stable prefix and facts, tighter rules and tool descriptions, string
        // arguments untyped in the signatures, a join format said once for several joins, no empty knowledge section,
        // older long results shortened to their first 300 characters with a short note)
        assertThat(total).isLessThanOrEqualTo(BEFORE * 70 / 100);
    }
}
