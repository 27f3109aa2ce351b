package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's knowledge file from the command line: {@code kg init / check / show}, {@code --kg FILE} on ask, saved
 * answers ({@code ask --save}) that the offline planner answers again with their SQL, and column types declared in
 * the file applied on load.
 */
class KgCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void shop() {
        CliHarness.useHome(home);
        ok("load", "shop");
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void init_writes_a_commented_starter_that_checks_clean_and_refuses_to_overwrite() throws Exception {
        Path file = home.resolve("starter.kg.yaml");
        assertThat(ok("kg", "init", "shop", "--out", file.toString()).out()).startsWith("Wrote " + file);
        String text = Files.readString(file);
        assertThat(text).contains("#   orders.customer_id = customers.customer_id  (many-to-one)")
                .contains("#     channel: {description: \"channel\"}    # VARCHAR; values: 'Phone', 'Store', 'Web', 'web'")
                .contains("# The load found orders.channel: case variants 'Web' (916), 'web' (174)")
                .contains("#   orders.delivery_date: date:%Y-%m-%d|%d/%m/%Y    # stays text now:")
                .endsWith("examples:\n");
        assertThat(ok("kg", "check", "shop", file.toString()).out()).startsWith("OK: " + file + " matches dataset 'shop'");
        assertThat(usageError("kg", "init", "shop", "--out", file.toString()))
                .isEqualTo("sift: error: " + file + " exists already: edit it, check it with 'sift kg check shop', or add"
                        + " --force to replace it with a new starter.");
    }

    @Test
    void check_names_the_line_and_the_fix_of_every_problem() throws Exception {
        Path file = home.resolve("bad.kg.yaml");
        Files.writeString(file, """
                tables:
                  orders:
                    columns:
                      chanel: {description: where it was ordered}
                metrics:
                  - name: margin
                    expression: "sum(orders.quantity * products.unit_costs)"
                    grain: orders
                    tables: [orders, products]
                examples:
                  - question: How many orders?
                    sql: "SELECT count(*) FROM order"
                """);
        CliHarness.Result r = run("kg", "check", "shop", file.toString());
        assertThat(r.exit()).isEqualTo(Main.USAGE_ERROR);
        assertThat(r.out().lines()).hasSize(3);
        assertThat(r.out()).contains(file + ":4: tables.orders.columns.chanel: column orders.chanel does not exist."
                        + " Table orders has columns: order_id, customer_id, product_id, order_date, quantity, channel, status,"
                        + " discount, delivery_date. Did you mean 'channel'?")
                .contains(file + ":6: metrics[margin]: column products.unit_costs does not exist.")
                .contains(file + ":11: examples[1] (\"How many orders?\"): sql does not run:");
        assertThat(r.errLines()).containsExactly("sift: error: 3 problems in " + file + " (listed above with their lines).");
    }

    @Test
    void a_saved_answer_goes_into_the_file_named_by_kg_and_is_answered_again_with_its_sql() throws Exception {
        Path file = home.resolve("mine.kg.yaml");
        Files.copy(Path.of("bench/shop.kg.yaml"), file);
        CliHarness.Result asked = ok("ask", "What is the total revenue?", "--kg", file.toString(), "--dataset", "shop",
                "--save");
        assertThat(asked.out()).startsWith("The metric revenue is 696,054.29 (GBP).");
        assertThat(asked.err()).contains("Saved as a verified example in " + file);
        assertThat(Files.readString(file)).startsWith(Files.readString(Path.of("bench/shop.kg.yaml")))
                .endsWith("examples:\n  - question: \"What is the total revenue?\"\n    sql: \"SELECT sum(CASE WHEN"
                        + " orders.status <> 'cancelled' THEN orders.quantity * products.unit_price END) AS revenue FROM orders"
                        + " JOIN products ON orders.product_id = products.product_id\"\n");
        CliHarness.Result again = ok("ask", "what is the TOTAL revenue", "--kg", file.toString(), "--dataset", "shop");
        assertThat(again.out()).startsWith("Answered with the SQL saved for this question (a verified example in " + file
                + "), run again now:").containsPattern("696,?054.29");
        assertThat(ok("kg", "show", "shop", "--kg", file.toString(), "--section", "examples").out())
                .contains("examples (1)\n  \"What is the total revenue?\"");
        assertThat(usageError("ask", "How are we doing?", "--dataset", "shop", "--kg", file.toString(), "--save"))
                .startsWith("sift: error: Nothing to save: the run ended with a clarification");
        assertThat(usageError("ask", "x", "--dataset", "shop", "--kg", home.resolve("none.yaml").toString()))
                .isEqualTo("sift: error: --kg " + home.resolve("none.yaml") + ": no such file. Write a starter with"
                        + " 'sift kg init shop --out " + home.resolve("none.yaml") + "'.");
    }

    @Test
    void types_declared_in_the_knowledge_file_type_columns_on_load() throws Exception {
        Path csv = Files.writeString(home.resolve("visits.csv"), "visit_id,day\n1,07/04/2021\n2,13/04/2021\n");
        Path kg = Files.createDirectories(home.resolve("kg")).resolve("visits.kg.yaml");
        Files.writeString(kg, "types:\n  visits.day: date:%d/%m/%Y\n");
        assertThat(ok("load", "visits", csv.toString()).out()).contains("visits.day: date");
        assertThat(ok("sql", "SELECT any_value(typeof(day)) AS t, max(day) AS d FROM visits", "--dataset", "visits").out())
                .contains("DATE").contains("2021-04-13");
        Files.writeString(kg, "types:\n  visits.day: datum\n");
        assertThat(usageError("load", "visits", csv.toString(), "--refresh")).startsWith("sift: error: " + kg
                + ": types[visits.day]: 'visits.day=datum': unknown kind 'datum'");
    }

    @Test
    void types_given_to_a_data_file_alias_of_a_sources_file_type_its_columns_on_load() throws Exception {
        Path dir = Files.createDirectories(home.resolve("typed"));
        Files.writeString(dir.resolve("visits.csv"), "visit_id,day\n1,07/04/2021\n2,13/04/2021\n");
        Path sources = Files.writeString(dir.resolve("visits.yaml"),
                "sources:\n  clinic:\n    location: visits.csv\n    types:\n      visits.day: date:%d/%m/%Y\n");
        ok("load", "clinic", sources.toString());
        assertThat(ok("sql", "SELECT any_value(typeof(day)) AS t, max(day) AS d FROM visits", "--dataset", "clinic").out())
                .contains("DATE").contains("2021-04-13");
        Files.writeString(sources, "sources:\n  clinic:\n    location: visits.csv\n    types:\n      visits.day: datum\n");
        assertThat(usageError("load", "clinic", sources.toString(), "--refresh")).contains("types of alias 'clinic':")
                .contains("unknown kind 'datum'");
    }

    @Test
    void chat_reads_the_knowledge_file_named_by_kg() throws Exception {
        CliHarness.assumeOffline();
        Path file = Files.writeString(home.resolve("chat.kg.yaml"),
                "concepts:\n  - name: buyers\n    synonyms: [buyers]\n    table: customers\n");
        try {
            ChatCommand.testInput = lines("How many buyers are there?", "/quit");
            assertThat(ok("chat", "--dataset", "shop", "--kg", file.toString()).out())
                    .contains("Evidence: SELECT count(*) AS n FROM customers");
            ChatCommand.testInput = lines("How many buyers are there?", "/quit");
            assertThat(ok("chat", "--dataset", "shop").out()).doesNotContain("Evidence: SELECT count(*) AS n FROM customers")
                    .contains("'buyers'");
        } finally {
            ChatCommand.testInput = null;
        }
        assertThat(usageError("chat", "--dataset", "shop", "--kg", home.resolve("none.yaml").toString()))
                .isEqualTo("sift: error: --kg " + home.resolve("none.yaml") + ": no such file. Write a starter with"
                        + " 'sift kg init shop --out " + home.resolve("none.yaml") + "'.");
    }

    @Test
    void serve_kg_names_the_file_of_a_dataset_by_its_name_or_by_name_equals_file() throws Exception {
        Path bare = Files.writeString(home.resolve("shop.kg.yaml"),
                "concepts:\n  - name: buyers\n    synonyms: [buyers]\n    table: customers\n");
        Path named = Files.writeString(home.resolve("my-bank-words.yaml"), "concepts: []\n");
        dev.sift.Sift sift = Runtime.offline();
        KgFileOption.useNamed(sift, bare.toString());
        KgFileOption.useNamed(sift, "bank=" + named);
        var shop = sift.store().get("shop");
        assertThat(sift.knowledge().userPath(shop)).isEqualTo(bare.toAbsolutePath());
        try (dev.sift.web.WebServer server = dev.sift.web.WebServer.start(sift,
                dev.sift.web.WebServer.Options.defaults().withPort(0))) {
            var http = java.net.http.HttpClient.newHttpClient();
            String body = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.url()
                    + "/api/datasets/shop/kg")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            var g = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
            assertThat(g.get("file").asText()).isEqualTo(bare.toAbsolutePath().toString());
            assertThat(g.get("concepts").toString()).contains("\"buyers\"");
        }
        assertThat(usageError("serve", "--port", "0", "--kg", "bank=" + home.resolve("none.yaml")))
                .isEqualTo("sift: error: --kg " + home.resolve("none.yaml") + ": no such file. Write a starter with"
                        + " 'sift kg init bank --out " + home.resolve("none.yaml") + "'.");
    }

    private static ChatRepl.LineSource lines(String... lines) {
        java.util.Deque<String> q = new java.util.ArrayDeque<>(java.util.List.of(lines));
        return prompt -> q.poll();
    }
}
