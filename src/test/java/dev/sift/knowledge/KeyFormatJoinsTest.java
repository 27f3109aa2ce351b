package dev.sift.knowledge;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Keys that name the same thing in different formats become joins carrying their transform. */
class KeyFormatJoinsTest {
    private static final String NORMALISED = "ltrim(regexp_extract(CAST(reviews.business_ref AS VARCHAR), '([0-9]+)[^0-9]*$',"
            + " 1), '0') = ltrim(regexp_extract(CAST(businesses.business_id AS VARCHAR), '([0-9]+)[^0-9]*$', 1), '0')";

    /** Ten businesses keyed businessid_N, reviews pointing at them as businessref_N (some zero-padded). */
    private static Dataset reviews(String name, int unmatched) throws Exception {
        StringBuilder b = new StringBuilder("business_id,name,city\n");
        for (int i = 1; i <= 10; i++) {
            b.append("businessid_").append(i).append(",Shop ").append(i).append(',').append(i % 2 == 0 ? "Reno" : "Tampa")
                    .append('\n');
        }
        StringBuilder r = new StringBuilder("review_id,business_ref,rating\n");
        for (int i = 1; i <= 40; i++) {
            int business = i <= 40 - unmatched ? 1 + i % 10 : 100 + i;
            r.append("r").append(i).append(",businessref_").append(business < 10 ? "0" + business : business).append(',')
                    .append(1 + i % 5).append('\n');
        }
        return TestDatasets.csv(name, Map.of("businesses.csv", b.toString(), "reviews.csv", r.toString()));
    }

    @Test
    void differently_formatted_keys_become_an_approved_join_on_the_number_they_carry() throws Exception {
        try (Workspace ws = Workspace.open(reviews("formats", 0), Workspace.Limits.defaults())) {
            KnowledgeGraph kg = KgBuilder.build(ws);
            assertThat(kg.joins()).singleElement().satisfies(j -> {
                assertThat(j.written()).isEqualTo("reviews.business_ref = businesses.business_id");
                assertThat(j.condition()).isEqualTo(NORMALISED);
                assertThat(j.approved()).isTrue();
                assertThat(j.coverage()).isEqualTo(1.0);
                assertThat(j.describe()).isEqualTo("join reviews.business_ref = businesses.business_id (approved: key →"
                        + " foreign key, many-to-one); keys differ in format, joined on the number they carry: ON " + NORMALISED);
            });
            // the condition the graph carries finds every review's business
            assertThat(ws.query("SELECT count(*) FROM reviews JOIN businesses ON " + NORMALISED).scalar()).isEqualTo(40L);
        }
    }

    @Test
    void the_prompt_shows_the_join_with_its_transform() throws Exception {
        try (Workspace ws = Workspace.open(reviews("formats_prompt", 0), Workspace.Limits.defaults())) {
            Knowledge k = Knowledge.build(ws, Optional.empty());
            // the prompt's knowledge section lists it whatever the question's words
            assertThat(KgContext.forQuestion(k, "Which city has the best ratings?").render(4000)).contains("- join"
                    + " reviews.business_ref = businesses.business_id (approved: key → foreign key, many-to-one); keys differ"
                    + " in format, joined on the number they carry: ON " + NORMALISED);
            // one such join says so where it is listed (several say it once, in the heading: DabYelpTest)
            assertThat(dev.sift.planner.llm.DatasetFacts.of(k).text()).contains("Approved joins (foreign key = key):"
                    + " reviews.business_ref = businesses.business_id (keys differ in format, joined on the number they carry)")
                    .doesNotContain("by number");
        }
    }

    @Test
    void the_offline_planner_joins_along_the_transform() throws Exception {
        try (Workspace ws = Workspace.open(reviews("formats_ask", 0), Workspace.Limits.defaults())) {
            AgentRun run = new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults())
                    .run("What is the average rating by city?");
            assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
            String sql = run.evidence().get(run.evidence().size() - 1).sql();
            assertThat(sql).contains("JOIN businesses ON " + NORMALISED);
            assertThat(run.evidence().get(run.evidence().size() - 1).rows()).containsExactlyInAnyOrderElementsOf(ws.query(
                    "SELECT b.city, avg(r.rating) FROM reviews r JOIN businesses b ON regexp_extract(r.business_ref, '[0-9]+$')::INT"
                            + " = regexp_extract(b.business_id, '[0-9]+$')::INT GROUP BY 1").rows());
        }
    }

    @Test
    void a_loose_format_match_stays_a_candidate_that_the_offline_planner_does_not_follow() throws Exception {
        try (Workspace ws = Workspace.open(reviews("formats_loose", 12), Workspace.Limits.defaults())) {
            KgEntry.Join j = KgBuilder.build(ws).joins().get(0);
            assertThat(j.normalised()).isTrue();
            assertThat(j.approved()).isFalse();
            assertThat(j.coverage()).isEqualTo(0.7);
            AgentRun run = new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults())
                    .run("What is the average rating by city?");
            assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(run.answer()).contains("which is only a candidate (70.0 % of reviews.business_ref values are found");
        }
    }

    @Test
    void keys_that_join_as_they_are_get_no_transform() throws Exception {
        Dataset ds = TestDatasets.csv("formats_plain", Map.of("shops.csv", "shop_id,city\nS1,Brno\nS2,Praha\n",
                "sales.csv", "sale_id,shop_id,amount\n1,S1,5\n2,S2,7\n3,S1,1\n"));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).singleElement().satisfies(j -> {
                assertThat(j.normalised()).isFalse();
                assertThat(j.condition()).isEqualTo("sales.shop_id = shops.shop_id");
            });
        }
    }
}
