package dev.sift.planner.llm;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.ToolsShown;
import dev.sift.bench.suite.Suite;
import dev.sift.bench.SyntheticTools;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The system prompt never describes a tool the model was not shown: for every question of the bundled suites,
 * with Sift's tools and with a large catalogue, each tool name anywhere in the prompt is one of the tools shown,
 * and a group's tools appear together.
 */
class PromptToolsTest {
    private static Workspace ws;
    private static Knowledge knowledge;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        knowledge = Knowledge.load(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    static List<String> questions() throws Exception {
        List<String> out = new ArrayList<>();
        for (String suite : List.of("bank", "pkdd", "adversarial")) {
            Suite.load(Path.of("bench", suite + ".yaml")).items().forEach(i -> out.add(i.question()));
        }
        return out;
    }

    /** Sift's own tool names that {@code text} names as words (a synthetic catalogue's "trend" is an English word). */
    static List<String> named(String text, ToolRegistry registry) {
        return registry.names().stream().filter(Sift.defaultTools().names()::contains).filter(n -> Pattern.compile("(?<![a-z0-9_])" + n + "(?![a-z0-9_])")
                .matcher(text).find()).toList();
    }

    @Test
    void every_tool_the_prompt_names_is_shown_for_every_suite_question() throws Exception {
        List<String> questions = questions();
        assertThat(questions).hasSizeGreaterThan(200);
        for (ToolRegistry registry : List.of(Sift.defaultTools(), new ToolRegistry(SyntheticTools.withDefaults()))) {
            ToolSelector selector = new ToolSelector(registry);
            for (String q : questions) {
                ToolsShown shown = selector.select(q, PromptBuilder.taskTools(knowledge, q));
                List<Tool<Record>> tools = PromptBuilder.shownTools(registry, shown);
                String prompt = PromptBuilder.system(ws, knowledge, tools, q);
                String rules = prompt.substring(prompt.indexOf("## Rules"), prompt.indexOf("## Dataset"));
                assertThat(shown.names()).as("tools named in the rules for: " + q).containsAll(named(rules, registry));
                assertThat(shown.names()).as("tools named in the prompt for: " + q).containsAll(
                        named(prompt, registry).stream().filter(n -> n.contains("_")).toList());
                for (ToolGroups.Group g : selector.groups().groups()) {
                    List<String> present = g.tools().stream().filter(registry.names()::contains).toList();
                    if (shown.names().stream().anyMatch(present::contains)) {
                        assertThat(shown.names()).as("group " + g.name() + " for: " + q).containsAll(present);
                    }
                }
            }
        }
    }

    @Test
    void a_predictive_question_shows_the_whole_model_chain_with_its_rule() {
        ToolRegistry registry = Sift.defaultTools();
        ToolsShown shown = new ToolSelector(registry).select("Explain the prediction for loan 5314");
        assertThat(shown.names()).contains("train_model", "predict", "explain_prediction", "evaluate_predictions");
        String prompt = PromptBuilder.system(ws, knowledge, PromptBuilder.shownTools(registry, shown), "Explain the"
                + " prediction for loan 5314");
        assertThat(prompt).contains("Then train_model → predict → explain_prediction.");
    }

    @Test
    void a_phrase_of_a_group_brings_the_whole_group_with_the_reason() {
        ToolsShown shown = new ToolSelector(Sift.defaultTools()).select("Which running loans are likely to default?");
        assertThat(shown.names()).contains("prediction_frames", "train_model", "predict", "explain_prediction",
                "evaluate_predictions");
        assertThat(shown.shown()).contains(new ToolsShown.Shown("predict", "the question says 'likely' (group predictive)"));
    }

    @Test
    void a_required_tool_brings_the_rest_of_its_group() {
        ToolsShown shown = new ToolSelector(Sift.defaultTools()).select("How many loans are there?",
                java.util.Map.of("prediction_frames", "the question triggers the knowledge graph's prediction task loan_default"));
        assertThat(shown.shown()).contains(new ToolsShown.Shown("prediction_frames",
                        "the question triggers the knowledge graph's prediction task loan_default"),
                new ToolsShown.Shown("train_model", "shown with prediction_frames (group predictive)"));
    }

    @Test
    void a_prediction_task_is_offered_only_to_a_question_asking_for_a_prediction() {
        assertThat(PromptBuilder.matchingTasks(knowledge, "What is the default rate by region?")).isEmpty();
        assertThat(PromptBuilder.taskTools(knowledge, "How many loans defaulted in 1997?")).isEmpty();
        assertThat(PromptBuilder.matchingTasks(knowledge, "Which running loans are likely to default?"))
                .extracting(t -> t.name()).containsExactly("loan_default");
        String q = "Which running loans are likely to default?";
        ToolRegistry registry = Sift.defaultTools();
        String prompt = PromptBuilder.system(ws, knowledge, PromptBuilder.shownTools(registry,
                new ToolSelector(registry).select(q, PromptBuilder.taskTools(knowledge, q))), q);
        assertThat(prompt).contains("- prediction task loan_default: probability that a running loan ends unpaid (status"
                + " B), learnt from finished loans; unlike the default_rate metric and the defaulted_loan concept (status B"
                + " or D), a running loan in debt (D) is not a default here, since it has not ended.");
    }

    @Test
    void the_branch_rule_says_which_dispositions_count_and_where_a_region_is_read() {
        String q = "How many clients who opened their accounts in Jesenik are women?";
        ToolRegistry registry = Sift.defaultTools();
        String prompt = PromptBuilder.system(ws, knowledge, PromptBuilder.shownTools(registry,
                new ToolSelector(registry).select(q)), q);
        assertThat(prompt).contains("Clients who opened their accounts in X go client -> disp -> account -> district;"
                + " every disposition counts (OWNER and DISPONENT) unless the question says owners; count each client"
                + " once. X may be a district (district.A2) or a region (district.A3): both are read from the account's"
                + " district.");
    }

    @Test
    void the_list_rule_writes_an_asked_list_out_up_to_its_bound_and_summarises_the_rest() {
        String prompt = PromptBuilder.system(ws, knowledge, PromptBuilder.shownTools(Sift.defaultTools(),
                new ToolSelector(Sift.defaultTools()).select("List the loans.")), "List the loans.").replace("\n  ", " ");
        assertThat(prompt).contains("A list asked for (\"list …\", \"which …\", \"how many … each year\"): its rows,"
                + " up to " + PromptBuilder.LIST_ASKED + "; past that, the count, the first " + PromptBuilder.LIST_ASKED
                + " rows and the frame holding the rest (run_sql with a label saves one). Otherwise a result's count and"
                + " first " + dev.sift.text.EvidenceText.LIST_ROWS + " rows.");
        assertThat(prompt).doesNotContain("is not written out");
    }

    @Test
    void the_rules_of_tools_not_shown_are_left_out() {
        ToolRegistry registry = Sift.defaultTools();
        ToolsShown shown = new ToolSelector(registry).select("How many loans are there?");
        String prompt = PromptBuilder.system(ws, knowledge, PromptBuilder.shownTools(registry, shown),
                "How many loans are there?");
        assertThat(shown.names()).doesNotContain("train_model", "pivot", "auto_insights");
        assertThat(prompt).doesNotContain("train_model", "predictive question", "call pivot", "auto_insights");
    }

    @Test
    void every_rule_names_only_its_own_group_and_the_core_tools() {
        ToolRegistry registry = Sift.defaultTools();
        ToolGroups groups = ToolGroups.load();
        for (ToolGroups.Group g : groups.groups()) {
            assertThat(registry.names()).as("tools of group " + g.name()).containsAll(g.tools());
            if (g.rule() != null) {
                List<String> allowed = new ArrayList<>(g.tools());
                allowed.addAll(ToolSelector.CORE);
                assertThat(allowed).as("tools named by the rule of " + g.name()).containsAll(named(g.rule(), registry));
            }
        }
    }

    @Test
    void a_tool_in_two_groups_is_refused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ToolGroups.of(List.of(
                        new ToolGroups.Group("a", List.of("predict"), null), new ToolGroups.Group("b", List.of("predict"), "x"))))
                .hasMessage("Tool predict is in two groups of /prompts/tool_groups.yaml");
    }
}
