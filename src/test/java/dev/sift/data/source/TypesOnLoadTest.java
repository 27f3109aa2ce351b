package dev.sift.data.source;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.LoadReport;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Text columns get the type their values show on load; what stays text is reported with its fix. */
class TypesOnLoadTest {
    @TempDir
    Path tmp;

    private String type(Dataset ds, String table, String column) throws Exception {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            return ws.table(table).orElseThrow().columns().stream().filter(c -> c.name().equals(column)).findFirst()
                    .orElseThrow().type();
        }
    }

    @Test
    void the_shop_gets_dates_timestamps_and_prices_typed_and_its_report_names_what_stayed_text_and_the_variants()
            throws Exception {
        Dataset shop = TestDatasets.shop();
        assertThat(type(shop, "customers", "signup_date")).isEqualTo("DATE");
        assertThat(type(shop, "orders", "order_date")).isEqualTo("TIMESTAMP");
        assertThat(type(shop, "products", "unit_price")).isEqualTo("DOUBLE");
        assertThat(type(shop, "orders", "delivery_date")).isEqualTo("VARCHAR");
        List<String> lines = TestDatasets.store().loadReport("shop").lines();
        assertThat(lines).contains("customers.signup_date: date (160 values in DD.MM.YYYY)",
                "orders.order_date: timestamp (1800 values in YYYY-MM-DD HH:MM)",
                "products.unit_price: number (28 values like '£1,099.00')",
                "customers.segment: case variants 'Retail' (97), 'retail' (13)",
                "orders.channel: case variants 'Web' (916), 'web' (174)");
        assertThat(lines).anyMatch(l -> l.startsWith("products.category: near-duplicates ") && l.contains("'Electronics' (7)")
                && l.contains("'Electronic' (1)"));
        assertThat(lines).anyMatch(l -> l.startsWith("orders.delivery_date stays text: 1080 YYYY-MM-DD, 534 DD/MM/YYYY or"
                + " MM/DD/YYYY; e.g.") && l.endsWith("Fix: --types orders.delivery_date=date:%Y-%m-%d|%d/%m/%Y"));
    }

    @Test
    void an_ambiguous_day_month_order_stays_text_until_the_user_says_which() throws Exception {
        Path f = Files.writeString(tmp.resolve("visits.csv"), "visit_id,day\n1,07/04/2021\n2,08/04/2021\n3,01/12/2021\n");
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        Dataset plain = store.ensure("visits", new FileLoader(List.of(f)), Progress.NONE);
        assertThat(type(plain, "visits", "day")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = store.loadReport("visits").keptText().get(0);
        assertThat(kept.formats()).containsEntry("DD/MM/YYYY or MM/DD/YYYY", 3L);
        assertThat(kept.fix()).isEqualTo("--types visits.day=date:%d/%m/%Y");

        Dataset typed = store.ensure("visits", new FileLoader(List.of(f), ColumnType.parseAll(List.of("visits.day=date:%d/%m/%Y"))),
                Progress.NONE);
        assertThat(type(typed, "visits", "day")).isEqualTo("DATE");
        try (Workspace ws = Workspace.open(typed, Workspace.Limits.defaults())) {
            assertThat(ws.query("SELECT CAST(day AS VARCHAR) FROM visits WHERE visit_id = 1").scalar()).isEqualTo("2021-04-07");
        }
    }

    /** {@code rows} ISO dates (a day each from 2020-01-01) and then {@code last}, as a CSV file {@code name}.csv. */
    private Path dates(String name, int rows, String last) throws Exception {
        StringBuilder csv = new StringBuilder("id,day\n");
        java.time.LocalDate d = java.time.LocalDate.of(2020, 1, 1);
        for (int i = 0; i < rows; i++) {
            csv.append(i).append(',').append(d.plusDays(i)).append('\n');
        }
        csv.append(rows).append(',').append(last).append('\n');
        return Files.writeString(tmp.resolve(name + ".csv"), csv);
    }

    @Test
    void a_date_column_is_typed_while_the_table_is_written_and_counts_every_value() throws Exception {
        Path f = dates("days", 5000, " 2035-09-08 ");
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        Dataset ds = store.ensure("days", new FileLoader(List.of(f)), Progress.NONE);
        assertThat(type(ds, "days", "day")).isEqualTo("DATE");
        assertThat(store.loadReport("days").lines()).contains("days.day: date (5001 values in YYYY-MM-DD)");
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(ws.query("SELECT CAST(day AS VARCHAR) FROM days WHERE id = 5000").scalar()).isEqualTo("2035-09-08");
        }
    }

    @Test
    void a_value_in_another_format_after_the_first_rows_keeps_the_column_text_with_every_value_counted() throws Exception {
        Path f = dates("days", 5000, "2033/09/08");
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        Dataset ds = store.ensure("days", new FileLoader(List.of(f)), Progress.NONE);
        assertThat(type(ds, "days", "day")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = store.loadReport("days").keptText().get(0);
        assertThat(kept.formats()).containsExactly(java.util.Map.entry("YYYY-MM-DD", 5000L), java.util.Map.entry("YYYY/MM/DD", 1L));
        assertThat(kept.fix()).isEqualTo("--types days.day=date:%Y-%m-%d|%Y/%m/%d");
    }

    @Test
    void an_impossible_date_after_the_first_rows_keeps_the_column_text_and_says_how_many() throws Exception {
        Path f = dates("days", 5000, "2033-02-30");
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        Dataset ds = store.ensure("days", new FileLoader(List.of(f)), Progress.NONE);
        assertThat(type(ds, "days", "day")).isEqualTo("VARCHAR");
        LoadReport.KeptText kept = store.loadReport("days").keptText().get(0);
        assertThat(kept.formats()).containsExactly(java.util.Map.entry("YYYY-MM-DD (1 not valid dates)", 5001L));
        assertThat(kept.fix()).isEqualTo("--types days.day=date:%Y-%m-%d");
    }

    @Test
    void a_type_that_does_not_fit_every_value_fails_the_load_naming_a_value_and_the_fix() throws Exception {
        Path f = Files.writeString(tmp.resolve("visits.csv"), "visit_id,day\n1,07/04/2021\n2,2021-04-09\n");
        DatasetStore store = new DatasetStore(tmp.resolve("store"));
        assertThatThrownBy(() -> store.ensure("visits", new FileLoader(List.of(f),
                ColumnType.parseAll(List.of("visits.day=date:%d/%m/%Y"))), Progress.NONE))
                .hasMessage("--types visits.day=date:%d/%m/%Y: 1 values of visits.day do not fit, e.g. '2021-04-09'; give every"
                        + " format the column uses, separated by '|' (e.g. date:%Y-%m-%d|%d/%m/%Y), or leave the column as text");
        assertThatThrownBy(() -> ColumnType.parse("visits.day=when"))
                .hasMessage("--types 'visits.day=when': unknown kind 'when'; use one of date, timestamp, number, text");
        assertThatThrownBy(() -> store.ensure("visits", new FileLoader(List.of(f),
                ColumnType.parseAll(List.of("visit.day=text"))), Progress.NONE))
                .hasMessage("--types visit.day=text: no file loads as table 'visit'; the tables are visits");
    }
}
