package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The automatic graph, the curated bank overlay, load-time validation and value aliases on the small bank. */
class KnowledgeGraphTest {
    private static Workspace ws;
    private static KnowledgeGraph auto;
    private static Knowledge bank;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        auto = KgBuilder.build(ws);
        bank = Knowledge.load(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static List<String> joins(KnowledgeGraph kg) {
        return kg.joins().stream().map(j -> j.fromTable() + "." + j.fromColumn() + " -> " + j.toTable() + "." + j.toColumn())
                .sorted().toList();
    }

    @Test
    void automatic_graph_finds_every_true_foreign_key_of_bank_and_no_false_join() {
        assertThat(joins(auto)).containsExactly(
                "account.district_id -> district.A1",
                "card.disp_id -> disp.disp_id",
                "client.district_id -> district.A1",
                "disp.account_id -> account.account_id",
                "disp.client_id -> client.client_id",
                "loan.account_id -> account.account_id",
                "order.account_id -> account.account_id",
                "trans.account_id -> account.account_id");
        assertThat(auto.joins()).allMatch(j -> !j.curated());
        assertThat(auto.source()).isEmpty();
    }

    @Test
    void automatic_graph_has_keys_row_counts_and_low_cardinality_values() throws Exception {
        assertThat(auto.column("loan", "loan_id").orElseThrow().key()).isTrue();
        assertThat(auto.column("district", "A1").orElseThrow().key()).isTrue();
        assertThat(auto.column("trans", "type").orElseThrow().key()).isFalse();
        assertThat(auto.column("loan", "status").orElseThrow().values()).containsExactly("A", "B", "C", "D");
        assertThat(auto.column("district", "A2").orElseThrow().values()).hasSize(77).contains("Hl.m. Praha");
        assertThat(auto.column("client", "birth_number").orElseThrow().values()).isEmpty(); // high cardinality
        assertThat(auto.table("loan").orElseThrow().rows()).isEqualTo(TestDatasets.bank().rows("loan"));
    }

    @Test
    void curated_bank_graph_translates_codes_and_approves_the_joins() {
        KnowledgeGraph kg = bank.graph();
        assertThat(kg.source()).contains("kg/bank.kg.yaml");
        assertThat(kg.column("loan", "status").orElseThrow().describe())
                .isEqualTo("column loan.status VARCHAR: status of paying off the loan; codes: 'A' = contract finished,"
                        + " no problems, 'B' = contract finished, loan not paid, 'C' = running contract, OK so far,"
                        + " 'D' = running contract, client in debt");
        assertThat(kg.column("district", "A13").orElseThrow().description()).isEqualTo("unemployment rate in 1996");
        assertThat(joins(kg)).isEqualTo(joins(auto)); // the same eight joins, now approved
        assertThat(kg.joins()).allMatch(KgEntry::curated);
        assertThat(kg.joinPath("loan", "district").orElseThrow()).extracting(KgEntry.Join::name)
                .containsExactly("loan_account", "account_district");
        assertThat(kg.joinPath("client", "district").orElseThrow()).extracting(KgEntry.Join::name)
                .containsExactly("client_district");
        assertThat(KgSql.from(kg, List.of("card", "client"))).contains("card JOIN disp ON card.disp_id = disp.disp_id"
                + " JOIN client ON disp.client_id = client.client_id");
        assertThat(KgSql.from(kg, List.of("order", "district"))).contains("\"order\" JOIN account ON"
                + " \"order\".account_id = account.account_id JOIN district ON account.district_id = district.A1");
    }

    @Test
    void phrases_find_concepts_metrics_and_disambiguations() {
        KnowledgeGraph kg = bank.graph();
        assertThat(kg.lookup("Default Rates")).extracting(KgEntry::id).containsExactly("metric:default_rate");
        assertThat(kg.lookup("customers")).extracting(KgEntry::id)
                .contains("concept:customer", "disambiguation:customer_not_account");
        assertThat(kg.lookup("lives in", KgEntry.Concept.class)).singleElement()
                .extracting(KgEntry.Concept::column).isEqualTo("client.district_id");
        assertThat(kg.entry("default_rate")).map(KgEntry::id).contains("metric:default_rate");
        List<KnowledgeGraph.Mention> m = kg.mentions("What is the default rate of customers who live in Prague?");
        assertThat(m).extracting(KnowledgeGraph.Mention::phrase).containsExactly("default rate", "customer", "who live in",
                "prague");
    }

    @Test
    void value_aliases_and_data_values_resolve_question_words_to_stored_values() {
        ValueIndex v = bank.values();
        assertThat(v.resolve("Prague")).singleElement().satisfies(m -> {
            assertThat(m.describe()).isEqualTo("district.A2 = 'Hl.m. Praha' (the capital's district; its region"
                    + " district.A3 is 'Prague')");
            assertThat(m.via()).isEqualTo(ValueIndex.Via.ALIAS);
        });
        assertThat(v.resolve("east Bohemia")).singleElement()
                .isEqualTo(new ValueIndex.Match("district", "A3", "east Bohemia", ValueIndex.Via.DATA, null, null));
        assertThat(v.resolve("weekly statements")).extracting(ValueIndex.Match::value).containsExactly("POPLATEK TYDNE");
        assertThat(v.resolve("women")).extracting(ValueIndex.Match::describe).containsExactly("client.gender = 'F'");
        assertThat(v.resolve("hl. m. praha")).extracting(ValueIndex.Match::value).containsExactly("Hl.m. Praha");
        assertThat(v.resolve("OWNER")).extracting(ValueIndex.Match::alias).containsExactly("value_alias:owner");
        assertThat(v.resolve("Atlantis")).isEmpty();
        assertThat(v.mentions("How many women in Prague have weekly statements?"))
                .extracting(ValueIndex.Mention::phrase).containsExactly("women", "prague", "weekly statement");
        assertThat(v.mentions("loans with status A")).isEmpty(); // one-letter codes are not matched in free text
    }

    @Test
    void a_dataset_without_a_curated_file_uses_the_automatic_graph_alone() {
        Knowledge k = Knowledge.build(ws, Optional.empty());
        assertThat(k.graph().source()).isEmpty();
        assertThat(k.graph().concepts()).isEmpty();
        assertThat(k.values().resolve("east Bohemia")).hasSize(1);
        assertThat(k.values().resolve("Prague")).extracting(ValueIndex.Match::describe)
                .containsExactly("district.A3 = 'Prague'"); // the data value, no alias
        assertThat(KgLoader.bundled("no_such_dataset")).isEmpty();
    }

    @Test
    void the_pkdd_file_includes_the_bank_graph() {
        CuratedKg pkdd = KgLoader.bundled("pkdd").orElseThrow();
        assertThat(pkdd.source()).isEqualTo("kg/pkdd.kg.yaml");
        assertThat(pkdd.entries()).hasSameSizeAs(KgLoader.bundled("bank").orElseThrow().entries());
        assertThat(KgLoader.overlay(auto, pkdd, ws).metrics()).isNotEmpty();
    }

    @Test
    void a_curated_entry_naming_a_missing_column_fails_at_load_with_file_and_entry() {
        CuratedKg bad = KgLoader.parse("""
                tables:
                  loan:
                    columns:
                      statuz: {description: typo}
                concepts:
                  - name: lives_in
                    column: client.home_district
                metrics:
                  - name: bad_metric
                    expression: avg(loan.amout)
                    grain: loan
                  - name: broken_sql
                    expression: avg(loan.amount) +
                    grain: loan
                join_paths:
                  - name: to_nowhere
                    from: loan.account_id
                    to: branch.id
                value_aliases:
                  - name: atlantis
                    synonyms: [Atlantis]
                    table: district
                    column: A2
                    value: Atlantis
                """, "kg/test.kg.yaml");
        assertThatThrownBy(() -> KgLoader.overlay(auto, bad, ws)).isInstanceOf(KgException.class)
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly(
                        "kg/test.kg.yaml: tables.loan.columns.statuz: column loan.statuz does not exist. Table loan has"
                                + " columns: loan_id, account_id, date, amount, duration, payments, status. Did you mean 'status'?",
                        "kg/test.kg.yaml: join_paths[to_nowhere]: table 'branch' does not exist. Tables: account, card,"
                                + " client, disp, district, loan, order, trans.",
                        "kg/test.kg.yaml: concepts[lives_in]: column client.home_district does not exist. Table client has"
                                + " columns: client_id, birth_number, district_id, gender, birth_date.",
                        "kg/test.kg.yaml: metrics[bad_metric]: column loan.amout does not exist. Table loan has columns:"
                                + " loan_id, account_id, date, amount, duration, payments, status. Did you mean 'amount'?",
                        "kg/test.kg.yaml: metrics[broken_sql]: expression 'avg(loan.amount) +' does not run: Query failed"
                                + " while running: Parser Error: syntax error at or near \"FROM\"",
                        "kg/test.kg.yaml: value_aliases[atlantis]: value 'Atlantis' does not occur in district.A2"));
    }

    @Test
    void structural_errors_name_the_file_and_the_entry() {
        assertThatThrownBy(() -> KgLoader.parse("concepts: [ {name: x", "kg/a.kg.yaml"))
                .isInstanceOf(KgException.class).hasMessageStartingWith("kg/a.kg.yaml: not valid YAML: ");
        assertThatThrownBy(() -> KgLoader.parse("""
                metric:
                  - name: x
                metrics:
                  - name: Default Rate
                    expression: avg(1)
                    grain: loan
                  - name: no_grain
                    expression: avg(1)
                value_aliases:
                  - name: half
                    table: district
                """, "kg/b.kg.yaml")).isInstanceOf(KgException.class).hasMessage(String.join("\n",
                "kg/b.kg.yaml: unknown section 'metric'; sections are tables, concepts, metrics, join_paths,"
                        + " disambiguations, value_aliases, predictions, examples, types",
                "kg/b.kg.yaml: metrics: an entry has name 'Default Rate'; names are lowercase words joined by '_',"
                        + " e.g. default_rate (entry: {\"name\":\"Default Rate\",\"expression\":\"avg(1)\",\"grain\":\"loan\"})",
                "kg/b.kg.yaml: metrics[no_grain]: needs 'expression' and 'grain'",
                "kg/b.kg.yaml: value_aliases[half]: needs 'table', 'column' and 'value'"));
    }
}
