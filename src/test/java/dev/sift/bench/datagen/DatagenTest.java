package dev.sift.bench.datagen;

import dev.sift.OnBankWorkspace;
import dev.sift.TestDatasets;
import dev.sift.bench.suite.Suite;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.Thesaurus;
import dev.sift.llm.LlmException;
import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatagenTest extends OnBankWorkspace {
    @TempDir
    Path dir;

    private Datagen.Result generate(Workspace w, int n, long seed) throws Exception {
        return new Datagen(w, Knowledge.load(w).graph()).generate(new Datagen.Options(n, seed));
    }

    @Test
    void the_same_seed_writes_the_same_suite_byte_for_byte_and_another_seed_another() throws Exception {
        Path a = dir.resolve("a.yaml");
        Path b = dir.resolve("b.yaml");
        generate(ws, 120, 7).suite().write(a);
        try (Workspace other = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            generate(other, 120, 7).suite().write(b);
        }
        assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
        assertThat(generate(ws, 120, 8).suite().yaml()).isNotEqualTo(Files.readString(a));
    }

    @Test
    void a_generated_suite_loads_has_at_least_100_items_a_quarter_in_conversations_and_every_gold_runs() throws Exception {
        Path f = dir.resolve("bank.yaml");
        generate(ws, 120, 7).suite().write(f);
        Suite suite = Suite.load(f);
        List<Suite.Item> all = suite.allItems();
        assertThat(all).hasSizeGreaterThanOrEqualTo(100);
        int turns = suite.conversations().stream().mapToInt(c -> c.turns().size()).sum();
        assertThat((double) turns / all.size()).isGreaterThanOrEqualTo(0.20);
        assertThat(suite.fingerprint()).isEqualTo(TestDatasets.bank().fingerprint());
        assertThat(all).filteredOn(i -> i.tier() == Suite.Tier.PREDICTIVE).isNotEmpty();
        for (Suite.Item item : all) {
            QueryResult r = ws.query(item.goldSql());
            assertThat(r.rows()).as(item.id() + ": " + item.goldSql()).isNotEmpty();
            assertThat(item.template()).as(item.id()).isNotNull();
            assertThat(item.wording()).as(item.id()).isIn("plain", "reordered", "synonyms", "wordnet");
        }
    }

    @Test
    void a_dataset_without_curated_knowledge_gets_a_suite_of_100_items_a_fifth_or_more_in_conversations() throws Exception {
        try (Workspace shop = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            GeneratedSuite s = generate(shop, 120, 7).suite();
            assertThat(s.size()).isGreaterThanOrEqualTo(100);
            assertThat((double) s.turns() / s.size()).isGreaterThanOrEqualTo(0.20);
            for (Suite.Dialogue d : s.conversations()) {
                for (Suite.Item turn : d.turns()) {
                    assertThat(shop.query(turn.goldSql()).rows()).as(turn.id() + ": " + turn.goldSql()).isNotEmpty();
                }
            }
        }
    }

    @Test
    void every_template_is_used_and_each_question_comes_in_three_wordings_and_a_wordnet_one_where_it_has_synonyms()
            throws Exception {
        GeneratedSuite s = generate(ws, 200, 7).suite();
        Set<String> templates = s.items().stream().map(Suite.Item::template).collect(Collectors.toSet());
        assertThat(templates).containsAll(Templates.NAMES);
        Map<String, List<Suite.Item>> perQuestion = s.items().stream().filter(i -> i.tier() == Suite.Tier.ANALYTIC)
                .collect(Collectors.groupingBy(i -> i.id().replaceAll("-(plain|reordered|synonyms|wordnet)$", "")));
        for (List<Suite.Item> wordings : perQuestion.values()) {
            assertThat(wordings).extracting(Suite.Item::wording).startsWith("plain", "reordered", "synonyms");
            assertThat(wordings.size()).isBetween(3, 4);
        }
        List<Suite.Item> wordnet = s.items().stream().filter(i -> "wordnet".equals(i.wording())).toList();
        assertThat(wordnet).isNotEmpty();
        for (Suite.Item w : wordnet) {
            Suite.Item plain = s.items().stream().filter(i -> i.id().equals(w.id().replace("-wordnet", "-plain")))
                    .findFirst().orElseThrow();
            assertThat(w.question()).isNotEqualTo(plain.question());
            assertThat(w.goldSql()).isEqualTo(plain.goldSql());
        }
    }

    @Test
    void the_wordnet_wording_replaces_the_datas_nouns_by_synonyms_of_the_sense_the_dataset_means() throws Exception {
        var kg = Knowledge.load(ws).graph();
        LexicalWording lexical = LexicalWording.of(Inventory.read(ws, kg), kg);
        assertThat(lexical.replacements()).containsEntry("salary", "wage").containsEntry("districts", "territories")
                .doesNotContainKey("type").doesNotContainKey("amount");
        assertThat(lexical.reword("What is the average salary of districts?")).isEqualTo(
                "What is the average wage of territories?");
        // 'amount' has 'sum' as its first-sense synonym: a word of aggregation, so it stays
        assertThat(lexical.reword("What is the total amount of loans?")).isNull();
        assertThat(LexicalWording.plural("territory")).isEqualTo("territories");
        assertThat(LexicalWording.plural("class")).isEqualTo("classes");
    }

    @Test
    void a_noun_keeps_its_words_when_no_usual_sense_of_it_is_the_first_sense_of_a_synonym() {
        assertThat(Thesaurus.nounSynonymsIn("salary", Set.of())).containsExactly("wage", "pay", "remuneration");
        assertThat(Thesaurus.nounSynonymsIn("type", Set.of("person", "character", "kind"))).isEmpty();
        assertThat(Thesaurus.nounBase("transactions")).isEqualTo("transaction");
        assertThat(Thesaurus.nounBase("lent")).isNull();
    }

    @Test
    void the_round_trip_stage_keeps_the_questions_the_model_reads_back_and_counts_the_others_per_template() throws Exception {
        // a model that gives back every value of the result, except for questions that begin with "Which"
        ScriptedLlm model = new ScriptedLlm(req -> {
            String prompt = req.messages().get(0).content();
            return prompt.contains("\nWhich ") ? "I cannot tell from these results." : "The result: "
                    + prompt.substring(prompt.indexOf("\"rows\""), prompt.indexOf("\"row_count\""));
        });
        Datagen.Result r = new Datagen(ws, Knowledge.load(ws).graph(), model).generate(new Datagen.Options(60, 7));
        assertThat(r.unread()).containsKey("compare").allSatisfy((template, n) -> assertThat(n).isPositive());
        List<Suite.Item> plain = r.suite().items().stream().filter(i -> "plain".equals(i.wording())
                && i.tier() == Suite.Tier.ANALYTIC).toList();
        assertThat(plain).isNotEmpty().noneMatch(i -> i.question().startsWith("Which"));
        int drafts = r.kept().values().stream().mapToInt(Integer::intValue).sum();
        int unread = r.unread().values().stream().mapToInt(Integer::intValue).sum();
        assertThat(model.requests()).as("one call per draft that passed its gold checks").hasSizeGreaterThanOrEqualTo(drafts + unread);
        assertThat(new Datagen(ws, Knowledge.load(ws).graph()).generate(new Datagen.Options(60, 7)).unread()).isEmpty();
    }

    @Test
    void a_round_trip_model_that_fails_stops_the_generation() {
        assertThatThrownBy(() -> new Datagen(ws, Knowledge.load(ws).graph(), new ScriptedLlm(List.of()))
                .generate(new Datagen.Options(24, 7)))
                .isInstanceOf(LlmException.class).hasMessage("ScriptedLlm ran out of turns after 0 responses");
    }

    @Test
    void an_answer_gives_back_a_result_when_it_holds_every_value_numbers_to_three_significant_digits() {
        QueryResult r = new QueryResult("q", List.of(new QueryResult.Column("district", "VARCHAR"),
                new QueryResult.Column("avg", "DOUBLE")), List.of(java.util.Arrays.asList("Praha", 1234.5678),
                java.util.Arrays.asList("Brno", null)), 2, false, 0);
        assertThat(RoundTrip.givesBack("praha averages 1,234.57; Brno has none.", r)).isTrue();
        assertThat(RoundTrip.givesBack("Praha averages 1,235 and Brno none.", r)).isTrue();
        assertThat(RoundTrip.givesBack("Praha averages about 1,200; Brno has none.", r)).isFalse();
        assertThat(RoundTrip.givesBack("Praha averages 1,234.57.", r)).as("Brno is missing").isFalse();
        QueryResult status = new QueryResult("q", List.of(new QueryResult.Column("status", "VARCHAR")),
                List.of(List.of("C")), 1, false, 0);
        assertThat(RoundTrip.givesBack("I cannot tell.", status)).as("a value is a whole word").isFalse();
        assertThat(RoundTrip.givesBack("Status C has more.", status)).isTrue();
    }

    @Test
    void a_tied_top_n_is_dropped_and_an_untied_one_kept() throws Exception {
        Inventory inv = Inventory.read(ws, Knowledge.load(ws).graph());
        Datagen g = new Datagen(ws, Knowledge.load(ws).graph());
        Inventory.Table loan = inv.table("loan").orElseThrow();
        Inventory.Measure duration = new Inventory.Measure("duration", "duration", 36, true);
        Inventory.Measure amount = loan.measures().stream().filter(m -> m.column().equals("amount")).findFirst().orElseThrow();
        Templates t = new Templates(inv, new java.util.Random(1), sql -> null);
        assertThat(g.goldOk(t.topN(loan, duration, 3))).as("durations repeat: the third and fourth largest tie").isFalse();
        assertThat(g.goldOk(t.topN(loan, amount, 3))).isTrue();
    }

    @Test
    void fewer_than_twelve_questions_are_refused_with_the_reason() {
        assertThatThrownBy(() -> new Datagen.Options(5, 1)).hasMessage(
                "--n must be at least 12 (three wordings of four questions), got 5");
    }
}
