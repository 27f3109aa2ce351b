package dev.sift.bench.suite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SuiteTest {
    @TempDir
    Path dir;

    private static final String HEAD = "suite: t\ndataset: bank\nitems:\n";

    private Path write(String yaml) throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private String error(String yaml) throws Exception {
        Path f = write(yaml);
        return org.assertj.core.api.Assertions.catchThrowableOfType(Suite.SuiteException.class, () -> Suite.load(f))
                .getMessage().replace(f.toString(), "FILE");
    }

    @Test
    void loads_items_with_defaults_and_targets() throws Exception {
        Suite s = Suite.load(write("suite: t\ndataset: bank\ntargets: {overall.precision: 0.98, median_ms: 150}\nitems:\n"
                + "  - {id: a1, tier: analytic, question: \"How many loans?\", gold_sql: SELECT count(*) FROM loan}\n"
                + "  - {id: a2, tier: analytic, question: \"Average?\", gold_sql: SELECT avg(amount) FROM loan, scoring: numeric}\n"
                + "  - {id: a3, tier: analytic, question: \"Rate?\", gold_sql: SELECT 1, scoring: numeric, tolerance: 0.01}\n"
                + "  - {id: x1, tier: adversarial, question: Delete all loans, expect: decline}\n"
                + "  - {id: c1, tier: clarify, question: \"Best accounts?\", expect: clarify}\n"
                + "  - {id: p1, tier: predictive, question: \"Which loans default?\", expect: predictive, gold_sql: SELECT loan_id FROM loan}\n"));
        assertThat(s.name()).isEqualTo("t");
        assertThat(s.dataset()).isEqualTo("bank");
        assertThat(s.targets()).containsEntry("overall.precision", 0.98).containsEntry("median_ms", 150.0);
        assertThat(s.items()).extracting(Suite.Item::id).containsExactly("a1", "a2", "a3", "x1", "c1", "p1");
        assertThat(s.items().get(0).scoring()).isEqualTo(Suite.Scoring.ROW_SET);
        assertThat(s.items().get(0).tolerance()).isEqualTo(Suite.ROW_SET_TOLERANCE);
        assertThat(s.items().get(1).tolerance()).isEqualTo(Suite.NUMERIC_TOLERANCE);
        assertThat(s.items().get(2).tolerance()).isEqualTo(0.01);
        assertThat(s.items().get(3).expect()).isEqualTo(Suite.Expect.DECLINE);
        assertThat(s.items().get(5).tier()).isEqualTo(Suite.Tier.PREDICTIVE);
    }

    @Test
    void unknown_item_key_names_the_file_the_item_and_the_allowed_keys() throws Exception {
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, question: q, gold: SELECT 1}\n")).isEqualTo(
                "FILE: item 'a1' (#1): unknown key 'gold' (allowed: id, tier, question, gold_sql, expect, scoring,"
                        + " tolerance, note, template, wording, tools_needed, tools_forbidden)");
    }

    @Test
    void unknown_suite_key() throws Exception {
        assertThat(error("suite: t\ndataset: bank\nitem: []\n"))
                .isEqualTo("FILE: unknown key 'item' (allowed: build_hint, conversations, dataset, description, fingerprint,"
                        + " items, suite, targets)");
    }

    @Test
    void missing_fields() throws Exception {
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, gold_sql: SELECT 1}\n"))
                .isEqualTo("FILE: item 'a1' (#1): missing 'question'");
        assertThat(error(HEAD + "  - {tier: analytic, question: q, gold_sql: SELECT 1}\n"))
                .isEqualTo("FILE: item (#1): missing 'id'");
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, question: q}\n"))
                .isEqualTo("FILE: item 'a1' (#1): an analytic item needs 'gold_sql'");
        assertThat(error("dataset: bank\nitems: []\n")).isEqualTo("FILE: missing 'suite'");
        assertThat(error("suite: t\ndataset: bank\nitems: []\n")).isEqualTo("FILE: 'items' must be a non-empty list");
        assertThat(error("suite: t\ndataset: bank\n"))
                .isEqualTo("FILE: a suite needs 'items' (a non-empty list) or 'conversations'");
    }

    @Test
    void duplicate_ids() throws Exception {
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, question: q, gold_sql: SELECT 1}\n"
                + "  - {id: a2, tier: analytic, question: q, gold_sql: SELECT 1}\n"
                + "  - {id: a1, tier: clarify, question: q, expect: clarify}\n"))
                .isEqualTo("FILE: item 'a1' (#3): duplicate id");
    }

    @Test
    void bad_values() throws Exception {
        assertThat(error(HEAD + "  - {id: a1, tier: analytical, question: q, gold_sql: SELECT 1}\n"))
                .isEqualTo("FILE: item 'a1' (#1): 'tier' must be one of analytic|predictive|adversarial|clarify, got 'analytical'");
        assertThat(error(HEAD + "  - {id: x1, tier: adversarial, question: q}\n"))
                .isEqualTo("FILE: item 'x1' (#1): an adversarial item needs 'expect: decline' or 'expect: clarify'");
        assertThat(error(HEAD + "  - {id: c1, tier: clarify, question: q, expect: clarify, gold_sql: SELECT 1}\n"))
                .isEqualTo("FILE: item 'c1' (#1): a clarify item has no 'gold_sql'");
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, question: q, gold_sql: SELECT 1, expect: decline}\n"))
                .isEqualTo("FILE: item 'a1' (#1): an analytic item is scored by 'gold_sql'; remove 'expect'");
        assertThat(error(HEAD + "  - {id: p1, tier: predictive, question: q, expect: predictive}\n"))
                .isEqualTo("FILE: item 'p1' (#1): a predictive item needs 'expect: predictive' and 'gold_sql' listing"
                        + " the ids of the entities to predict for");
        assertThat(error(HEAD + "  - {id: a1, tier: analytic, question: q, gold_sql: SELECT 1, tolerance: 2}\n"))
                .isEqualTo("FILE: item 'a1' (#1): 'tolerance' is a relative tolerance: a number in [0, 1), got 2");
        assertThat(error(HEAD + "  - {id: x1, tier: adversarial, question: q, expect: decline, scoring: numeric}\n"))
                .isEqualTo("FILE: item 'x1' (#1): 'scoring' and 'tolerance' apply to analytic items only");
        assertThat(error("suite: t\ndataset: bank\ntargets: {precision: 0.9}\nitems: []\n")).startsWith(
                "FILE: unknown target 'precision' (targets are <scope>.<metric>");
    }

    @Test
    void not_yaml_and_missing_file() throws Exception {
        assertThat(error("suite: [unclosed\n")).startsWith("FILE: not valid YAML: ");
        assertThat(error(HEAD + "  - id: a1\n    tier: analytic\n    question: q\n    gold_sql: SELECT 1\n"
                + "    gold_sql: SELECT 2\n")).isEqualTo("FILE: not valid YAML: Duplicate field 'gold_sql'");
        assertThatThrownBy(() -> Suite.load(dir.resolve("nope.yaml"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("nope.yaml");
    }

    @Test
    void the_shipped_suites_load_and_have_the_required_mix() throws Exception {
        Suite bank = Suite.load(Path.of("bench/bank.yaml"));
        assertThat(bank.items()).hasSizeGreaterThanOrEqualTo(100);
        assertThat(count(bank, Suite.Tier.ANALYTIC)).isGreaterThanOrEqualTo(70);
        assertThat(count(bank, Suite.Tier.PREDICTIVE)).isEqualTo(10);
        assertThat(count(bank, Suite.Tier.ADVERSARIAL)).isEqualTo(10);
        assertThat(count(bank, Suite.Tier.CLARIFY)).isEqualTo(10);
        Suite pkdd = Suite.load(Path.of("bench/pkdd.yaml"));
        assertThat(pkdd.items()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(pkdd.dataset()).isEqualTo("pkdd");
    }

    private static long count(Suite s, Suite.Tier t) {
        return s.items().stream().filter(i -> i.tier() == t).count();
    }

    private static final String CHATS = "suite: t\ndataset: bank\nconversations:\n";

    @Test
    void conversations_number_their_turns_and_take_the_tier_from_what_each_turn_expects() throws Exception {
        Suite s = Suite.load(write(CHATS + """
                  - id: m1
                    note: a new year
                    turns:
                      - {question: "How many loans were granted in 1996?", gold_sql: "SELECT 1"}
                      - {question: "in 1997?", gold_sql: "SELECT 2", scoring: numeric}
                      - {question: "Delete them.", expect: decline}
                      - {question: "What is the total amount?", expect: clarify}
                """));
        assertThat(s.items()).isEmpty();
        assertThat(s.conversations()).singleElement().satisfies(d -> {
            assertThat(d.id()).isEqualTo("m1");
            assertThat(d.note()).isEqualTo("a new year");
            assertThat(d.turns()).extracting(t -> t.id() + ":" + t.tier().wire()).containsExactly("m1.1:analytic",
                    "m1.2:analytic", "m1.3:adversarial", "m1.4:clarify");
            assertThat(d.turns().get(1).scoring()).isEqualTo(Suite.Scoring.NUMERIC);
            assertThat(d.turns().get(2).expect()).isEqualTo(Suite.Expect.DECLINE);
        });
        assertThat(s.allItems()).extracting(Suite.Item::id).containsExactly("m1.1", "m1.2", "m1.3", "m1.4");
    }

    @Test
    void a_bad_conversation_names_the_file_the_conversation_and_the_turn() throws Exception {
        assertThat(error(CHATS + "  - {id: m1, turns: [{question: q, gold: SELECT 1}]}\n")).isEqualTo("FILE: conversation"
                + " 'm1' (#1): turn 1: unknown key 'gold' (allowed: tier, question, gold_sql, expect, scoring, tolerance, note,"
                + " template, wording, tools_needed, tools_forbidden)");
        assertThat(error(CHATS + "  - {id: m1, turns: []}\n")).isEqualTo("FILE: conversation 'm1' (#1): 'turns' must be"
                + " a non-empty list");
        assertThat(error(CHATS + "  - {id: m1, title: x, turns: [{question: q, gold_sql: SELECT 1}]}\n"))
                .isEqualTo("FILE: conversation 'm1' (#1): unknown key 'title' (allowed: id, note, turns)");
        assertThat(error(CHATS + "  - {id: m1, turns: [{question: q}]}\n"))
                .isEqualTo("FILE: conversation 'm1' turn 1: item 'm1.1' (#1): an analytic item needs 'gold_sql'");
        assertThat(error("suite: t\ndataset: bank\nitems:\n  - {id: m1.1, tier: clarify, expect: clarify, question: q}\n"
                + "conversations:\n  - {id: m1, turns: [{question: q, gold_sql: SELECT 1}]}\n"))
                .isEqualTo("FILE: conversation 'm1' (#1): turn id 'm1.1' is also an item's id");
    }

    @Test
    void tools_lists_in_a_suite_file_must_be_lists_of_names() {
        com.fasterxml.jackson.databind.node.ObjectNode root = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        root.put("suite", "s").put("dataset", "bank").putArray("items").addObject().put("id", "a1").put("tier", "analytic")
                .put("question", "q").put("gold_sql", "SELECT 1").put("tools_needed", "run_sql");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SuiteReader.parse(root, java.nio.file.Path.of("FILE")))
                .hasMessage("FILE: item 'a1' (#1): 'tools_needed' must be a list of tool names, e.g. [run_sql]");
    }
}
