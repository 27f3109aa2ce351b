package dev.sift.knowledge;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.FileLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Any dataset gets an automatic graph; a user's dataset that shares the name "bank" is not given the bank's file. */
class ForeignDatasetTest {
    @TempDir
    Path tmp;

    @Test
    void a_foreign_dataset_named_bank_gets_the_automatic_graph_with_its_own_joins() throws Exception {
        Path shops = Files.writeString(tmp.resolve("shops.csv"), "shop_id,city\n1,Brno\n2,Praha\n3,Brno\n");
        Path sales = Files.writeString(tmp.resolve("sales.csv"), "sale_id,shop_id,amount\n10,1,5.5\n11,2,7\n12,1,1\n");
        Path stray = Files.writeString(tmp.resolve("visits.csv"), "visit_id,shop_id\n1,1\n2,9\n");
        Dataset ds = new DatasetStore(tmp.resolve("store")).ensure("bank", new FileLoader(List.of(shops, sales, stray)),
                Progress.NONE);
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            KnowledgeGraph kg = Knowledge.of(ws).graph();
            assertThat(kg.source()).isEmpty();
            assertThat(kg.concepts()).isEmpty();
            // visits.shop_id holds 9, which no shop has: half its values are found, so it stays a candidate
            assertThat(kg.joins()).extracting(KgEntry::describe).containsExactly(
                    "join sales.shop_id = shops.shop_id (approved: key → foreign key, many-to-one)",
                    "join visits.shop_id = shops.shop_id (candidate, not approved: 50.0 % of values found)");
            assertThat(kg.column("shops", "city").orElseThrow().values()).containsExactly("Brno", "Praha");
            assertThat(Knowledge.of(ws).values().resolve("praha")).extracting(ValueIndex.Match::describe)
                    .containsExactly("shops.city = 'Praha'");
        }
    }
}
