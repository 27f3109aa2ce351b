package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** MiniLM retrieval fused with BM25 by reciprocal rank, on a handful of documents (the model loads in seconds). */
class DenseRetrievalTest {

    @Test
    void dense_retrieval_finds_a_document_without_shared_words_and_fuses_with_bm25() {
        Embeddings model = Embeddings.load();
        assumeTrue(model != null, "the MiniLM embedding model could not load here (see the warning); skipping");
        List<SearchIndex.Doc> docs = List.of(
                new SearchIndex.Doc("metric:default_rate", "metric", "default rate", "share of loans not paid back"),
                new SearchIndex.Doc("column:district.A11", "column", "average salary", "average monthly wage in a district"),
                new SearchIndex.Doc("column:card.type", "column", "card type", "junior, classic or gold credit card"),
                new SearchIndex.Doc("column:client.birth_date", "column", "birth date", "date of birth of the client"));
        SearchIndex index = new SearchIndex(docs, model);
        assertThat(index.dense()).isTrue();
        // no word in common with the salary document: only the dense half can find it
        List<SearchIndex.Hit> pay = index.search("How much do people earn?", 1);
        assertThat(pay).singleElement().satisfies(h -> {
            assertThat(h.doc().id()).isEqualTo("column:district.A11");
            assertThat(h.how()).isEqualTo("dense");
        });
        List<SearchIndex.Hit> card = index.search("gold card holders", 2);
        assertThat(card.get(0).doc().id()).isEqualTo("column:card.type");
        assertThat(card.get(0).how()).isEqualTo("bm25+dense");
    }
}
