package dev.sift.knowledge;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Retrieval over short documents (knowledge-graph entries, schema elements, tool descriptions): Lucene BM25
 * on their names (boosted) and text, optionally fused by reciprocal rank with dense MiniLM similarity
 * ({@link Embeddings}). Text is compared as {@link Phrases#words}, and identifiers are split
 * ({@code district_id} also indexes {@code district id}). A search that finds fewer than {@code k} documents
 * broadens automatically (fuzzy and prefix matches of the question's words) and says so in {@link Hit#how}.
 * Built once, then immutable and thread-safe.
 */
public final class SearchIndex {
    /** Reciprocal-rank-fusion constant (the usual 60). */
    static final int RRF_K = 60;
    private static final float NAME_BOOST = 2.0f;
    private static final java.util.regex.Pattern CAMEL = java.util.regex.Pattern.compile("([a-z])([A-Z])");

    /** A searchable document; {@code kind} filters searches (e.g. "table", "metric", "tool"). */
    public record Doc(String id, String kind, String names, String text) { }

    /**
     * One result: the document, its fused score, the question words it matched ({@code matched}) and how it
     * was found: {@code bm25}, {@code bm25+dense}, {@code dense} or {@code broadened}.
     */
    public record Hit(Doc doc, double score, List<String> matched, String how) { }

    private final List<Doc> docs;
    private final IndexSearcher searcher;
    private final Map<String, Set<String>> docWords = new HashMap<>();
    private final Embeddings.Vectors vectors;

    public SearchIndex(Collection<Doc> docs, Embeddings embeddings) {
        this.docs = List.copyOf(docs);
        try {
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer()))) {
                for (int i = 0; i < this.docs.size(); i++) {
                    Doc d = this.docs.get(i);
                    Document doc = new Document();
                    doc.add(new StoredField("n", i));
                    doc.add(new StringField("kind", d.kind(), Field.Store.NO));
                    doc.add(new TextField("names", normalise(d.names()), Field.Store.NO));
                    doc.add(new TextField("text", normalise(d.text()), Field.Store.NO));
                    w.addDocument(doc);
                    Set<String> words = new LinkedHashSet<>(terms(d.names()));
                    words.addAll(terms(d.text()));
                    docWords.put(d.id(), words);
                }
            }
            searcher = new IndexSearcher(DirectoryReader.open(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.vectors = embeddings == null ? null : embeddings.embed(this.docs.stream()
                .map(d -> d.names() + ". " + d.text()).toList());
    }

    private static Analyzer analyzer() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer t = new StandardTokenizer();
                return new TokenStreamComponents(t, new LowerCaseFilter(t));
            }
        };
    }

    /** {@code district_id} and {@code loanStatus} read as separate words too. */
    private static String split(String s) {
        if (s == null) {
            return "";
        }
        return s + " " + CAMEL.matcher(s.replace('_', ' ')).replaceAll("$1 $2");
    }

    private static String normalise(String s) {
        return String.join(" ", terms(s));
    }

    /** Search terms of a text: {@link Phrases#words} of it (identifiers split too), then {@link #stem}. */
    static List<String> terms(String s) {
        List<String> out = new ArrayList<>();
        for (String w : Phrases.words(split(s))) {
            out.add(stem(w));
        }
        return out;
    }

    /**
     * A light suffix stripper for retrieval only (phrase lookups stay exact): "correlated", "correlate" and
     * "correlation" all become "correlat"; words of five letters or fewer and identifiers with digits are kept.
     */
    static String stem(String w) {
        if (w.length() <= 5 || w.chars().anyMatch(Character::isDigit)) {
            return w;
        }
        for (String suffix : new String[] {"ions", "ion", "ings", "ing", "ed", "es", "e", "ly"}) {
            if (w.endsWith(suffix) && w.length() - suffix.length() >= 4) {
                return w.substring(0, w.length() - suffix.length());
            }
        }
        return w;
    }

    public int size() {
        return docs.size();
    }

    public List<Doc> docs() {
        return docs;
    }

    /** Whether dense retrieval takes part in this index's searches. */
    public boolean dense() {
        return vectors != null;
    }

    /** The best {@code k} documents for a question, of the given kinds (all kinds when none are given). */
    public List<Hit> search(String question, int k, String... kinds) {
        Map<String, String> said = new LinkedHashMap<>(); // search term -> the question's word, for display
        for (String w : Phrases.words(split(question))) {
            if (!Phrases.stop().contains(w)) {
                said.putIfAbsent(stem(w), w);
            }
        }
        List<String> terms = new ArrayList<>(said.keySet());
        Map<Integer, Double> bm25 = run(exact(terms), kinds, Math.max(k, 20));
        String how = "bm25";
        if (bm25.size() < k && !terms.isEmpty()) {
            Map<Integer, Double> broad = run(broad(terms), kinds, Math.max(k, 20));
            broad.keySet().removeAll(bm25.keySet());
            bm25.putAll(broad);
            how = broad.isEmpty() ? how : "broadened";
        }
        Map<Integer, Double> fused = new LinkedHashMap<>();
        List<Integer> lexical = new ArrayList<>(bm25.keySet());
        for (int r = 0; r < lexical.size(); r++) {
            fused.merge(lexical.get(r), 1.0 / (RRF_K + r + 1), Double::sum);
        }
        Set<Integer> denseTop = new LinkedHashSet<>();
        if (vectors != null) {
            List<Integer> ranked = vectors.rank(question, Math.max(k, 20), i -> kindOk(docs.get(i), kinds));
            for (int r = 0; r < ranked.size(); r++) {
                fused.merge(ranked.get(r), 1.0 / (RRF_K + r + 1), Double::sum);
                denseTop.add(ranked.get(r));
            }
        }
        List<Map.Entry<Integer, Double>> order = new ArrayList<>(fused.entrySet());
        order.sort((a, b) -> {
            int c = Double.compare(b.getValue(), a.getValue());
            return c != 0 ? c : Integer.compare(a.getKey(), b.getKey());
        });
        List<Hit> out = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : order.subList(0, Math.min(k, order.size()))) {
            Doc d = docs.get(e.getKey());
            List<String> matched = terms.stream().filter(docWords.get(d.id())::contains).map(said::get).toList();
            String via = bm25.containsKey(e.getKey()) ? (denseTop.contains(e.getKey()) ? how + "+dense" : how) : "dense";
            out.add(new Hit(d, e.getValue(), matched, via));
        }
        return out;
    }

    private static boolean kindOk(Doc d, String... kinds) {
        if (kinds.length == 0) {
            return true;
        }
        for (String k : kinds) {
            if (k.equals(d.kind())) {
                return true;
            }
        }
        return false;
    }

    private static Query exact(List<String> terms) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        for (String t : terms) {
            b.add(new BoostQuery(new TermQuery(new Term("names", t)), NAME_BOOST), BooleanClause.Occur.SHOULD);
            b.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
        }
        return b.build();
    }

    private static Query broad(List<String> terms) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        for (String t : terms) {
            for (String field : List.of("names", "text")) {
                if (t.length() >= 5) {
                    b.add(new FuzzyQuery(new Term(field, t), 1), BooleanClause.Occur.SHOULD);
                }
                if (t.length() >= 4) {
                    b.add(new PrefixQuery(new Term(field, t)), BooleanClause.Occur.SHOULD);
                }
            }
        }
        return b.build();
    }

    /** Document positions with BM25 scores, best first. */
    private Map<Integer, Double> run(Query q, String[] kinds, int n) {
        Map<Integer, Double> out = new LinkedHashMap<>();
        BooleanQuery.Builder b = new BooleanQuery.Builder().add(q, BooleanClause.Occur.MUST);
        if (kinds.length > 0) {
            BooleanQuery.Builder any = new BooleanQuery.Builder();
            for (String k : kinds) {
                any.add(new TermQuery(new Term("kind", k)), BooleanClause.Occur.SHOULD);
            }
            b.add(any.build(), BooleanClause.Occur.FILTER);
        }
        try {
            TopDocs top = searcher.search(b.build(), n);
            var fields = searcher.storedFields();
            for (ScoreDoc sd : top.scoreDocs) {
                out.put(fields.document(sd.doc).getField("n").numericValue().intValue(), (double) sd.score);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IndexSearcher.TooManyClauses e) {
            return out;
        }
        return out;
    }
}
