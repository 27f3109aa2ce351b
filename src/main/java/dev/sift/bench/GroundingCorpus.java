package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerReplay;
import dev.sift.agent.TraceStore;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Claim;
import dev.sift.agent.grounding.ReferenceIndex;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A labelled corpus for the answer check: {@code real/*.json} are traces of real runs, whose answers are right and
 * must pass (an unsupported number there is a false alarm); {@code mutations.jsonl} holds, per real answer, variants
 * with one invented number (a number changed, a number added, two digits swapped, a wrong unit), which must be
 * caught: the check must name a claim inside the invented span. The mutations are made from the real answers by
 * {@link Mutations}, deterministically, so the file can be written again and compared.
 */
public final class GroundingCorpus {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A real run of the corpus, by its file name. */
    public record Real(String name, AgentRun run) { }

    /**
     * What the corpus measured. Costs are per answer check (index + check, from the trace) in milliseconds: wall
     * clock and the thread's CPU time, p50 and p99, with the reference sections (the prompt's dataset and knowledge
     * sections) already indexed, as a run finds them, indexed while its model thinks; and {@code firstCpuP50/Max}, the
     * CPU time of a check that must index its run's reference sections first. {@code byDataset}: per dataset, real
     * answers, false alarms, mutations and mutations caught.
     */
    public record Figures(int real, List<String> falseAlarms, int mutations, int caught, Map<String, int[]> byKind,
                          Map<String, int[]> byDataset, List<String> missed, int derived, int unsupportedValues,
                          double p50, double p99, double cpuP50, double cpuP99, double firstCpuP50, double firstCpuMax) {
        public double falseAlarmRate() {
            return real == 0 ? 0 : (double) falseAlarms.size() / real;
        }

        public double catchRate() {
            return mutations == 0 ? 0 : (double) caught / mutations;
        }
    }

    private final List<Real> reals;
    private final List<Mutations.Mutation> mutations;

    private GroundingCorpus(List<Real> reals, List<Mutations.Mutation> mutations) {
        this.reals = reals;
        this.mutations = mutations;
    }

    /** Reads {@code dir/real/*.json} and {@code dir/mutations.jsonl}; a corpus without mutations makes them. */
    public static GroundingCorpus load(Path dir) throws IOException {
        Path realDir = dir.resolve("real");
        if (!Files.isDirectory(realDir)) {
            throw new IllegalArgumentException("No corpus at " + dir + ": expected " + realDir + " with trace files"
                    + " (*.json), as in bench/grounding.");
        }
        TraceStore store = new TraceStore(realDir);
        List<Real> reals = new ArrayList<>();
        try (Stream<Path> files = Files.list(realDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                reals.add(new Real(f.getFileName().toString(), store.load(f)));
            }
        }
        Path m = dir.resolve("mutations.jsonl");
        List<Mutations.Mutation> muts = new ArrayList<>();
        if (Files.exists(m)) {
            for (String line : Files.readAllLines(m)) {
                if (!line.isBlank()) {
                    muts.add(JSON.readValue(line, Mutations.Mutation.class));
                }
            }
        } else {
            reals.forEach(r -> muts.addAll(Mutations.of(r)));
        }
        return new GroundingCorpus(List.copyOf(reals), List.copyOf(muts));
    }

    public List<Real> reals() {
        return reals;
    }

    /** The mutations the generator makes from this corpus's real answers, one JSON object a line. */
    public String generatedMutations() throws IOException {
        StringBuilder b = new StringBuilder();
        for (Real r : reals) {
            for (Mutations.Mutation m : Mutations.of(r)) {
                b.append(JSON.writeValueAsString(m)).append('\n');
            }
        }
        return b.toString();
    }

    /**
     * Checks every real answer and every mutation {@code rounds} times, after a round to warm up (untimed). Each real
     * run's reference texts are indexed once, as a run indexes its prompt's while the model thinks, and serve the
     * checks of its mutations too.
     */
    public Figures measure(int rounds) {
        Map<String, AgentRun> byName = new LinkedHashMap<>();
        Map<String, ReferenceIndex> refs = new LinkedHashMap<>();
        reals.forEach(r -> byName.put(r.name(), r.run()));
        reals.forEach(r -> refs.put(r.name(), AnswerReplay.reference(r.run())));
        List<AgentRun> runs = new ArrayList<>(reals.stream().map(Real::run).toList());
        List<ReferenceIndex> indexes = new ArrayList<>(reals.stream().map(r -> refs.get(r.name())).toList());
        mutations.forEach(m -> runs.add(Mutations.apply(byName.get(m.trace()), m.answer())));
        mutations.forEach(m -> indexes.add(refs.get(m.trace())));
        for (int i = 0; i < runs.size(); i++) {
            AnswerReplay.check(runs.get(i), indexes.get(i));
        }
        double[] first = firstChecks();
        List<String> alarms = new ArrayList<>();
        Map<String, int[]> byDataset = new java.util.TreeMap<>();
        int derived = 0;
        int values = 0;
        for (Real r : reals) {
            AnswerCheck.Result res = AnswerReplay.check(r.run());
            int[] d = byDataset.computeIfAbsent(r.run().dataset(), x -> new int[4]);
            d[0]++;
            if (!res.grounded()) {
                alarms.add(r.name() + ": " + res.unsupportedText());
                d[1]++;
            }
            derived += res.derived().size();
            values += res.unsupportedValues().size();
        }
        Map<String, int[]> byKind = new LinkedHashMap<>();
        List<String> missed = new ArrayList<>();
        int caught = 0;
        for (int i = 0; i < mutations.size(); i++) {
            Mutations.Mutation m = mutations.get(i);
            AnswerCheck.Result res = AnswerReplay.check(runs.get(reals.size() + i));
            boolean hit = res.unsupported().stream().anyMatch(c -> c.at() < m.to() && c.at() + c.text().length() > m.from());
            int[] k = byKind.computeIfAbsent(m.kind(), x -> new int[2]);
            int[] d = byDataset.computeIfAbsent(byName.get(m.trace()).dataset(), x -> new int[4]);
            k[0]++;
            d[2]++;
            if (hit) {
                k[1]++;
                d[3]++;
                caught++;
            } else {
                missed.add(m.trace() + " [" + m.kind() + "] " + m.answer().substring(m.from(), m.to()));
            }
        }
        double[][] cost = timed(runs, indexes, rounds);
        return new Figures(reals.size(), alarms, mutations.size(), caught, byKind, byDataset, missed, derived, values,
                pct(cost[0], 0.5), pct(cost[0], 0.99), pct(cost[1], 0.5), pct(cost[1], 0.99), pct(first, 0.5),
                first.length == 0 ? 0 : first[first.length - 1]);
    }

    /** Each check {@code rounds} times: sorted wall-clock and CPU milliseconds. */
    private static double[][] timed(List<AgentRun> runs, List<ReferenceIndex> indexes, int rounds) {
        double[] ms = new double[rounds * runs.size()];
        double[] cpu = new double[ms.length];
        int t = 0;
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < runs.size(); i++) {
                long c0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                AnswerReplay.check(runs.get(i), indexes.get(i));
                ms[t] = (System.nanoTime() - t0) / 1e6;
                cpu[t++] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
            }
        }
        Arrays.sort(ms);
        Arrays.sort(cpu);
        return new double[][] {ms, cpu};
    }

    /** The CPU milliseconds of each real run's check when its reference sections are not indexed yet, sorted. */
    private double[] firstChecks() {
        List<Double> out = new ArrayList<>();
        for (Real r : reals) {
            if (!r.run().grounding().reference().isEmpty()) {
                long c0 = THREADS.getCurrentThreadCpuTime();
                AnswerReplay.check(r.run()); // with an index of its own, made by this check
                out.add((THREADS.getCurrentThreadCpuTime() - c0) / 1e6);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    public static void print(Path dir, Figures f, PrintWriter out) {
        out.printf(Locale.ROOT, "Corpus %s: %d real answers, %d mutated (one invented number each)%n", dir, f.real(),
                f.mutations());
        out.printf(Locale.ROOT, "false alarms: %d of %d real answers (%.1f%%)%n", f.falseAlarms().size(), f.real(),
                100 * f.falseAlarmRate());
        f.falseAlarms().forEach(a -> out.println("  false alarm  " + a));
        out.printf(Locale.ROOT, "caught: %d of %d invented numbers (%.1f%%)%n", f.caught(), f.mutations(),
                100 * f.catchRate());
        f.byKind().forEach((k, v) -> out.printf(Locale.ROOT, "  %-12s %d of %d%n", k, v[1], v[0]));
        f.missed().forEach(m -> out.println("  missed  " + m));
        out.println("dataset       real  false alarms  mutated  caught");
        f.byDataset().forEach((k, v) -> out.printf(Locale.ROOT, "%-12s %5d %13d %8d %7d (%.1f%%)%n", k, v[0], v[1], v[2],
                v[3], v[2] == 0 ? 0 : 100.0 * v[3] / v[2]));
        out.printf(Locale.ROOT, "derived numbers in real answers: %d; quoted values found nowhere: %d%n", f.derived(),
                f.unsupportedValues());
        out.printf(Locale.ROOT, "check cost per answer (index + check, from the trace; reference sections indexed):"
                + " wall p50 %.3f ms, p99 %.3f ms; cpu p50 %.3f ms, p99 %.3f ms%n", f.p50(), f.p99(), f.cpuP50(), f.cpuP99());
        out.printf(Locale.ROOT, "a run's first check, indexing its reference sections: cpu p50 %.3f ms, max %.3f ms%n",
                f.firstCpuP50(), f.firstCpuMax());
        out.flush();
    }

    private static double pct(double[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.ceil(p * (sorted.length - 1))];
    }

    static List<Claim> numbers(AgentRun run) {
        return AnswerReplay.check(run).claims().stream().filter(Claim::numeric).toList();
    }
}
