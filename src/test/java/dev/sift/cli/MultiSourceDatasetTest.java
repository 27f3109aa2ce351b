package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgBuilder;
import dev.sift.knowledge.KgEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dataset of several sources (a SQLite file and a DuckDB file) has one schema per source, and the rest of
 * Sift sees its tables as {@code schema.table}: {@code sql}, {@code ask}, the schema shown and the automatic
 * knowledge graph, whose joins cross schemas.
 */
class MultiSourceDatasetTest {
    @TempDir
    static Path home;
    @TempDir
    static Path data;

    @BeforeAll
    static void build() throws Exception {
        CliHarness.useHome(home);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("sales.sqlite"));
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, amount DECIMAL(10,2))");
            st.execute("INSERT INTO orders VALUES (1, 1, 10.50), (2, 1, 20.00), (3, 2, 5.25), (4, 3, 1.00)");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + data.resolve("crm.duckdb"));
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customer (customer_id INTEGER, name VARCHAR, city VARCHAR)");
            st.execute("INSERT INTO customer VALUES (1, 'Ann', 'Prague'), (2, 'Bob', 'Brno'), (3, 'Cy', 'Prague')");
        }
        Files.writeString(data.resolve("shop.yaml"), "sources:\n  sales: sales.sqlite\n  crm: crm.duckdb\n");
        CliHarness.Result r = ok("load", "shop", data.resolve("shop.yaml").toString());
        assertThat(r.out().lines().toList()).containsExactly("Built dataset 'shop' — 2 sources: sales, crm",
                "  crm.customer 3 rows", "  sales.orders 4 rows");
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void sql_joins_tables_of_two_sources_by_their_schema() {
        assertThat(ok("sql", "--dataset", "shop", "SELECT c.city, sum(o.amount) AS total FROM sales.orders o JOIN"
                + " crm.customer c ON c.customer_id = o.customer_id GROUP BY 1 ORDER BY 1", "--format", "csv").out().lines())
                .containsExactly("city,total", "Brno,5.25", "Prague,31.5");
    }

    @Test
    void ask_answers_over_a_schema_qualified_table() {
        CliHarness.assumeOffline();
        JsonNode answer = ok("ask", "--dataset", "shop", "--json", "how many orders are there?").json();
        assertThat(answer.get("kind").asText()).as(answer.toString()).isEqualTo("answer");
        assertThat(answer.get("evidence").get(0).get("sql").asText()).contains("sales").contains("orders");
        assertThat(answer.get("evidence").get(0).get("rows").get(0).get(0).asLong()).isEqualTo(4);
    }

    @Test
    void the_automatic_knowledge_graph_finds_the_join_across_sources() {
        try (Workspace ws = Workspace.open(DatasetStore.under(home).get("shop"), Workspace.Limits.defaults())) {
            assertThat(ws.datasetTables()).extracting(t -> t.name() + " " + t.sqlName())
                    .containsExactly("crm.customer \"crm\".\"customer\"", "sales.orders \"sales\".\"orders\"");
            assertThat(ws.table("orders")).get().extracting(t -> t.name()).isEqualTo("sales.orders");
            assertThat(KgBuilder.build(ws).joins()).extracting(KgEntry.Join::fromTable, KgEntry.Join::fromColumn,
                    KgEntry.Join::toTable, KgEntry.Join::toColumn)
                    .contains(org.assertj.core.groups.Tuple.tuple("sales.orders", "customer_id", "crm.customer", "customer_id"));
        }
    }

    @Test
    void datasets_lists_each_source() {
        assertThat(ok("datasets").out()).contains("shop — 2 sources: sales, crm (built ")
                .contains("  from sales: SQLite file " + data.resolve("sales.sqlite").toAbsolutePath().normalize())
                .contains("  from crm: DuckDB file " + data.resolve("crm.duckdb").toAbsolutePath().normalize())
                .containsPattern("(?m)^  sales.orders +4 rows$");
    }
}
