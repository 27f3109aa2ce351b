package dev.sift.data;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.knowledge.Knowledge;
import dev.sift.planner.llm.PromptBuilder;
import dev.sift.text.SchemaRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The schema line shows what a query would trip on, counted on the data itself. */
class ColumnFactsTest {

    private static ColumnInfo column(Workspace ws, String table, String column) {
        return ws.table(table).orElseThrow().column(column).orElseThrow();
    }

    @Test
    void nulls_negatives_variants_and_text_date_formats_are_counted() throws Exception {
        StringBuilder csv = new StringBuilder("id,qty,channel,shipped_on,kind\n");
        for (int i = 1; i <= 60; i++) {
            String qty = i <= 4 ? "-" + i : String.valueOf(i);
            String channel = i % 10 == 0 ? "web" : i % 2 == 0 ? "Web" : i % 7 == 0 ? "" : "Phone";
            String date = i <= 30 ? "2024-03-" + String.format("%02d", i % 28 + 1) : i <= 50 ? "15/03/2024"
                    : i <= 55 ? "03/04/2024" : "";
            String kind = i % 15 == 0 ? "Electronic" : "Electronics";
            csv.append(i).append(',').append(qty).append(',').append(channel).append(',').append(date).append(',')
                    .append(kind).append('\n');
        }
        Dataset ds = TestDatasets.csv("facts", Map.of("orders.csv", csv.toString()));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(column(ws, "orders", "qty").facts()).isEqualTo(new ColumnFacts(0, 4, java.util.List.of(),
                    java.util.List.of(), 0));
            ColumnFacts channel = column(ws, "orders", "channel").facts();
            long webLower = 6;
            long webUpper = 30 - webLower;
            assertThat(channel.variants()).containsExactly("'Web' (" + webUpper + ")/'web' (" + webLower + ")");
            assertThat(channel.nulls()).isEqualTo(4); // i = 7, 21, 35, 49: empty fields load as NULL
            assertThat(column(ws, "orders", "shipped_on").facts().dateFormats()).containsExactly("YYYY-MM-DD (30, 55%)",
                    "DD/MM/YYYY (20, 36%)", "NN/NN/YYYY (day or month first: no value tells) (5, 9%)");
            assertThat(column(ws, "orders", "shipped_on").facts().nulls()).isEqualTo(5);
            assertThat(column(ws, "orders", "kind").facts().variants()).containsExactly(
                    "'Electronics' (56)/'Electronic' (4)");
            assertThat(SchemaRenderer.line(ws.table("orders").orElseThrow())).contains(
                    "qty BIGINT e.g. ").contains(" [4 negative]").contains(" [4 null; variants 'Web' (24)/'web' (6)]")
                    .contains(" [5 null; text dates YYYY-MM-DD (30, 55%), DD/MM/YYYY (20, 36%), NN/NN/YYYY (day or month"
                            + " first: no value tells) (5, 9%)]");
            assertThat(column(ws, "orders", "id").facts().isEmpty()).isTrue();
        }
    }

    @Test
    void look_alike_names_are_shown_in_the_schema_only_when_the_question_links_their_column() throws Exception {
        StringBuilder csv = new StringBuilder("id,name,channel\n");
        for (int i = 1; i <= 60; i++) {
            String name = i == 1 ? "Brian" : i == 2 ? "brian" : "Person " + i;
            csv.append(i).append(',').append(name).append(',').append(i % 10 == 0 ? "web" : "Web").append('\n');
        }
        Dataset ds = TestDatasets.csv("names", Map.of("people.csv", csv.toString()));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            ColumnFacts name = column(ws, "people", "name").facts();
            assertThat(name.variants()).containsExactly("'Brian' (1)/'brian' (1)");
            assertThat(name.manyValues()).isTrue();
            assertThat(column(ws, "people", "channel").facts().manyValues()).isFalse();
            TableInfo people = ws.table("people").orElseThrow();
            assertThat(SchemaRenderer.line(people)).doesNotContain("'brian'").contains("channel VARCHAR e.g. 'Web'"
                    + " [variants 'Web' (54)/'web' (6)]");
            assertThat(SchemaRenderer.line(people, new SchemaRenderer.Notes(Map.of(), java.util.Set.of("people.name"))))
                    .contains("[variants 'Brian' (1)/'brian' (1)]");
        }
    }

    @Test
    void text_dates_with_month_names_are_found_with_every_format_and_its_share() throws Exception {
        StringBuilder csv = new StringBuilder("id,posted\n");
        for (int i = 1; i <= 30; i++) {
            String posted = i <= 10 ? "2017-04-" + String.format("%02d", i) + " 12:15:00" : i <= 19 ? "2" + (i - 10)
                    + " May 2013, 23:01" : i <= 29 ? "April 0" + (i % 9 + 1) + ", 2017 at 12:15 PM" : "soon";
            csv.append(i).append(",\"").append(posted).append("\"\n");
        }
        Dataset ds = TestDatasets.csv("months", Map.of("posts.csv", csv.toString()));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(column(ws, "posts", "posted").facts().dateFormats()).containsExactly(
                    "YYYY-MM-DD HH:MM:SS (10, 33%)", "Month DD, YYYY at HH:MM AM (10, 33%)", "DD Month YYYY, HH:MM (9, 30%)",
                    "other (1, 3%)");
        }
    }

    @Test
    void a_time_format_is_labelled_from_its_values_seconds_and_fractions_included() throws Exception {
        StringBuilder csv = new StringBuilder("id,posted\n");
        for (int i = 1; i <= 12; i++) {
            // one value in words keeps the column text (ISO values alone would load as timestamps)
            String posted = i <= 5 ? "2016-02-0" + i + " 19:41:33" : i <= 8 ? "2016-02-0" + i + " 19:41"
                    : i <= 10 ? "2016-02-1" + i % 10 + " 19:41:33.250" : i == 11 ? "2016-02-13T19:41:33" : "February 14, 2016";
            csv.append(i).append(",\"").append(posted).append("\"\n");
        }
        try (Workspace ws = Workspace.open(TestDatasets.csv("seconds", Map.of("posts.csv", csv.toString())),
                Workspace.Limits.defaults())) {
            assertThat(column(ws, "posts", "posted").facts().render()).isEqualTo("text dates YYYY-MM-DD HH:MM:SS (5, 42%),"
                    + " YYYY-MM-DD HH:MM (3, 25%), YYYY-MM-DD HH:MM:SS.fraction (2, 17%), YYYY-MM-DDTHH:MM:SS (1, 8%),"
                    + " Month DD, YYYY (1, 8%)");
        }
    }

    @Test
    void documents_in_text_show_their_keys_python_literals_apart_from_json() throws Exception {
        StringBuilder csv = new StringBuilder("id,parking,tags,meta,note\n");
        for (int i = 1; i <= 10; i++) {
            String parking = i == 9 ? "" : i == 10 ? "None" : i % 2 == 1 ? "{'garage': False, 'lot': True}" : "{'garage': True}";
            String tags = i <= 6 ? "['Books', 'Fiction']" : "['Books']";
            String meta = i <= 5 ? "{\"\"size\"\": 3, \"\"color\"\": \"\"red\"\"}" : "{\"\"size\"\": 1}";
            csv.append(i).append(",\"").append(parking).append("\",\"").append(tags).append("\",\"").append(meta)
                    .append("\",[draft] note ").append(i).append('\n');
        }
        Dataset ds = TestDatasets.csv("documents", Map.of("places.csv", csv.toString()));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(column(ws, "places", "parking").facts().documents())
                    .isEqualTo("Python-literal dicts, keys 'garage' (100%), 'lot' (50%)");
            assertThat(column(ws, "places", "tags").facts().documents())
                    .isEqualTo("Python-literal lists, common items 'Books' (100%), 'Fiction' (60%)");
            assertThat(column(ws, "places", "meta").facts().documents()).isEqualTo("JSON text, keys 'size' (100%), 'color' (50%)");
            assertThat(column(ws, "places", "note").facts().documents()).as("brackets alone are no document").isNull();
            assertThat(SchemaRenderer.line(ws.table("places").orElseThrow()))
                    .contains(" [1 null; Python-literal dicts, keys 'garage' (100%), 'lot' (50%)]");
        }
    }

    @Test
    void frames_are_described_without_facts() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            ws.saveFrame("seg", "SELECT segment FROM customers");
            assertThat(column(ws, "seg", "segment").facts()).isEqualTo(ColumnFacts.NONE);
            assertThat(column(ws, "customers", "segment").facts().variants()).singleElement().asString()
                    .matches("'Retail' \\(\\d+\\)/'retail' \\(\\d+\\)");
        }
    }

    @Test
    void a_value_the_question_names_lists_every_spelling_of_it() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            String known = PromptBuilder.knowledge(Knowledge.load(ws), "How many retail customers ordered on the web?");
            assertThat(known).contains("- value in the data: 'Retail' / 'retail' are customers.segment = 'Retail' /"
                    + " 'retail' — one value written 2 ways: match all of them (e.g. lower(segment) = 'retail') or say"
                    + " which one you count").contains("- value in the data: 'Web' / 'web' are orders.channel = 'Web' /"
                    + " 'web' — one value written 2 ways");
        }
    }

    @Test
    void describing_the_tables_reads_no_facts_until_a_column_s_facts_are_asked_for() throws Exception {
        Dataset shop = TestDatasets.shop();
        DatasetTables tables = new DatasetTables(2);
        try (Workspace ws = Workspace.open(shop, Workspace.Limits.defaults(), null, tables)) {
            assertThat(ws.tables()).extracting(TableInfo::name).contains("customers", "orders");
            assertThat(tables.factsRead(shop)).isZero();
            assertThat(column(ws, "customers", "segment").facts().variants()).hasSize(1);
            assertThat(tables.factsRead(shop)).isEqualTo(1); // the one table asked about, all its columns at once
            column(ws, "customers", "name").facts();
            assertThat(tables.factsRead(shop)).isEqualTo(1);
        }
    }

    @Test
    void facts_are_read_through_the_workspace_that_asks_and_kept_for_the_next() throws Exception {
        Dataset shop = TestDatasets.shop();
        DatasetTables tables = new DatasetTables(2);
        try (Workspace first = Workspace.open(shop, Workspace.Limits.defaults(), null, tables)) {
            first.tables(); // describes the dataset, reads no facts; then closes its connection
        }
        ColumnFacts segment;
        try (Workspace second = Workspace.open(shop, Workspace.Limits.defaults(), null, tables)) {
            segment = column(second, "customers", "segment").facts();
            assertThat(segment.variants()).singleElement().asString().startsWith("'Retail' (");
        }
        try (Workspace third = Workspace.open(shop, Workspace.Limits.defaults(), null, tables)) {
            assertThat(column(third, "customers", "segment").facts()).isEqualTo(segment);
            assertThat(tables.factsRead(shop)).isEqualTo(1);
        }
    }

    @Test
    void an_offline_answer_reads_no_column_facts(@TempDir Path home) throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        Dataset shop = TestDatasets.shop();
        Sift.Answered answered = sift.ask("How many customers are there?", shop, AgentConfig.defaults());
        assertThat(answered.run().answer()).contains("customers");
        assertThat(sift.store().tables().factsRead(shop)).isZero();
    }
}
