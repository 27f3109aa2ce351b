package dev.sift.knowledge;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.PkddLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The curated pkdd graph against the real PKDD'99 files (skipped when they are not in this checkout). */
class PkddKnowledgeTest {
    static final Path REAL = Path.of("..", "shared", "data", "berka");

    @TempDir
    static Path store;

    @Test
    void the_curated_graph_validates_against_the_real_data_and_the_automatic_joins_are_the_true_keys() throws Exception {
        assumeTrue(Files.isDirectory(REAL),
                "../shared/data/berka not found: real PKDD'99 files are not in this checkout; skipping");
        Dataset pkdd = new DatasetStore(store).ensure("pkdd", new PkddLoader(REAL), Progress.NONE);
        try (Workspace ws = Workspace.open(pkdd, Workspace.Limits.defaults())) {
            Knowledge k = Knowledge.load(ws); // throws KgException if any curated entry does not match the data
            assertThat(k.graph().source()).contains("kg/pkdd.kg.yaml");
            assertThat(KgBuilder.build(ws).joins()).extracting(j -> j.fromTable() + "." + j.fromColumn() + " -> "
                    + j.toTable() + "." + j.toColumn()).containsExactlyInAnyOrder(
                    "account.district_id -> district.A1", "card.disp_id -> disp.disp_id",
                    "client.district_id -> district.A1", "disp.account_id -> account.account_id",
                    "disp.client_id -> client.client_id", "loan.account_id -> account.account_id",
                    "order.account_id -> account.account_id", "trans.account_id -> account.account_id");
            assertThat(k.values().resolve("Prague")).extracting(ValueIndex.Match::value).containsExactly("Hl.m. Praha");
            assertThat(k.values().resolve("weekly statements")).extracting(ValueIndex.Match::value)
                    .containsExactly("POPLATEK TYDNE");
        }
    }
}
