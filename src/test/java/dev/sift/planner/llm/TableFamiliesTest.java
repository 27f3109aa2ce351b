package dev.sift.planner.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.ColumnInfo;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.TableFamilies;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.data.source.DatasetSources;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Families of same-shape tables: 24 monthly tables of a DuckDB file are one line of the schema block and one frame
 * through union_family; 2,500 ticker tables are one line too; lookup tables that merely share columns stay tables.
 */
class TableFamiliesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path tmp;

    private Dataset monthly() throws Exception {
        Path file = tmp.resolve("usage.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            for (int y = 2023; y <= 2024; y++) {
                for (int m = 1; m <= 12; m++) {
                    st.execute(String.format("CREATE TABLE usage_%d_%02d AS SELECT i AS meter_id, make_date(%d, %d, 1)"
                            + " AS day, (i * %d) %% 17 + 0.5 AS kwh FROM range(%d) t(i)", y, m, y, m, m + y % 10, 10 + m));
                }
            }
            st.execute("CREATE TABLE country AS SELECT 1 AS id, 'CZ' AS name");
            st.execute("CREATE TABLE city AS SELECT 1 AS id, 'Prague' AS name");
            st.execute("CREATE TABLE region AS SELECT 1 AS id, 'Bohemia' AS name");
        }
        return new DatasetStore(tmp.resolve("datasets")).load("usage", DatasetSources.of(List.of("usage.duckdb"), tmp,
                Map.of()), false, false, Progress.NONE);
    }

    @Test
    void twenty_four_monthly_tables_are_one_schema_line_and_one_frame_with_their_part() throws Exception {
        try (Workspace ws = Workspace.open(monthly(), Workspace.Limits.defaults())) {
            String block = DatasetBlock.render(ws, null, "What was the total kWh in 2023?");
            List<String> familyLines = block.lines().filter(l -> l.contains("usage_")).toList();
            assertThat(familyLines).singleElement().satisfies(l -> assertThat(l)
                    .startsWith("family usage_{part} (24 tables of one shape, part 2023_01 … 2024_12; 396 rows in all)")
                    .contains("meter_id BIGINT").contains("kwh DECIMAL").contains("union_family family=usage_{part}"));
            assertThat(block).contains("table country").contains("table city").contains("table region");

            ToolRegistry tools = Sift.defaultTools();
            ToolResult r = tools.run(tools.prepare("union_family", JSON.readTree("{\"family\":\"usage_{part}\"}"), ws),
                    new ToolContext(ws, null, "q"));
            assertThat(r.ok()).as(r.error()).isTrue();
            assertThat(r.summary()).contains("Unioned 24 of the 24 tables of usage_{part}: 396 rows")
                    .contains("frames.family_usage");
            // the frame's sums per part against each table summed on its own
            for (String part : List.of("2023_01", "2023_07", "2024_12")) {
                Object whole = ws.query("SELECT sum(kwh) FROM usage_" + part).scalar();
                assertThat(ws.query("SELECT sum(kwh) FROM frames.family_usage WHERE part = '" + part + "'").scalar())
                        .isEqualTo(whole);
            }
            ToolResult some = tools.run(tools.prepare("union_family", JSON.readTree("{\"family\":\"usage\",\"parts\":"
                    + "[\"2024_01\",\"2024_02\"],\"label\":\"early_2024\"}"), ws), new ToolContext(ws, null, "q"));
            assertThat(ws.query("SELECT count(*) FROM frames.early_2024").scalar()).isEqualTo(11L + 12L);
            assertThat(some.summary()).contains("Unioned 2 of the 24 tables");
            ToolResult bad = tools.run(tools.prepare("union_family", JSON.readTree("{\"family\":\"usage\",\"parts\":"
                    + "[\"2025_01\"]}"), ws), new ToolContext(ws, null, "q"));
            assertThat(bad.error()).contains("has no part 2025_01").contains("2023_01 … 2024_12 (24 tables)");
        }
    }

    @Test
    void two_thousand_five_hundred_ticker_tables_are_one_line_of_the_prompt() {
        List<ColumnInfo> cols = List.of(new ColumnInfo("Date", "DATE", "2020-01-02"), new ColumnInfo("Open", "DOUBLE", "12.5"),
                new ColumnInfo("Close", "DOUBLE", "12.7"), new ColumnInfo("Volume", "BIGINT", "120300"));
        List<TableInfo> tables = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            String ticker = "" + (char) ('A' + i % 26) + (char) ('A' + i / 26 % 26) + (char) ('A' + i / 676);
            tables.add(new TableInfo("stocktrade." + ticker, TableInfo.Kind.TABLE, 250, cols));
        }
        tables.add(new TableInfo("stockinfo.stockinfo", TableInfo.Kind.TABLE, 2500, List.of(new ColumnInfo("Symbol",
                "VARCHAR", "AAPL"), new ColumnInfo("Company", "VARCHAR", "Apple"))));
        List<TableFamilies.Family> families = TableFamilies.of(tables);
        assertThat(families).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo("stocktrade.{part}");
            assertThat(f.members()).hasSize(2500);
            assertThat(f.part(f.members().get(0))).isEqualTo("AAA");
        });
        String line = DatasetBlock.familyLine(families.get(0));
        assertThat(line).doesNotContain("\n").hasSizeLessThan(400)
                .startsWith("family stocktrade.{part} (2,500 tables of one shape, part AAA … ZZC; 625,000 rows in all)");
    }

    @Test
    void three_lookup_tables_with_the_same_columns_but_no_common_stem_are_not_a_family() {
        List<ColumnInfo> cols = List.of(new ColumnInfo("id", "INTEGER", "1"), new ColumnInfo("name", "VARCHAR", "x"));
        List<TableInfo> tables = List.of(new TableInfo("country", TableInfo.Kind.TABLE, 3, cols),
                new TableInfo("city", TableInfo.Kind.TABLE, 3, cols), new TableInfo("region", TableInfo.Kind.TABLE, 3, cols),
                new TableInfo("sales2021", TableInfo.Kind.TABLE, 3, cols.subList(0, 1)),
                new TableInfo("sales2022", TableInfo.Kind.TABLE, 3, cols.subList(0, 1)),
                new TableInfo("sales2023", TableInfo.Kind.TABLE, 3, cols.subList(0, 1)));
        assertThat(TableFamilies.of(tables)).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo("sales{part}");
            assertThat(f.members()).extracting(f::part).containsExactly("2021", "2022", "2023");
        });
    }
}
