package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.PkddLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every code stored in the bank's coded columns has a meaning in the curated graph, on generated and real data. */
class CuratedCodesTest {
    static final List<String> CODED = List.of("trans.type", "trans.operation", "trans.k_symbol", "order.k_symbol",
            "loan.status");
    @TempDir
    static Path store;

    private static void everyCodeExplained(Dataset ds) throws Exception {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            KnowledgeGraph kg = Knowledge.load(ws).graph();
            for (String qualified : CODED) {
                String table = KgLoader.tableOf(qualified);
                String column = KgLoader.columnOf(qualified);
                List<Object> stored = ws.query("SELECT DISTINCT " + column + " FROM " + KgSql.table(table) + " WHERE "
                        + column + " IS NOT NULL ORDER BY 1").rows().stream().map(r -> r.get(0)).toList();
                assertThat(stored).as(qualified).isNotEmpty();
                assertThat(kg.column(table, column).orElseThrow().codes()).as(qualified + " codes")
                        .containsKeys(stored.stream().map(String::valueOf).toArray(String[]::new));
            }
            String described = kg.column("trans", "type").orElseThrow().describe();
            assertThat(described).contains("'PRIJEM' = credit (money in)", "'VYDAJ' = withdrawal (debit, money out)",
                    "'VYBER' = withdrawal in cash");
        }
    }

    @Test
    void every_code_of_the_generated_bank_has_a_meaning() throws Exception {
        everyCodeExplained(TestDatasets.bank());
    }

    @Test
    void every_code_of_the_real_pkdd_data_has_a_meaning() throws Exception {
        assumeTrue(Files.isDirectory(PkddKnowledgeTest.REAL),
                "../shared/data/berka not found: real PKDD'99 files are not in this checkout; skipping");
        everyCodeExplained(new DatasetStore(store).ensure("pkdd", new PkddLoader(PkddKnowledgeTest.REAL), Progress.NONE));
    }
}
