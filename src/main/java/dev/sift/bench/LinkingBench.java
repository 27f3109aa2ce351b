package dev.sift.bench;

import dev.sift.knowledge.Embeddings;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.SchemaLinker;
import dev.sift.knowledge.SearchIndex;
import dev.sift.knowledge.ValueIndex;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Schema linking on the synthetic 500-table warehouse ({@link SyntheticSchema}): recall@10 of the gold
 * tables, the schema block's tokens with linking against rendering every table, and linking latency
 * (p50/p95 after warm-up). Targets: recall@10 ≥ 0.95, ≤ 6k tokens, p50 ≤ 20 ms.
 */
public final class LinkingBench {
    public static final int QUESTIONS = 200;
    static final int BUDGET_CHARS = 6000;

    /** The measured numbers. */
    public record Result(int tables, int questions, double recallAt10, double meanTokens, int maxTokens,
                         int allTokens, double p50Millis, double p95Millis, double p50CpuMillis, long indexMillis,
                         boolean dense) { }

    private final int questions;
    private final boolean embeddings;

    public LinkingBench(int questions) {
        this(questions, false);
    }

    /** With {@code embeddings} the index adds dense retrieval (configuration {@code SIFT_EMBEDDINGS}). */
    public LinkingBench(int questions, boolean embeddings) {
        this.questions = questions;
        this.embeddings = embeddings;
    }

    public Result run() {
        KnowledgeGraph kg = SyntheticSchema.graph();
        long t0 = System.nanoTime();
        SearchIndex index = new SearchIndex(Knowledge.docs(kg), Embeddings.ifEnabled(embeddings));
        long indexMillis = (System.nanoTime() - t0) / 1_000_000;
        ValueIndex values = new ValueIndex(kg);
        List<SyntheticSchema.Question> qs = SyntheticSchema.questions(questions);
        for (int i = 0; i < Math.min(20, qs.size()); i++) { // warm-up
            SchemaLinker.link(qs.get(i).text(), kg, index, values, BUDGET_CHARS);
        }
        int found = 0;
        int gold = 0;
        long tokens = 0;
        int maxTokens = 0;
        int allTokens = 0;
        List<Double> millis = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (SyntheticSchema.Question q : qs) {
            long s = System.nanoTime();
            long c = threads.getCurrentThreadCpuTime();
            SchemaLinker.Linked l = SchemaLinker.link(q.text(), kg, index, values, BUDGET_CHARS);
            millis.add((System.nanoTime() - s) / 1e6);
            cpu.add((threads.getCurrentThreadCpuTime() - c) / 1e6);
            List<String> top = l.tables().subList(0, Math.min(10, l.tables().size()));
            for (String g : q.gold()) {
                gold++;
                found += top.contains(g) ? 1 : 0;
            }
            tokens += l.tokens();
            maxTokens = Math.max(maxTokens, l.tokens());
            allTokens = l.allTokens();
        }
        Collections.sort(millis);
        Collections.sort(cpu);
        return new Result(kg.tables().size(), qs.size(), (double) found / gold, (double) tokens / qs.size(), maxTokens,
                allTokens, millis.get(millis.size() / 2), millis.get((int) (millis.size() * 0.95)), cpu.get(cpu.size() / 2), indexMillis,
                index.dense());
    }

    public void print(Result r, PrintWriter out) {
        out.printf("Schema linking on a synthetic schema of %d tables, %d questions (dense retrieval %s)%n", r.tables(),
                r.questions(), r.dense() ? "on" : "off");
        out.printf("  recall@10 of gold tables : %.3f  (target >= 0.95)%n", r.recallAt10());
        out.printf("  schema block tokens      : mean %.0f, max %d  (target <= 6000)%n", r.meanTokens(), r.maxTokens());
        out.printf("  all tables rendered      : %d tokens; linked/all = %.3f%n", r.allTokens(),
                r.meanTokens() / r.allTokens());
        out.printf("  linking latency          : p50 %.2f ms, p95 %.2f ms wall; p50 %.2f ms CPU  (target p50 <= 20 ms)%n",
                r.p50Millis(), r.p95Millis(), r.p50CpuMillis());
        out.printf("  index build              : %d ms%n", r.indexMillis());
        out.flush();
    }
}
