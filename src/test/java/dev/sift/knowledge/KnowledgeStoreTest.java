package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetTables;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The caches that replaced process-wide statics: owned by an object, shared through it, bounded. */
class KnowledgeStoreTest {

    @Test
    void one_store_builds_a_datasets_knowledge_once_and_two_stores_share_nothing() throws Exception {
        try (Workspace a = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
             Workspace b = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            KnowledgeStore store = new KnowledgeStore(2);
            Knowledge k = store.of(a);
            assertThat(store.of(b)).isSameAs(k);
            assertThat(store.size()).isEqualTo(1);
            assertThat(new KnowledgeStore(2).of(a)).isNotSameAs(k);
            assertThat(store.lazy(b).get()).isSameAs(k);
        }
    }

    @Test
    void the_described_tables_cache_keeps_at_most_its_capacity_least_recently_used_out_first() throws Exception {
        Dataset bank = TestDatasets.bank();
        DatasetTables tables = new DatasetTables(1);
        AtomicInteger described = new AtomicInteger();
        List<TableInfo> first = tables.of(bank, () -> {
            described.incrementAndGet();
            return List.of();
        });
        assertThat(tables.of(bank, () -> {
            described.incrementAndGet();
            return List.of();
        })).isSameAs(first);
        Dataset other = new Dataset(bank.name() + "_copy", bank.file(), "another-fingerprint", bank.description(),
                bank.builtAt(), bank.tables());
        tables.of(other, List::of);
        assertThat(tables.size()).isEqualTo(1);
        tables.of(bank, () -> {
            described.incrementAndGet();
            return List.of();
        });
        assertThat(described).hasValue(2);
        assertThatThrownBy(() -> new DatasetTables(0)).hasMessage("capacity must be at least 1, got 0");
    }
}
