package dev.sift.tool.analysis;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The data-quality report names values of low-cardinality text columns that are one thing written differently. */
class DataQualityLookAlikesTest {
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static List<DataQualityReport.Finding> findings(String table) throws Exception {
        return DataQualityReport.report(ws, () -> Knowledge.build(ws, java.util.Optional.empty()), ws.table(table).orElseThrow())
                .findings();
    }

    @Test
    void case_variants_count_the_rows_of_the_less_common_spelling() throws Exception {
        var report = DataQualityReport.report(ws, () -> Knowledge.build(ws, java.util.Optional.empty()),
                ws.table("orders").orElseThrow());
        DataQualityReport.Finding channel = report.findings().stream()
                .filter(f -> f.check().equals("case variants") && f.column().equals("channel")).findFirst().orElseThrow();
        long web = ws.query("SELECT count(*) FROM orders WHERE channel = 'web'").rows().get(0).get(0) instanceof Number n
                ? n.longValue() : -1;
        assertThat(channel.count()).isEqualTo(web);
        assertThat(channel.severity()).isEqualTo("medium");
        assertThat(channel.example()).isEqualTo("'web' (" + web + ")");
        assertThat(channel.detail()).startsWith("case variants 'Web' (").contains("'web' (" + web + ")")
                .endsWith("probably one value written in several ways; a value alias or concept in the knowledge file can"
                        + " say what it means");
        assertThat(report.checks()).anyMatch(c -> c.matches("look-alike values in \\d+ low-cardinality text columns"));
        assertThat(findings("customers")).anyMatch(f -> f.check().equals("case variants") && f.column().equals("segment")
                && f.detail().contains("'Retail' (") && f.detail().contains("'retail' ("));
    }

    @Test
    void near_duplicates_are_named_with_each_spelling() throws Exception {
        DataQualityReport.Finding category = findings("products").stream()
                .filter(f -> f.check().equals("near-duplicates")).findFirst().orElseThrow();
        assertThat(category.column()).isEqualTo("category");
        assertThat(category.detail()).startsWith("near-duplicates ").contains("'Electronics' (7)", "'Electronic' (1)");
        assertThat(category.count()).isEqualTo(1);
        assertThat(category.example()).isEqualTo("'Electronic' (1)");
    }

    @Test
    void columns_of_many_values_are_not_looked_at() throws Exception {
        assertThat(findings("customers")).noneMatch(f -> f.column() != null && (f.column().equals("name")
                || f.column().equals("email")) && f.check().matches("case variants|near-duplicates"));
    }
}
